// Builds the npm package into pkg/: release wasm, wasm-bindgen (web target), wasm-opt from the
// binaryen npm package, then the per-runtime entries and the TypeScript declarations.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ensureNodeModules, ensureRust } from "./setup.mjs";
import { log, root, run } from "./lib.mjs";
import { writeDeclarations } from "./declarations.mjs";

const pkg = path.join(root, "pkg");
const wasmIn = path.join(root, "target/wasm32-unknown-unknown/release/svc_sdk.wasm");

ensureRust();
ensureNodeModules();

log("cargo build --release --target wasm32-unknown-unknown");
run("cargo", ["build", "--release", "--target", "wasm32-unknown-unknown", "-p", "svc-sdk", "--lib"]);

rmSync(pkg, { recursive: true, force: true });
run("wasm-bindgen", ["--target", "web", "--out-dir", pkg, wasmIn]);

const wasm = path.join(pkg, "svc_sdk_bg.wasm");
const before = statSync(wasm).size;
run(path.join(root, "node_modules/.bin/wasm-opt"), ["-Oz", "--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-sign-ext", "--enable-mutable-globals", "--enable-reference-types", "--enable-multivalue", "--strip-debug", "--strip-producers", wasm, "-o", wasm]);
log(`wasm-opt -Oz: ${before} -> ${statSync(wasm).size} bytes`);

// The snippet holding SvcError: the entries re-export that very module so `instanceof` works.
function findSnippet(dir) {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      const found = findSnippet(p);
      if (found) return found;
    } else if (name === "runtime.js") {
      return p;
    }
  }
  return null;
}
const snippet = "./" + path.relative(pkg, findSnippet(path.join(pkg, "snippets"))).split(path.sep).join("/");

const built = await import(path.join(pkg, "svc_sdk.js"));
built.initSync({ module: readFileSync(wasm) });
const regions = built.__regions();
const ops = built.operations();

writeFileSync(
  path.join(pkg, "api.js"),
  `// The public surface of svc-sdk, shared by every runtime's entry.
import { operations, validate } from "./svc_sdk.js";
export { Client, operations, parseEvent, parseWatchNotification, requiredScopes, validate } from "./svc_sdk.js";
export { SvcError } from "${snippet}";

/** The regions and their API domains. */
export const regions = Object.freeze(${JSON.stringify(regions)});

const known = () => new Set(operations().map((o) => o.id));
let ids;

/** A Standard Schema v1 object for the params of an operation (react-hook-form, any Standard Schema consumer). */
export function schemaFor(operationId) {
  ids ??= known();
  if (!ids.has(operationId)) validate(operationId, {});
  return Object.freeze({
    "~standard": Object.freeze({
      version: 1,
      vendor: "svc-sdk",
      validate(value) {
        const result = validate(operationId, value);
        if (result.ok) return { value };
        return { issues: result.issues.map((issue) => ({ ...issue, message: issue.message, path: issue.path })) };
      },
    }),
  });
}
`,
);

const entries = {
  "node.js": `// Node entry: the wasm bytes are read from disk next to this file.
import { readFileSync } from "node:fs";
import { initSync } from "./svc_sdk.js";
initSync({ module: readFileSync(new URL("./svc_sdk_bg.wasm", import.meta.url)) });
export * from "./api.js";
`,
  "workerd.js": `// Cloudflare workerd entry: the bundler hands over the compiled module.
import wasmModule from "./svc_sdk_bg.wasm";
import { initSync } from "./svc_sdk.js";
initSync({ module: wasmModule });
export * from "./api.js";
`,
  "web.js": `// Browser, Deno and bundler entry: the wasm is fetched next to this file.
import init from "./svc_sdk.js";
await init({ module_or_path: new URL("./svc_sdk_bg.wasm", import.meta.url) });
export * from "./api.js";
`,
};
for (const [name, text] of Object.entries(entries)) writeFileSync(path.join(pkg, name), text);

writeDeclarations(pkg, snippet, ops, regions, built.__types ? built.__types() : {});
rmSync(path.join(pkg, ".gitignore"), { force: true });
log(`pkg/ written: wasm ${statSync(wasm).size} bytes, glue ${statSync(path.join(pkg, "svc_sdk.js")).size} bytes`);
