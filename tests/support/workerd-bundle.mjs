// A worker bundled as wrangler bundles it (the workerd conditions, the .wasm left as a module of its
// own beside it), and the modules Miniflare takes for it: the fleet and connections tests' workers.
import { copyFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const h = await import(pathToFileURL(path.join(process.env.SVC_ROOT, "tests/runtimes/harness.mjs")));
const esbuild = await import(pathToFileURL(path.join(h.root, "node_modules/esbuild/lib/main.js")));

/** Bundles dir/`entry` into dir/`dist`; with `inject`, those modules run first (a scaled clock). */
export async function bundle(dir, entry, dist = "dist", inject = []) {
  const out = path.join(h.ensureDir(path.join(dir, dist)), entry);
  await esbuild.build({
    entryPoints: [path.join(dir, entry)],
    outfile: out,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["module", "main"],
    logLevel: "silent",
    inject,
    plugins: [
      {
        name: "wasm-module",
        setup(b) {
          b.onResolve({ filter: /\.wasm$/ }, (args) => {
            copyFileSync(path.join(args.resolveDir, args.path), path.join(dir, dist, path.basename(args.path)));
            return { path: `./${path.basename(args.path)}`, external: true };
          });
        },
      },
    ],
  });
  return out;
}

/** The modules of a bundled worker: its ESM and its wasm, compiled. */
export function modules(file) {
  const wasm = path.join(path.dirname(file), "svc_sdk_bg.wasm");
  return [
    { type: "ESModule", path: file, contents: readFileSync(file, "utf8") },
    { type: "CompiledWasm", path: wasm, contents: readFileSync(wasm) },
  ];
}
