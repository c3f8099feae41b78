// The layout's guardrails, run by `npm test` before the cargo tests: no production Rust file over 800
// lines and no function over 80 (a file's `#[cfg(test)]` module at the end, and files that are tests,
// left out), and no cycle among sibling modules (a module reaching a sibling's subtree, directly or
// through others, that reaches back). A parent and its own children may use each other; siblings may
// not go round in a circle. Tests stay apart from the code: a test-only module is a `tests` module or
// lies in one, no module is mounted by `#[path]`, and no production code names a `tests` module. Every
// Rust file of the crates opens with a `//!` line that says what it is. And no production build links
// serde_json.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { root } from "./lib.mjs";

export const MAX_LINES = 800;
export const MAX_FN_LINES = 80;
/** The crates' source roots. */
const CRATES = { "svc-sdk": "crates/svc-sdk/src", "svc-core": "crates/svc-core/src", "svc-json": "crates/svc-json/src", "svc-validate": "crates/svc-validate/src", sandbox: "crates/sandbox/src", "svc-testing": "crates/svc-testing/src" };

/** Every .rs file under `dir`, with its module path (`["send", "fleet"]` for send/fleet.rs or send/fleet/mod.rs) and its text, read once. */
function modules(dir) {
  return readdirSync(path.join(root, dir), { recursive: true })
    .filter((f) => f.endsWith(".rs"))
    .map((f) => {
      const parts = f.split(path.sep);
      const last = parts.pop().replace(/\.rs$/, "");
      if (!["mod", "lib", "main"].includes(last)) parts.push(last);
      const file = path.join(dir, f);
      return { file, path: parts, text: readFileSync(path.join(root, file), "utf8") };
    });
}

/** The module paths that a parent declares under `#[cfg(test)]` (`#[cfg(test)] mod tests;`). */
function testModules(mods) {
  const found = [];
  for (const m of mods) {
    const lines = m.text.split("\n");
    lines.forEach((l, i) => {
      if (l.trim() !== "#[cfg(test)]") return;
      const at = /^\s*#\[path = "([^"]+)"\]/.exec(lines[i + 1] ?? "");
      const child = /^\s*(pub(\([^)]*\))?\s+)?mod (\w+);/.exec(lines[i + (at ? 2 : 1)] ?? "");
      if (at) found.push(path.join(path.dirname(m.file), at[1]));
      else if (child) found.push([...m.path, child[3]].join("::"));
    });
  }
  return found;
}

/** Whether a file holds only tests: tests.rs, a file under a tests/ folder, one whose module is `tests`, or one its parent declares under `#[cfg(test)]`. */
const isTest = (m, tests = []) =>
  m.path.includes("tests") ||
  m.file.endsWith("/tests.rs") ||
  tests.some((t) => m.file === t || m.path.join("::") === t || m.path.join("::").startsWith(`${t}::`));

/** The production modules of a crate. */
function production(dir) {
  const mods = modules(dir);
  const tests = testModules(mods);
  return mods.filter((m) => !isTest(m, tests));
}

/** Each crate's source root and production modules, every file read once for all the checks. */
export const sources = () => Object.values(CRATES).map((dir) => ({ dir, mods: production(dir) }));

/** The lines of a file before its trailing `#[cfg(test)]` module. */
export function productionLines(text) {
  const lines = text.split("\n");
  const at = lines.findIndex((l, i) => l.trim() === "#[cfg(test)]" && /^(pub(\([^)]*\))?\s+)?mod \w+\s*\{/.test(lines[i + 1] ?? ""));
  return (at === -1 ? lines : lines.slice(0, at)).filter((l, i, all) => i < all.length - 1 || l !== "").length;
}

/** The module paths a file names: `crate::a::b`, `super::x` resolved from `at`. */
function references(text, at) {
  const found = [];
  const code = text.replace(/\/\/.*$/gm, "");
  for (const m of code.matchAll(/\bcrate((?:::\w+)+)/g)) found.push(m[1].slice(2).split("::"));
  // `super` in a file module is its parent; in mod.rs too (the folder is the module).
  for (const m of code.matchAll(/\b((?:super::)+)(\w+(?:::\w+)*)/g)) {
    const ups = m[1].split("super::").length - 1;
    const base = at.slice(0, Math.max(0, at.length - ups));
    if (at.length - ups < 0) continue;
    found.push([...base, ...m[2].split("::")]);
  }
  return found;
}

/** Cycles among siblings: for each folder's modules, the edges `a -> b` where a's subtree names b's. */
export function cycles({ dir: crateDir, mods }) {
  const known = new Set(mods.map((m) => m.path.join("::")));
  const edges = new Map();
  for (const m of mods) {
    const prod = m.text.split("\n").slice(0, productionLines(m.text)).join("\n");
    for (const target of references(prod, m.path)) {
      // The longest known module prefix of the target.
      let t = target.length;
      while (t > 0 && !known.has(target.slice(0, t).join("::"))) t--;
      const to = target.slice(0, t);
      // The first place the two paths part: siblings under their common parent.
      let i = 0;
      while (i < m.path.length && i < to.length && m.path[i] === to[i]) i++;
      if (i >= m.path.length || i >= to.length) continue; // a parent and its own subtree
      const parent = m.path.slice(0, i).join("::");
      const key = `${parent}|${m.path[i]}`;
      if (!edges.has(key)) edges.set(key, new Set());
      edges.get(key).add(to[i]);
    }
  }
  // Per parent, a depth-first search for a cycle among its children.
  const found = [];
  const parents = new Set([...edges.keys()].map((k) => k.split("|")[0]));
  for (const parent of parents) {
    const next = (child) => [...(edges.get(`${parent}|${child}`) ?? [])];
    const state = new Map();
    const stack = [];
    const visit = (n) => {
      state.set(n, 1);
      stack.push(n);
      for (const to of next(n)) {
        if (state.get(to) === 1) found.push(`${crateDir}: ${[...stack.slice(stack.indexOf(to)), to].map((c) => (parent ? `${parent}::${c}` : c)).join(" -> ")}`);
        else if (!state.has(to)) visit(to);
      }
      stack.pop();
      state.set(n, 2);
    };
    for (const k of edges.keys()) if (k.startsWith(`${parent}|`) && !state.has(k.split("|")[1])) visit(k.split("|")[1]);
  }
  return found;
}

/** Where tests are not apart from the code, as "file:line: what": a module declared under `#[cfg(test)]` that
 * is not a `tests` module (in a production file), a production-named file that holds only tests, a module
 * mounted by `#[path]`, or production code (before a file's test module) that names a `tests` module. */
export function testsNotApart(dir) {
  const mods = modules(dir);
  const tests = testModules(mods);
  const found = [];
  for (const m of mods) {
    const lines = m.text.split("\n");
    const test = isTest(m, tests);
    lines.forEach((l, i) => {
      const at = `${m.file}:${i + 1}`;
      if (/^\s*#\[path\s*=/.test(l)) found.push(`${at}: a module mounted by #[path]`);
      const child = /^\s*(pub(\([^)]*\))?\s+)?mod (\w+)\s*[;{]/.exec(lines[i + 1] ?? "");
      if (!test && l.trim() === "#[cfg(test)]" && child && child[3] !== "tests") {
        found.push(`${at}: the test-only module ${child[3]} is named as production code: put it in a tests module`);
      }
    });
    if (test) continue;
    const prod = lines.slice(0, productionLines(m.text)).join("\n");
    if (prod.replace(/\/\/.*$/gm, "").trim() === "" && prod.length < m.text.trim().length) {
      found.push(`${m.file}: holds only tests under a production name: put them in a tests module`);
    }
    for (const target of references(prod, m.path)) {
      if (target.includes("tests")) found.push(`${m.file}: production code names ${target.join("::")}`);
    }
  }
  return found;
}

/** The tracked Rust files of the crates (sources, tests, examples, fuzz targets) whose first line is not a
 * `//!` doc comment saying what the file is. */
export function undocumentedFiles() {
  const r = spawnSync("git", ["ls-files", "crates/*.rs"], { cwd: root, encoding: "utf8" });
  if (r.status !== 0) return [`git ls-files failed: ${r.stderr.trim()}`];
  const files = r.stdout.split("\n").filter((f) => f && existsSync(path.join(root, f)));
  return files.filter((f) => !/^\/\/! \S/.test(readFileSync(path.join(root, f), "utf8")));
}

/** The production files over MAX_LINES, as "file: lines". */
export function longFiles(crates = sources()) {
  const long = [];
  for (const { mods } of crates) {
    for (const m of mods) {
      const n = productionLines(m.text);
      if (n > MAX_LINES) long.push(`${m.file}: ${n} lines`);
    }
  }
  return long;
}

/** The code of a line for counting braces: no comment, no string or char literal. */
const bare = (line) => line.replace(/"(\\.|[^"\\])*"/g, '""').replace(/'(\\.|[^'\\])'/g, "' '").replace(/\/\/.*$/, "");

/** The functions of a text longer than MAX_FN_LINES, as "name (lines) at line". */
export function longFunctions(text) {
  const lines = text.split("\n").slice(0, productionLines(text));
  const long = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?fn\s+(\w+)/.exec(lines[i]);
    if (!m) continue;
    let [depth, opened, j] = [0, false, i];
    for (; j < lines.length; j++) {
      const code = bare(lines[j]);
      depth += (code.match(/\{/g) ?? []).length - (code.match(/\}/g) ?? []).length;
      opened ||= code.includes("{");
      if ((opened && depth <= 0) || (!opened && code.trimEnd().endsWith(";"))) break;
    }
    if (j - i + 1 > MAX_FN_LINES) long.push(`${m[5]} (${j - i + 1} lines) at line ${i + 1}`);
    if (opened) i = j;
  }
  return long;
}

/** Every production function over MAX_FN_LINES, as "file: name (lines) at line". */
export function longFunctionsEverywhere(crates = sources()) {
  return crates.flatMap(({ mods }) => mods.flatMap((m) => longFunctions(m.text).map((f) => `${m.file}: ${f}`)));
}

/** The builds that ship (each crate as it is built, the page's client and the bin's), each with the crates that
 * carry serde_json into it: none may (tests and the build-time generators use it through the feature `serde_json`
 * of svc-core and svc-json). */
export function serdeJsonInBuilds() {
  const builds = [...Object.keys(CRATES).map((crate) => [crate]), ["svc-sdk", "--no-default-features"], ["svc-sdk", "--features", "cli"]];
  return builds.flatMap((build) => {
    const args = ["tree", "-q", "-e", "normal", "--target", "all", "-p", ...build, "-i", "serde_json"];
    const r = spawnSync("cargo", args, { cwd: root, encoding: "utf8" });
    if (r.status !== 0 && /did not match any packages/.test(r.stderr)) return [];
    if (r.status !== 0) return [`${build.join(" ")}: cargo tree failed: ${r.stderr.trim()}`];
    const via = r.stdout.trim().split("\n").slice(1).map((l) => l.replace(/^[\s│├└─]+/, "").split(" (")[0]);
    return via.length ? [`${build.join(" ")}, through ${via.join(" < ")}`] : [];
  });
}

/** Every check; the problems found, one per line. */
export function guardrails() {
  const crates = sources();
  return [
    ...longFiles(crates).map((f) => `over ${MAX_LINES} lines: ${f}`),
    ...longFunctionsEverywhere(crates).map((f) => `a function over ${MAX_FN_LINES} lines: ${f}`),
    ...crates.flatMap(cycles).map((c) => `module cycle: ${c}`),
    ...Object.values(CRATES).flatMap(testsNotApart).map((t) => `tests not apart: ${t}`),
    ...undocumentedFiles().map((f) => `no //! line first: ${f}`),
    ...serdeJsonInBuilds().map((b) => `serde_json in a production build: ${b}`),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const problems = guardrails();
  for (const p of problems) console.error(p);
  console.log(`guardrails: ${problems.length} problem(s)`);
  process.exit(problems.length === 0 ? 0 : 1);
}
