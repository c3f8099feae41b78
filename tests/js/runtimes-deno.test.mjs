// Deno smoke test: the installed package, imported by name from the consumer's node_modules
// (deno.json "nodeModulesDir": "manual", `deno` export condition), runs the shared scenario
// against a loopback recording server with no permission but the network to it (the wasm is
// imported as a module, not read from disk); the test reads Deno's JSON report from stdout.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startRecordingServer } from "./support/recording-server.mjs";

const consumer = path.dirname(fileURLToPath(import.meta.url));
const h = await import(pathToFileURL(path.join(process.env.SVC_ROOT, "tests/runtimes/harness.mjs")));
const TOKEN = "smoke-token-deno";

let server;
let dir;
before(async () => {
  dir = h.installRuntime(consumer, "deno");
  server = await h.startScenarioServer(startRecordingServer);
});
after(() => server?.close());

test("Deno with --allow-net only: import by name, one call, a caught SvcError, still working after bad calls", { timeout: 60_000 }, async () => {
  const run = await h.runChild(h.bin("deno"), ["run", "--allow-net=127.0.0.1", "smoke.mjs", server.url, TOKEN, h.ORG], {
    cwd: dir,
    env: h.toolEnv({ DENO_DIR: path.join(consumer, ".deno"), DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1" }),
    timeoutMs: 45_000,
    label: "deno",
  });
  assert.equal(run.code, 0, run.output);
  const line = run.stdout.trim().split("\n").at(-1);
  const report = JSON.parse(line);
  assert.equal(report.runtime.name, "deno");
  // The `deno` condition (listed before `node`) picks the Deno entry: the node entry would read the wasm
  // with node:fs, the web entry would fetch it from a file: URL, both needing --allow-read.
  assert.equal(report.runtime.resolved, pathToFileURL(path.join(consumer, "node_modules/svc-sdk/pkg/deno.js")).href);
  h.checkScenario(report, server, TOKEN);
  console.log(`deno ${report.runtime.version}: scenario in ${run.ms} ms`);
});
