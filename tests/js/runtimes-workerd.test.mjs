// workerd smoke test: `wrangler dev` (local workerd, bundled by esbuild with the `workerd` export
// condition, the .wasm as a CompiledWasm module) serves a worker that imports the installed package
// by name and runs the shared scenario against a loopback recording server when the test POSTs /smoke.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startRecordingServer } from "./support/recording-server.mjs";

const consumer = path.dirname(fileURLToPath(import.meta.url));
const h = await import(pathToFileURL(path.join(process.env.SVC_ROOT, "tests/runtimes/harness.mjs")));
const TOKEN = "smoke-token-workerd";

let server;
let wrangler;
let workerUrl;
let startMs;

before(async () => {
  const workerDir = h.installRuntime(consumer, "workerd");
  server = await h.startScenarioServer(startRecordingServer);
  ({ child: wrangler, url: workerUrl, ms: startMs } = await h.startWranglerDev(workerDir, "/ready", 45_000));
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
  console.log(`wrangler ${h.wranglerVersion()}: ready in ${startMs} ms, scenario in ${Math.round(performance.now() - started)} ms`);
});
