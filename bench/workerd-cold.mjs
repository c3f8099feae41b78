// A workerd isolate's cold start: a fresh `workerd serve` of a worker that validates the valid
// createFixedAsset body on its first request, timed from the process's start to that first answer,
// beside the same worker without svc-sdk (a baseline: workerd's own start). Runs are alternated.
// `node bench/workerd-cold.mjs [runs]` prints one JSON line: the medians and every run, in ms.
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CASES } from "./bodies.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const esbuild = await import(path.join(root, "node_modules/esbuild/lib/main.js"));
const WORKERD = path.join(root, "node_modules/.bin/workerd");
const runs = Number(process.argv[2] ?? 9);
const body = CASES.find((c) => c.name.startsWith("createFixedAsset, valid")).body;

const WORKERS = {
  "svc-sdk": `import { validate } from ${JSON.stringify(path.join(root, "pkg/workerd.js"))};
export default { fetch() { return new Response(String(validate("createFixedAsset", ${JSON.stringify(body)}).ok)); } };`,
  baseline: `export default { fetch() { return new Response("true"); } };`,
};

/** Bundles a worker as wrangler does (the workerd conditions, the .wasm a module of its own) into dir. */
async function bundle(dir, source) {
  writeFileSync(path.join(dir, "entry.js"), source);
  await esbuild.build({
    entryPoints: [path.join(dir, "entry.js")],
    outfile: path.join(dir, "worker.js"),
    bundle: true,
    format: "esm",
    platform: "neutral",
    conditions: ["workerd", "worker", "browser"],
    logLevel: "silent",
    plugins: [{
      name: "wasm-module",
      setup(b) {
        b.onResolve({ filter: /\.wasm$/ }, (args) => {
          copyFileSync(path.join(args.resolveDir, args.path), path.join(dir, "svc_sdk_bg.wasm"));
          return { path: "./svc_sdk_bg.wasm", external: true };
        });
      },
    }],
  });
}

function config(dir, port, wasm) {
  const modules = [`(name = "worker.js", esModule = embed "worker.js")`];
  if (wasm) modules.push(`(name = "svc_sdk_bg.wasm", wasm = embed "svc_sdk_bg.wasm")`);
  writeFileSync(path.join(dir, "config.capnp"), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = (modules = [${modules.join(", ")}], compatibilityDate = "2024-09-23"))],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
`);
}

const freePort = () => new Promise((resolve) => {
  const s = createServer().listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

/** Starts workerd on dir's config and times its first answer (and a second one), in ms. */
async function once(dir, port) {
  const start = performance.now();
  const child = spawn(WORKERD, ["serve", path.join(dir, "config.capnp")], { stdio: "ignore" });
  try {
    for (;;) {
      if (performance.now() - start > 30_000) throw new Error("workerd did not answer in 30 s");
      const res = await fetch(`http://127.0.0.1:${port}/`).catch(() => null);
      if (res) {
        const text = await res.text();
        if (text !== "true") throw new Error(`the worker answered ${text}`);
        const first = performance.now() - start;
        const t = performance.now();
        await (await fetch(`http://127.0.0.1:${port}/`)).text();
        return { first, second: performance.now() - t };
      }
      await new Promise((r) => setTimeout(r, 1));
    }
  } finally {
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
  }
}

const base = mkdtempSync(path.join(tmpdir(), "svc-workerd-cold-"));
try {
  const dirs = {};
  for (const [name, source] of Object.entries(WORKERS)) {
    dirs[name] = path.join(base, name);
    mkdirSync(dirs[name]);
    await bundle(dirs[name], source);
  }
  const all = { "svc-sdk": [], baseline: [] };
  for (let i = 0; i < runs; i++) {
    for (const name of Object.keys(all)) {
      const port = await freePort();
      config(dirs[name], port, name === "svc-sdk");
      all[name].push(await once(dirs[name], port));
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const out = { runs };
  for (const [name, xs] of Object.entries(all)) {
    out[name] = { first: median(xs.map((x) => x.first)), second: median(xs.map((x) => x.second)), firsts: xs.map((x) => Math.round(x.first * 10) / 10) };
  }
  out.added = out["svc-sdk"].first - out.baseline.first;
  console.log(JSON.stringify(out));
} finally {
  rmSync(base, { recursive: true, force: true });
}
