// The CommonJS entries, bundled by esbuild from the ESM ones after they are written: pkg/node.cjs
// from pkg/node.js and pkg/validate/node.cjs from pkg/validate/node.js (each wasm read from disk
// next to its file, instantiated synchronously), and pkg/redis.cjs from pkg/redis.js on node.cjs's
// SvcError, so that `instanceof` holds between require("svc-sdk") and require("svc-sdk/redis"). The ESM and the CommonJS entries are two
// instances of the SDK, each with its own wasm and its own SvcError.
import path from "node:path";
import { build } from "esbuild";

// wasm-bindgen's glue names the snippet once per imported group: the same module under one key.
const common = {
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  legalComments: "none",
  logLevel: "warning",
  logOverride: { "duplicate-object-key": "silent" },
};

/** The module URL of the bundle, where the ESM sources read import.meta.url. */
const moduleUrl = {
  define: { "import.meta.url": "__svcModuleUrl" },
  banner: { js: 'var __svcModuleUrl=require("node:url").pathToFileURL(__filename).href;' },
};

/** Resolves redis.js's import of node.js (SvcError) to node.cjs, which exports the very class. */
const sharedError = {
  name: "svc-sdk-shared-error",
  setup(b) {
    b.onResolve({ filter: /^\.\/node\.js$/ }, () => ({ path: "./node.cjs", external: true }));
  },
};

export async function writeCommonJs(pkg) {
  for (const dir of [pkg, path.join(pkg, "validate")]) {
    await build({ ...common, ...moduleUrl, entryPoints: [path.join(dir, "node.js")], outfile: path.join(dir, "node.cjs") });
  }
  await build({ ...common, entryPoints: [path.join(pkg, "redis.js")], outfile: path.join(pkg, "redis.cjs"), external: ["redis"], plugins: [sharedError] });
}
