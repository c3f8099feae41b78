// require("svc-sdk") and require("svc-sdk/redis") from a CommonJS program on Node with
// --no-experimental-require-module: the `require` condition's bundle (pkg/node.cjs) reads the wasm
// synchronously, validates, and calls the sandbox; its SvcError is the one svc-sdk/redis throws.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startSandbox } from "./support/sandbox.mjs";

const consumer = path.dirname(fileURLToPath(import.meta.url));
const h = await import(pathToFileURL(path.join(process.env.SVC_ROOT, "tests/runtimes/harness.mjs")));
const ORG = "10234695";

let sandbox;
before(async () => {
  sandbox = await startSandbox();
});
after(() => sandbox?.close());

test("CommonJS: require, validate, one call, SvcError shared with svc-sdk/redis", { timeout: 30_000 }, async () => {
  const script = path.join(consumer, "support/commonjs-client.cjs");
  const run = await h.runChild(process.execPath, ["--no-experimental-require-module", script, sandbox.url, "dev-token", ORG], {
    cwd: consumer,
    env: h.toolEnv(),
    timeoutMs: 25_000,
    label: "node (CommonJS)",
  });
  assert.equal(run.code, 0, run.output);
  const report = JSON.parse(run.stdout.trim().split("\n").at(-1));
  const pkg = path.join(consumer, "node_modules/svc-sdk/pkg");
  assert.equal(report.resolved, path.join(pkg, "node.cjs"));
  assert.equal(report.redisResolved, path.join(pkg, "redis.cjs"));
  assert.equal(report.validate.ok, false);
  assert.deepEqual(report.validate.issues.map((i) => [i.path, i.code]), [[["task_name"], "required"]]);
  assert.ok(report.currencies.includes("USD"), `currencies: ${report.currencies}`);
  assert.deepEqual([report.invalid.instanceofSvcError, report.invalid.kind], [true, "validation"]);
  assert.deepEqual([report.redisConfig.instanceofSvcError, report.redisConfig.kind], [true, "config"]);
  const counters = await sandbox.counters();
  assert.equal(counters.operations?.listCurrencies?.received, 1, "one call reached the sandbox");
  assert.equal(counters.operations?.createTask?.received ?? 0, 0, "the invalid call sent nothing");
});
