// `npm start`: builds what is missing or stale (the package in pkg/, the API reference in docs/api, the
// demo app's link to it, the app's Vite build in www/dist, the sandbox), starts the sandbox service with a few demo fixed assets,
// and serves the demo app with the svc-sdk proxy at /api on the same origin (www/server.mjs), both on
// 127.0.0.1. Prints both URLs. Ctrl-C stops both.
//   env: SANDBOX_PORT (default 8787), WWW_PORT (default 5173)
// `npm run demo:static` (--static): only builds the static demo into www/dist-static (`vite build --mode
// static`: the sandbox runs in the page), for any static file server; starts nothing.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildDocs, ENTRIES } from "./docs.mjs";
import { ensureNodeModules, ensureRust } from "./setup.mjs";
import { log, root, run } from "./lib.mjs";

const SANDBOX_PORT = Number(process.env.SANDBOX_PORT ?? 8787);
const WWW_PORT = Number(process.env.WWW_PORT ?? 5173);
const www = path.join(root, "www");
const STATIC = process.argv.includes("--static");
const dist = path.join(www, STATIC ? "dist-static" : "dist");

/** The newest modification time of the files under the given paths (directories walked, node_modules and the builds skipped). */
function newest(...paths) {
  let t = 0;
  for (const p of paths) {
    if (!existsSync(p)) continue;
    const s = statSync(p);
    if (!s.isDirectory()) t = Math.max(t, s.mtimeMs);
    else for (const name of readdirSync(p)) if (!["node_modules", "dist", "dist-static", "target"].includes(name)) t = Math.max(t, newest(path.join(p, name)));
  }
  return t;
}
const mtime = (p) => (existsSync(p) ? statSync(p).mtimeMs : 0);

ensureRust();
ensureNodeModules();

// The package: built when missing, or older than the Rust sources.
const wasm = path.join(root, "pkg/svc_sdk_bg.wasm");
if (!existsSync(path.join(root, "pkg/web.js")) || mtime(wasm) < newest(path.join(root, "crates"), path.join(root, "Cargo.toml"))) {
  log("building the package (pkg/)");
  run("node", [path.join(root, "scripts/build.mjs")]);
}

// The API reference (`npm run docs`): written when missing, or older than the package's declarations.
const reference = path.join(root, "docs/api/index.html");
if (!STATIC && mtime(reference) < newest(...Object.values(ENTRIES).map((f) => path.join(root, "pkg", f)))) {
  log("writing the API reference (docs/api/)");
  const { warnings, errors } = await buildDocs();
  if (warnings || errors) log(`the API reference has ${warnings} warnings and ${errors} errors (npm run docs shows them)`);
}

// The app depends on the package as a user's project does ("svc-sdk": "file:.."): a link to this repository.
if (!existsSync(path.join(www, "node_modules/svc-sdk/package.json"))) {
  log("installing the demo app's dependencies (www/node_modules)");
  run("npm", ["install", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error"], { cwd: www });
}

// The app: built by Vite when missing, or older than its sources or the package.
if (mtime(path.join(dist, "index.html")) < newest(path.join(www, "index.html"), path.join(www, "src"), path.join(root, "pkg"), ...(STATIC ? [path.join(www, "demo-data.mjs")] : []))) {
  log(`building the demo app (vite build www${STATIC ? " --mode static" : ""})`);
  run(path.join(root, "node_modules/.bin/vite"), ["build", www, ...(STATIC ? ["--mode", "static"] : []), "--outDir", dist, "--emptyOutDir", "--logLevel", "warn"]);
}
if (STATIC) {
  console.log(`static demo: ${path.relative(root, dist)}/  (serve it with any static file server; the sandbox runs in the page)`);
  process.exit(0);
}

log("building the sandbox");
run("cargo", ["build", "--release", "--quiet", "-p", "sandbox"]);

// The sandbox exits when its stdin closes, so it never outlives this script.
const sandbox = spawn(path.join(root, "target/release/sandbox"), ["--port", String(SANDBOX_PORT), "--exit-on-stdin-eof", "--quiet"], {
  stdio: ["pipe", "pipe", "inherit"],
});
const sandboxUrl = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error("the sandbox did not start within 15 s")), 15_000);
  sandbox.once("error", reject);
  sandbox.once("exit", (code) => reject(new Error(`the sandbox exited (${code}); is port ${SANDBOX_PORT} free? (SANDBOX_PORT=...)`)));
  let out = "";
  sandbox.stdout.on("data", (chunk) => {
    out += chunk;
    const m = out.match(/listening on (http:\/\/\S+)/);
    if (m) {
      clearTimeout(timer);
      resolve(m[1]);
    }
  });
}).catch((e) => {
  console.error(`[svc-sdk] ${e.message}`);
  process.exit(1);
});

// The sandbox's accounts server answers at the same URL; its demo OAuth client comes from the Rust consts.
const { demo_client: demo } = await (await fetch(`${sandboxUrl}/__sandbox/accounts`)).json();
const demoOAuth = { clientId: demo.client_id, clientSecret: demo.client_secret, refreshToken: demo.refresh_token, accountsUrl: sandboxUrl };

// The app's server and the demo data import "svc-sdk" from www/node_modules, as the app does.
const { serveDemo, SANDBOX_TOKEN, SANDBOX_ORG } = await import(pathToFileURL(path.join(www, "demo.mjs")));

let server;
try {
  server = await serveDemo({
    dist,
    sandboxUrl,
    oauth: demoOAuth,
    port: WWW_PORT,
    onApi: ({ method, path: p, status, ms }) => log(`${method} ${p} -> ${status}${ms === undefined ? "" : ` (${ms} ms)`}`),
  });
} catch (e) {
  const hint = e.code === "EADDRINUSE" ? `127.0.0.1:${WWW_PORT} is taken; try WWW_PORT=...` : e.code ?? e.message;
  console.error(`[svc-sdk] the demo app could not start (${hint})`);
  sandbox.stdin.end();
  process.exit(1);
}

console.log(`sandbox:  ${sandboxUrl}  (token ${SANDBOX_TOKEN}, organization ${SANDBOX_ORG}, ${server.seeded.length} demo fixed assets)`);
console.log(`accounts: ${demoOAuth.accountsUrl}/oauth/v2/token  (demo oauth: clientId ${demoOAuth.clientId}, clientSecret ${demoOAuth.clientSecret}, refreshToken ${demoOAuth.refreshToken}, accountsUrl ${demoOAuth.accountsUrl})`);
console.log(`demo app: ${server.url}/  (the proxy at ${server.url}/api gets its token with the demo OAuth client and adds it; the browser never sees it)`);
console.log(`connect:  ${server.url}/#connect  (an organization connected through the sandbox's consent page, with createConnections on the server)`);
console.log(`reference: ${reference}  (the API reference: every export, option and type)`);
console.log("Ctrl-C stops both.");

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  sandbox.stdin.end();
  sandbox.kill("SIGTERM");
  await server.close();
  process.exit(0);
}
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
sandbox.on("exit", (code, signal) => {
  if (stopping) return;
  console.error(`[svc-sdk] the sandbox stopped (${code ?? signal}); stopping the demo app`);
  server.close().then(() => process.exit(1));
});
