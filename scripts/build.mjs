// Builds the npm package into pkg/: the client's release wasm (crate svc-sdk) and, in pkg/validate/,
// the wasm of validation alone (crate svc-validate: svc-core and its binding, for svc-sdk/validate). Each goes
// through wasm-bindgen (web target) and wasm-opt from the binaryen npm package; esbuild bundles its
// glue, snippets and instantiation into one module per runtime (node.js, deno.js, workerd.js, web.js),
// so an entry is one JS file and its wasm; then the CommonJS entries (bundled from the ESM ones) and
// the TypeScript declarations are written.
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ensureNodeModules, ensureRust } from "./setup.mjs";
import { log, output, root, run } from "./lib.mjs";

const pkg = path.join(root, "pkg");
const validateDir = path.join(pkg, "validate");
const jsDir = path.join(root, "crates/svc-sdk/src/wasm/js");
const bindingJsDir = path.join(root, "crates/svc-validate/src/wasm/js");
const WASM_OPT = ["-Oz", "--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-sign-ext", "--enable-mutable-globals", "--enable-reference-types", "--enable-multivalue", "--strip-debug", "--strip-producers"];

ensureRust();
ensureNodeModules();
// esbuild and typescript are npm dependencies just installed, so what uses them is loaded after them.
const { writeCommonJs } = await import("./commonjs.mjs");
const { writeDeclarations } = await import("./declarations.mjs");
const { build: esbuild } = await import("esbuild");

/** The directory of `out`'s snippets where wasm-bindgen copied `file` (error.js: the binding's). */
function snippetDir(out, file = "error.js") {
  const found = readdirSync(path.join(out, "snippets"), { recursive: true }).find((f) => path.basename(f) === file);
  return path.dirname(path.join(out, "snippets", found));
}

/** wasm-bindgen's string crossing (passStringToWasm0) copies an ASCII prefix one charCodeAt at a time. */
const ASCII_LOOP = `    const mem = getUint8ArrayMemory0();

    let offset = 0;

    for (; offset < len; offset++) {
        const code = arg.charCodeAt(offset);
        if (code > 0x7F) break;
        mem[ptr + offset] = code;
    }
    if (offset !== len) {
        if (offset !== 0) {
            arg = arg.slice(offset);
        }
`;

/**
 * Has the binding's string crossing write the prefix with TextEncoder.encodeInto, natively (a body of
 * 750 bytes: 1.7 µs to 0.1 µs), and the rest as wasm-bindgen does; fails if the pinned wasm-bindgen's
 * text is not the one this expects.
 */
function encodeStringsNatively(file) {
  const text = readFileSync(file, "utf8");
  if (!text.includes(ASCII_LOOP)) throw new Error(`${file}: wasm-bindgen's passStringToWasm0 is not the expected text`);
  const native = `    const first = cachedTextEncoder.encodeInto(arg, getUint8ArrayMemory0().subarray(ptr, ptr + len));
    let offset = first.written;
    if (first.read !== arg.length) {
        arg = arg.slice(first.read);
`;
  writeFileSync(file, text.replace(ASCII_LOOP, native));
}

/**
 * Builds the wasm of a crate at a cargo profile, binds it into `out` as svc_sdk.js (wasm-bindgen),
 * shrinks it (wasm-opt) and copies the binding's core.js beside the binding's snippets; gives the
 * snippets' path relative to `out`, as an import of an entry in `out` names it.
 */
function buildWasm(profile, crate, out, flags = []) {
  log(`cargo build --profile ${profile} --target wasm32-unknown-unknown -p ${crate} ${flags.join(" ")}`);
  run("cargo", ["build", "--profile", profile, "--target", "wasm32-unknown-unknown", "-p", crate, "--lib", ...flags]);
  const input = path.join(root, "target/wasm32-unknown-unknown", profile, `${crate.replaceAll("-", "_")}.wasm`);
  run("wasm-bindgen", ["--target", "web", "--experimental-reset-state-function", "--out-name", "svc_sdk", "--out-dir", out, input]);
  encodeStringsNatively(path.join(out, "svc_sdk.js"));
  rmSync(path.join(out, ".gitignore"), { force: true });
  const wasm = path.join(out, "svc_sdk_bg.wasm");
  const before = statSync(wasm).size;
  run(path.join(root, "node_modules/.bin/wasm-opt"), [...WASM_OPT, wasm, "-o", wasm]);
  log(`wasm-opt -Oz (${profile}): ${before} -> ${statSync(wasm).size} bytes`);
  if (!existsSync(path.join(out, "snippets"))) return null;
  const snippets = snippetDir(out);
  copyFileSync(path.join(bindingJsDir, "core.js"), path.join(snippets, "core.js"));
  return "./" + path.relative(out, snippets).split(path.sep).join("/");
}

/** How each runtime's entry gets the wasm beside it and instantiates it, before its exports are used. */
const RUNTIMES = {
  "node.js": ["// Node: the wasm bytes are read from disk next to this file.", 'import { readFileSync } from "node:fs";', 'initSync({ module: readFileSync(new URL("./svc_sdk_bg.wasm", import.meta.url)) });'],
  "workerd.js": ["// Cloudflare workerd: the bundler hands over the compiled module.", 'import wasmModule from "./svc_sdk_bg.wasm";', "initSync({ module: wasmModule });"],
  "deno.js": ["// Deno: the wasm is imported as a module (source phase), so no read permission is needed.", 'import source wasmModule from "./svc_sdk_bg.wasm";', "initSync({ module: wasmModule });"],
  "web.js": ["// Browsers and bundlers: the wasm is fetched next to this file.", "", 'await init({ module_or_path: new URL("./svc_sdk_bg.wasm", import.meta.url) });'],
};

/**
 * Bundles each runtime's entry of `dir` into one module: wasm-bindgen's glue (./svc_sdk.js), every
 * snippet, the instantiation its runtime's way and the `surface` (an entry's text, or a function of the
 * entry's file name), and what `only` adds to one entry (`{ [file]: { text, names } }`), for each of
 * `runtimes`; the wasm file stays beside it. Drops the glue and snippets it bundled and gives the names
 * every entry exports.
 */
async function writeEntries(dir, surface, only = {}, runtimes = RUNTIMES) {
  const exported = [];
  for (const [file, [comment, imports, init]] of Object.entries(runtimes)) {
    const text = `${comment}\n${imports}\nimport init, { initSync } from "./svc_sdk.js";\n${init}\n${typeof surface === "function" ? surface(file) : surface}${only[file]?.text ?? ""}`;
    const names = await bundle(dir, text, path.join(dir, file), { external: ["node:*", "./svc_sdk_bg.wasm"], supported: { "import-source": true } });
    exported.push(names.filter((n) => !only[file]?.names.includes(n)).sort().join(", "));
  }
  if (new Set(exported).size !== 1) throw new Error(`the entries of ${dir} export different names: ${exported.join(" | ")}`);
  rmSync(path.join(dir, "svc_sdk.js"));
  rmSync(path.join(dir, "snippets"), { recursive: true, force: true });
  return exported[0].split(", ");
}

// Not minified: the package ships readable JS, so that an error's stack and the line Node prints
// with an uncaught one read as code (a bundler minifies an app's copy anyway).
const bundling = {
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  legalComments: "none",
  logLevel: "warning",
  // wasm-bindgen's glue names the snippet once per imported group: the same module under one key.
  logOverride: { "duplicate-object-key": "silent" },
  write: false,
  metafile: true,
};

/** Resolves the imports that `filter` matches to `to`, kept as imports: the entry whose instance and SvcError they share. */
const onto = (filter, to) => ({ name: `svc-sdk-onto-${to}`, setup: (b) => b.onResolve({ filter }, () => ({ path: to, external: true })) });

/** Bundles `contents` (an entry's text, resolved in `dir`) into `out`; gives the names it exports. */
async function bundle(dir, contents, out, options = {}) {
  const { outputFiles, metafile } = await esbuild({ ...bundling, ...options, stdin: { contents, resolveDir: dir, sourcefile: `(${path.basename(out)})` }, outfile: out });
  writeFileSync(out, outputFiles[0].text);
  return Object.values(metafile.outputs)[0].exports;
}

rmSync(pkg, { recursive: true, force: true });

// svc-sdk: the client's wasm, with every module of crates/svc-sdk/src/wasm/js/ beside its snippets, where the
// binding's error.js and core.js are re-exported (one instance of each, one SvcError).
const bindingSnippets = buildWasm("release", "svc-sdk", pkg);
const snippets = "./" + path.relative(pkg, snippetDir(pkg, "runtime.js")).split(path.sep).join("/");
for (const name of readdirSync(jsDir)) copyFileSync(path.join(jsDir, name), path.join(pkg, snippets, name));
for (const name of ["error.js", "core.js", "exact.js"]) {
  const from = path.posix.relative(snippets, bindingSnippets);
  writeFileSync(path.join(pkg, snippets, name), `export * from "${from}/${name}";\n`);
}
const built = await import(path.join(pkg, "svc_sdk.js"));
built.initSync({ module: readFileSync(path.join(pkg, "svc_sdk_bg.wasm")) });
const ops = built.operations();
// What api.js needs before the wasm is instantiated (an entry instantiates it after its imports ran).
const catalogJs =
  `// Written by scripts/build.mjs from the wasm's tables.\nexport const regions = Object.freeze(${JSON.stringify(built.__regions(), null, 2)});\nexport const accountsServers = Object.freeze(${JSON.stringify(built.__accountsServers(), null, 2)});\nexport const ErrorCode = Object.freeze(${JSON.stringify(built.__errorCodes(), null, 2)});\nexport const FAMILIES = ${JSON.stringify([...new Set(ops.map((o) => o.family))])};\n`;
writeFileSync(path.join(pkg, snippets, "catalog.js"), catalogJs);
// Each entry is one module of glue, snippets and instantiation. svc-sdk/cloudflare and svc-sdk/redis
// import the entry of their runtime, so that they share its wasm instance and its SvcError; the wasm's
// fleet steps that cloudflare needs, and the Lua scripts of redis, hang on SvcError under a symbol, not
// as exports of the entry.
const snippet = (name) => `${snippets}/${name}`;
const internal = `import { __durableConnection, __durableStep, __fleetNamespace, __limiterAlarm, __limiterFetch, __redisBackoff, __redisClient, __redisClose, __redisConnectionSet, __redisLoad, __redisOptions, __redisSave } from "./svc_sdk.js";
import { SvcError } from "${snippet("api.js")}";
const internals = {
  initSync,
  __durableConnection,
  __durableStep,
  __fleetNamespace,
  __limiterAlarm,
  __limiterFetch,
  __redisBackoff,
  __redisClient,
  __redisClose,
  __redisConnectionSet,
  __redisLoad,
  __redisOptions,
  __redisSave,
};
Object.defineProperty(SvcError, Symbol.for("svc-sdk.internal"), { value: Object.freeze(internals) });
`;
// Node's entries alone add toNodeHandler (node/handler.js, on node:stream): the others do not carry it.
const nodeGlue = { text: `export { toNodeHandler } from ${JSON.stringify(path.join(root, "node/handler.js"))};\n`, names: ["toNodeHandler"] };
const names = await writeEntries(pkg, `${internal}export * from "${snippet("api.js")}";\n`, { "node.js": nodeGlue });
log(`svc-sdk entries export ${names.length} names`);
await bundle(pkg, readFileSync(path.join(jsDir, "cloudflare.js"), "utf8"), path.join(pkg, "cloudflare.js"), { plugins: [onto(/^\.\/workerd\.js$/, "./workerd.js")] });
// svc-sdk/redis keeps text only (the core steps on it): it needs no wasm of its own, only the SvcError
// of the entry beside it, one variant per runtime as package.json's exports pair them.
const redis = readFileSync(path.join(jsDir, "redis.js"), "utf8");
for (const [file, entry] of [["redis.js", "node.js"], ["redis-deno.js", "deno.js"], ["redis-workerd.js", "workerd.js"], ["redis-web.js", "web.js"]]) {
  await bundle(pkg, redis, path.join(pkg, file), { plugins: [onto(/^\.\/node\.js$/, `./${entry}`)], external: ["redis"] });
}

// The bin's own instance (pkg/cli/node.js, which bin/svc-sdk.js alone imports): the client's wasm with the
// feature `cli` (the commands' options, help, words and exit statuses, and the accounts grants of login and
// token), so that no entry of the package loads the bin's bytes.
const cliDir = path.join(pkg, "cli");
const cliBinding = buildWasm("cli", "svc-sdk", cliDir, ["--features", "cli"]);
const cliSnippets = "./" + path.relative(cliDir, snippetDir(cliDir, "runtime.js")).split(path.sep).join("/");
for (const name of readdirSync(jsDir)) copyFileSync(path.join(jsDir, name), path.join(cliDir, cliSnippets, name));
writeFileSync(path.join(cliDir, cliSnippets, "catalog.js"), catalogJs);
for (const name of ["error.js", "core.js", "exact.js"]) {
  writeFileSync(path.join(cliDir, cliSnippets, name), `export * from "${path.posix.relative(cliSnippets, cliBinding)}/${name}";\n`);
}
const CLI_CALLS = "__cliArgs, __cliClient, __cliDeviceLogin, __cliDotenv, __cliError, __cliExchange, __cliExit, __cliJson, __cliNotice, __cliOps, __cliResult, __cliSpec";
for (const types of ["svc_sdk.d.ts", "svc_sdk_bg.wasm.d.ts"]) rmSync(path.join(cliDir, types), { force: true });
await writeEntries(cliDir, `import { ${CLI_CALLS} } from "./svc_sdk.js";\nexport const cli = Object.freeze({ ${CLI_CALLS} });\nexport * from "${cliSnippets}/api.js";\n`, { "node.js": nodeGlue }, { "node.js": RUNTIMES["node.js"] });

// svc-sdk in a page (package.json's `browser` condition): the client's wasm without what runs on a
// server only (`--no-default-features`: the proxy, the receivers and the fleet stores are config errors
// there), under the same names. It hands what svc-sdk/validate exports to a global, so that
// svc-sdk/validate's page entry, evaluated after it, uses this instance instead of loading its own wasm.
const pageDir = path.join(pkg, "page");
const SHARED = 'Symbol.for("svc-sdk.page")';
const VALIDATE_NAMES = "ExactNumber, operations, requiredScopes, schemaFor, SvcError, validate";
const pageBinding = buildWasm("page", "svc-sdk", pageDir, ["--no-default-features"]);
const pageSnippets = "./" + path.relative(pageDir, snippetDir(pageDir, "runtime.js")).split(path.sep).join("/");
for (const name of readdirSync(jsDir)) copyFileSync(path.join(jsDir, name), path.join(pageDir, pageSnippets, name));
writeFileSync(path.join(pageDir, pageSnippets, "catalog.js"), catalogJs);
for (const name of ["error.js", "core.js", "exact.js"]) {
  writeFileSync(path.join(pageDir, pageSnippets, name), `export * from "${path.posix.relative(pageSnippets, pageBinding)}/${name}";\n`);
}
const pageNames = await writeEntries(
  pageDir,
  `import { ${VALIDATE_NAMES} } from "${pageSnippets}/api.js";\nglobalThis[${SHARED}] ??= Object.freeze({ ${VALIDATE_NAMES} });\nexport * from "${pageSnippets}/api.js";\n`,
  {},
  { "web.js": RUNTIMES["web.js"] },
);
if (pageNames.join() !== names.join()) throw new Error(`the page entry exports other names than svc-sdk's: ${pageNames.join(", ")}`);

// svc-sdk/validate: the wasm of the validation engine alone; wasm-bindgen copies the snippets it imports.
// In a page where svc-sdk's page entry ran first, it exports that instance's functions and loads no wasm.
const validateSnippets = buildWasm("validate", "svc-validate", validateDir);
/** The binding's modules and what svc-sdk/validate takes of each (all of core.js's exports). */
const VALIDATE_FROM = [["error", "SvcError"], ["exact", "ExactNumber"], ["core", "operations, requiredScopes, schemaFor, validate"]];
/** The entry's surface: the binding's exports; in web.js (`page` set), svc-sdk's page instance's when its page entry ran first. */
function validateEntry(file) {
  const from = (module) => `"${validateSnippets}/${module}.js"`;
  if (file !== "web.js") return `${VALIDATE_FROM.map(([m, names]) => `import { ${names} } from ${from(m)};\n`).join("")}export { ${VALIDATE_NAMES} };\n`;
  const own = VALIDATE_FROM.map(([m, name]) => (m === "core" ? `...${m}` : `${name}: ${m}.${name}`)).join(", ");
  return `${VALIDATE_FROM.map(([m]) => `import * as ${m} from ${from(m)};\n`).join("")}export const { ${VALIDATE_NAMES} } = page ?? { ${own} };\n`;
}
await writeEntries(validateDir, validateEntry, {}, {
  ...RUNTIMES,
  "web.js": ["// Browsers and bundlers: svc-sdk's instance when its page entry ran first, else this wasm, fetched next to this file.", `const page = globalThis[${SHARED}];`, 'if (page === undefined) await init({ module_or_path: new URL("./svc_sdk_bg.wasm", import.meta.url) });'],
});

// svc-sdk/testing: the sandbox's own handling in wasm (crate svc-testing), an entry of its own that
// nothing of the main entries imports; its declarations are written with the others below.
const testingDir = path.join(pkg, "testing");
buildWasm("release", "svc-testing", testingDir);
await writeEntries(testingDir, readFileSync(path.join(root, "crates/svc-testing/src/wasm/js/testing.js"), "utf8"));

// The TypeScript the Rust owns (the rows' types, the request types with their rules, the surface's shapes,
// the sandbox's options) stays out of the wasm: the generators' one home prints it natively.
const declared = output("cargo", ["run", "--quiet", "-p", "xtask", "--", "declarations"]);
if (declared === null) throw new Error("cargo run -p xtask -- declarations failed");
writeDeclarations(pkg, JSON.parse(declared));
await writeCommonJs(pkg);
const size = (...p) => statSync(path.join(...p)).size;
log(`pkg/ written: wasm ${size(pkg, "svc_sdk_bg.wasm")} bytes, node.js ${size(pkg, "node.js")} bytes; pkg/validate/: wasm ${size(validateDir, "svc_sdk_bg.wasm")} bytes, node.js ${size(validateDir, "node.js")} bytes; pkg/testing/: wasm ${size(testingDir, "svc_sdk_bg.wasm")} bytes`);
