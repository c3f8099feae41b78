// `npm start`: builds what is missing, starts the sandbox service and serves the demo app of www/
// on 127.0.0.1, printing both URLs. Ctrl-C stops both.
import { spawn } from "node:child_process";
import { createReadStream, existsSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { ensureNodeModules, ensureRust } from "./setup.mjs";
import { log, root, run } from "./lib.mjs";

const SANDBOX_PORT = Number(process.env.SANDBOX_PORT ?? 8787);
const WWW_PORT = Number(process.env.WWW_PORT ?? 5173);

ensureRust();
ensureNodeModules();
if (!existsSync(path.join(root, "pkg/web.js"))) run("node", [path.join(root, "scripts/build.mjs")]);
log("building the sandbox");
run("cargo", ["build", "--release", "-p", "sandbox"]);

const wwwOrigin = `http://127.0.0.1:${WWW_PORT}`;
const sandbox = spawn(
  path.join(root, "target/release/sandbox"),
  ["--port", String(SANDBOX_PORT), "--cors", wwwOrigin, "--cors", `http://localhost:${WWW_PORT}`],
  { stdio: ["ignore", "pipe", "inherit"] },
);
const sandboxUrl = await new Promise((resolve, reject) => {
  sandbox.on("exit", (code) => reject(new Error(`the sandbox exited (${code})`)));
  sandbox.stdout.on("data", (chunk) => {
    const m = String(chunk).match(/listening on (http:\/\/\S+)/);
    if (m) resolve(m[1]);
  });
});

const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".css": "text/css", ".json": "application/json", ".svg": "image/svg+xml" };
const dist = path.join(root, "www/dist");
const wwwRoot = existsSync(path.join(dist, "index.html")) ? dist : path.join(root, "www");
const server = http.createServer((req, res) => {
  const url = new URL(req.url, wwwOrigin);
  let file = url.pathname.startsWith("/pkg/")
    ? path.join(root, url.pathname)
    : path.join(wwwRoot, url.pathname === "/" ? "index.html" : url.pathname);
  if (!file.startsWith(root) || !existsSync(file) || statSync(file).isDirectory()) {
    res.statusCode = 404;
    return res.end("not found");
  }
  res.setHeader("content-type", types[path.extname(file)] ?? "application/octet-stream");
  createReadStream(file).pipe(res);
});
await new Promise((resolve) => server.listen(WWW_PORT, "127.0.0.1", resolve));

console.log(`sandbox:  ${sandboxUrl}  (token: dev-token)`);
console.log(`demo app: ${wwwOrigin}/?api=${encodeURIComponent(sandboxUrl)}`);
console.log("Ctrl-C stops both.");

const stop = () => {
  sandbox.kill();
  server.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
