// workerd smoke test: `wrangler dev` (local workerd, bundled by esbuild with the `workerd` export
// condition, the .wasm as a CompiledWasm module) serves a worker that imports the installed package
// by name and runs the shared scenario against a loopback recording server when the test POSTs /smoke.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startRecordingServer } from "./support/recording-server.mjs";

const consumer = path.dirname(fileURLToPath(import.meta.url));
const h = await import(pathToFileURL(path.join(process.env.SVC_ROOT, "tests/runtimes/harness.mjs")));
const TOKEN = "smoke-token-workerd";
const WRANGLER_VERSION = JSON.parse(readFileSync(path.join(h.root, "node_modules/wrangler/package.json"), "utf8")).version;

let server;
let wrangler;
let workerUrl;
let startMs;

/**
 * wrangler must reach no host but loopback: no metrics, no error reports, its npm update check
 * answered from a fresh cache (and pointed at a closed loopback port should the cache be ignored),
 * and miniflare's Request.cf object read from a fresh local cache instead of being downloaded.
 */
function offlineWranglerEnv(workerDir) {
  const state = path.join(workerDir, ".state");
  const tmp = h.ensureDir(path.join(state, "tmp"));
  h.ensureDir(path.join(tmp, "update-check"));
  writeFileSync(path.join(tmp, "update-check", "wrangler-latest.json"), JSON.stringify({ latest: WRANGLER_VERSION, lastUpdate: Date.now() }));
  mkdirSync(path.join(workerDir, "node_modules/.mf"), { recursive: true });
  writeFileSync(path.join(workerDir, "node_modules/.mf/cf.json"), JSON.stringify({ colo: "LOCAL", country: "US", httpProtocol: "HTTP/1.1" }));
  return h.toolEnv({
    TMPDIR: tmp,
    XDG_CONFIG_HOME: h.ensureDir(path.join(state, "config")),
    WRANGLER_LOG_PATH: h.ensureDir(path.join(state, "logs")),
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_SEND_ERROR_REPORTS: "false",
    npm_registry: "http://127.0.0.1:9/",
    CI: "1",
  });
}

before(async () => {
  const workerDir = h.installRuntime(consumer, "workerd");
  server = await h.startScenarioServer(startRecordingServer);
  const [port, inspectorPort] = [await h.freePort(), await h.freePort()];
  const started = performance.now();
  wrangler = h.startChild(
    process.execPath,
    [path.join(h.root, "node_modules/wrangler/bin/wrangler.js"), "dev", "--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspectorPort), "--local-protocol", "http", "--show-interactive-dev-session=false", "--log-level", "info"],
    { cwd: workerDir, env: offlineWranglerEnv(workerDir), label: "wrangler dev" },
  );
  workerUrl = `http://127.0.0.1:${port}`;
  await h.waitForHttp(`${workerUrl}/ready`, { timeoutMs: 45_000, child: wrangler });
  startMs = Math.round(performance.now() - started);
}, { timeout: 60_000 });
after(async () => {
  await wrangler?.stop();
  await server?.close();
});

test("workerd (wrangler dev): import by name, one call, a caught SvcError, still working after bad calls", { timeout: 60_000 }, async () => {
  const started = performance.now();
  const res = await fetch(`${workerUrl}/smoke`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ apiDomain: server.url, accessToken: TOKEN, organizationId: h.ORG }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  assert.equal(res.status, 200, `${text}\n${wrangler.output()}`);
  const report = JSON.parse(text);
  assert.equal(report.runtime.name, "workerd");
  assert.equal(report.runtime.userAgent, "Cloudflare-Workers");
  h.checkScenario(report, server, TOKEN);
  assert.doesNotMatch(wrangler.stdout + wrangler.stderr, /update available|Unable to fetch the `Request.cf`/, "wrangler stayed offline");
  console.log(`wrangler ${WRANGLER_VERSION}: ready in ${startMs} ms, scenario in ${Math.round(performance.now() - started)} ms`);
});
