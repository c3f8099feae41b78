// Builds the npm package into pkg/: release wasm, wasm-bindgen (web target), wasm-opt from the
// binaryen npm package, then the per-runtime entries (ESM, and the CommonJS ones bundled from them)
// and the TypeScript declarations.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ensureNodeModules, ensureRust } from "./setup.mjs";
import { log, root, run } from "./lib.mjs";

const pkg = path.join(root, "pkg");
const wasmIn = path.join(root, "target/wasm32-unknown-unknown/release/svc_sdk.wasm");

ensureRust();
ensureNodeModules();
// esbuild and typescript are npm dependencies just installed, so what uses them is loaded after them.
const { minifyTree } = await import("./minify.mjs");
const { writeCommonJs } = await import("./commonjs.mjs");
const { writeDeclarations } = await import("./declarations.mjs");

log("cargo build --release --target wasm32-unknown-unknown");
run("cargo", ["build", "--release", "--target", "wasm32-unknown-unknown", "-p", "svc-sdk", "--lib"]);

rmSync(pkg, { recursive: true, force: true });
run("wasm-bindgen", ["--target", "web", "--experimental-reset-state-function", "--out-dir", pkg, wasmIn]);

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
const snippetPath = findSnippet(path.join(pkg, "snippets"));
const snippet = "./" + path.relative(pkg, snippetPath).split(path.sep).join("/");
// wasm-bindgen copies the modules the wasm imports from; the others of src/wasm/js/ (api.js) go beside them.
const jsDir = path.join(root, "src/wasm/js");
for (const name of readdirSync(jsDir)) copyFileSync(path.join(jsDir, name), path.join(path.dirname(snippetPath), name));
const built = await import(path.join(pkg, "svc_sdk.js"));
built.initSync({ module: readFileSync(wasm) });
const regions = built.__regions();
const ops = built.operations();

// What api.js needs before the wasm is instantiated (an entry instantiates it after its imports ran).
writeFileSync(
  path.join(path.dirname(snippetPath), "catalog.js"),
  `// Written by scripts/build.mjs from the wasm's table.\nexport const REGIONS = ${JSON.stringify(regions)};\nexport const OPERATION_IDS = ${JSON.stringify(ops.map((o) => o.id))};\n`,
);

// The public surface is src/wasm/js/api.js, copied beside the snippet; pkg/api.js names it for the entries.
const api = snippet.replace(/runtime\.js$/, "api.js");
writeFileSync(path.join(pkg, "api.js"), `// The public surface of svc-sdk (src/wasm/js/api.js), shared by every runtime's entry.\nexport * from "${api}";\n`);

// The Durable Object limiter and its store (src/wasm/js/cloudflare.js), beside api.js like it.
const cloudflare = snippet.replace(/runtime\.js$/, "cloudflare.js");
// svc-sdk/redis keeps text only (the core steps on it): it needs no wasm of its own.
writeFileSync(path.join(pkg, "redis.js"), `// Redis as a fleet store (src/wasm/js/redis.js).\nexport * from "${snippet.replace(/runtime\.js$/, "redis.js")}";\n`);

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
  "cloudflare.js": `// svc-sdk/cloudflare: SvcLimiter and durableObjectStore, on the wasm instance of the workerd entry.
import "./workerd.js";
export { SvcLimiter, durableObjectStore } from "${cloudflare}";
`,
  "deno.js": `// Deno entry: the wasm is imported as a module (source phase), so no read permission is needed.
import source wasmModule from "./svc_sdk_bg.wasm";
import { initSync } from "./svc_sdk.js";
initSync({ module: wasmModule });
export * from "./api.js";
`,
  "web.js": `// Browser and bundler entry: the wasm is fetched next to this file.
import init from "./svc_sdk.js";
await init({ module_or_path: new URL("./svc_sdk_bg.wasm", import.meta.url) });
export * from "./api.js";
`,
};
for (const [name, text] of Object.entries(entries)) writeFileSync(path.join(pkg, name), text);

writeDeclarations(pkg, ops, built.__types ? built.__types() : {});
rmSync(path.join(pkg, ".gitignore"), { force: true });
minifyTree(pkg);
await writeCommonJs(pkg);
log(`pkg/ written: wasm ${statSync(wasm).size} bytes, glue ${statSync(path.join(pkg, "svc_sdk.js")).size} bytes`);
