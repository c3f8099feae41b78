// The size budgets of the package's entries (budgets.json): gzip -9 of what each entry loads (its JS and
// its wasm, followed from the entry's module), checked after the build by `npm test`. An entry over its
// budget fails with its figure, its budget and its largest items (function bodies and data segments of
// its cargo wasm, by name) beside those of the build recorded in budgets.json. A budget may only go
// down, unless the commit that raises it says why a feature is worth its bytes.
// `node scripts/budgets.mjs` checks; `--record` writes this build's figures and items as the recorded build.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { loadedFiles } from "../bench/size.mjs";
import { wasmItems } from "./wasm-items.mjs";
import { output } from "./lib.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const pkg = path.join(root, "pkg");
const file = path.join(root, "budgets.json");
/** Each entry: the module it starts from, and the cargo output its wasm is made from (names kept). */
export const ENTRIES = {
  node: { module: "node.js", cargo: "release/svc_sdk.wasm" },
  page: { module: "page/web.js", cargo: "page/svc_sdk.wasm" },
  validate: { module: "validate/web.js", cargo: "validate/svc_validate.wasm" },
  testing: { module: "testing/node.js", cargo: "release/svc_testing.wasm" },
};
const TOP = 12;

/**
 * What no client entry may link, by the names of its cargo wasm's items: core's float formatting
 * (flt2dec, Grisu and Dragon, about 25 KB), which one `{}` of an f64 in any message brings back. The
 * testing entry's sandbox writes computed amounts with it, so it is left out.
 */
export const FORBIDDEN = [
  {
    what: "core's float formatting (an f64 or f32 written by format!, Display or Debug)",
    pattern: /flt2dec|float_to_decimal|3fmt5float|fmt::float|[<_](f32|f64) as core::fmt/,
    entries: ["node", "page", "validate"],
  },
];

/** The items of each entry's cargo wasm that a FORBIDDEN pattern names, as messages. */
export function forbidden(itemsOf = (entry) => wasmItems(path.join(root, "target/wasm32-unknown-unknown", entry.cargo))) {
  const found = [];
  for (const rule of FORBIDDEN) {
    for (const name of rule.entries) {
      const hits = itemsOf(ENTRIES[name]).filter(([item]) => rule.pattern.test(item));
      if (hits.length) found.push(`${name} links ${rule.what}:\n${hits.map(([item, bytes]) => `  ${String(bytes).padStart(8)}  ${item}`).join("\n")}`);
    }
  }
  return found;
}

/** gzip -9 of what `module` loads, and its largest items. */
export function measure({ module, cargo }) {
  const gzip = loadedFiles(module).reduce((s, f) => s + gzipSync(readFileSync(path.join(pkg, f)), { level: 9 }).length, 0);
  const top = wasmItems(path.join(root, "target/wasm32-unknown-unknown", cargo)).slice(0, TOP);
  return { gzip, top };
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

/** The message of an entry over its budget: the figure, the budget, the largest items now and as recorded. */
function over(name, now, budget, recorded) {
  const before = new Map(recorded?.top ?? []);
  const rows = now.top.map(([item, bytes]) => {
    const was = before.get(item);
    const change = was === undefined ? "new" : bytes === was ? "same" : `${bytes > was ? "+" : ""}${bytes - was} bytes`;
    return `  ${String(bytes).padStart(8)}  ${item}  (${change} against ${recorded?.commit ?? "no recorded build"})`;
  });
  return [
    `${name}: gzip -9 of what it loads is ${kb(now.gzip)}, over its budget of ${kb(budget.gzip)}${recorded ? ` (recorded build ${recorded.commit}: ${kb(recorded.gzip)})` : ""}.`,
    `  its largest items (bytes of its cargo wasm, before wasm-opt):`,
    ...rows,
  ].join("\n");
}

export function check() {
  const { budgets, recorded } = JSON.parse(readFileSync(file, "utf8"));
  const failures = forbidden();
  for (const [name, entry] of Object.entries(ENTRIES)) {
    const now = measure(entry);
    const budget = budgets[name];
    const line = `${name}: ${kb(now.gzip)} of ${kb(budget.gzip)}`;
    if (now.gzip > budget.gzip) failures.push(over(name, now, budget, recorded?.entries?.[name] && { ...recorded.entries[name], commit: recorded.commit }));
    else console.log(`[svc-sdk] budget ${line}`);
  }
  return failures;
}

function record() {
  const data = JSON.parse(readFileSync(file, "utf8"));
  const commit = output("git", ["rev-parse", "--short", "HEAD"])?.trim() ?? "unknown";
  data.recorded = { commit, entries: Object.fromEntries(Object.entries(ENTRIES).map(([name, entry]) => [name, measure(entry)])) };
  // One item a line: [name, bytes].
  const text = JSON.stringify(data, null, 2).replace(/\[\n\s+("(?:[^"\\]|\\.)*"),\n\s+(\d+)\n\s+\]/g, "[$1, $2]");
  writeFileSync(file, text + "\n");
  console.log(`[svc-sdk] budgets.json: recorded build ${commit}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--record")) record();
  else {
    const failures = check();
    if (failures.length) {
      console.error(failures.join("\n\n"));
      process.exit(1);
    }
  }
}
