// The Cloudflare fleet example (examples/workerd-fleet: worker.mjs + wrangler.toml, the README's
// excerpts) under `wrangler dev`, kept off the network as in runtimes-workerd.test.mjs: wrangler
// reads its Durable Object binding and migration, the worker exports SvcLimiter, and its Clients
// keep to the organization's limits through it against the sandbox.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { h, installExample } from "./support/edge.mjs";
import { startSandbox } from "./support/sandbox.mjs";

const consumer = path.dirname(fileURLToPath(import.meta.url));
const TOKEN = "fleet-example-token-31d7";
const SLOW_MS = 300;
let dir;
let sandbox;
let wrangler;
let url;

before(async () => {
  dir = installExample(consumer, "workerd-fleet");
  // Every answer takes SLOW_MS, so that the example's calls overlap; 5 in flight (the free plan).
  sandbox = await startSandbox(["--token", `${TOKEN}=*`, "--no-dev-token", "--faults", "slow=1", "--slow-ms", String(SLOW_MS)]);
  writeFileSync(path.join(dir, ".dev.vars"), `SVC_TOKEN=${JSON.stringify(TOKEN)}\nSVC_API_DOMAIN=${JSON.stringify(sandbox.url)}\n`);
  const dev = await h.startWranglerDev(dir, "/limits", 45_000);
  ({ child: wrangler, url } = dev);
  console.log(`wrangler dev: the fleet example ready in ${dev.ms} ms`);
}, { timeout: 60_000 });
after(async () => {
  await wrangler?.stop();
  await sandbox?.close();
});

test("the example's Clients keep to the limits through its SvcLimiter: 12 requests at once, no 429, at most 5 in flight", { timeout: 60_000 }, async () => {
  await sandbox.resetCounters();
  const answers = await Promise.all(
    Array.from({ length: 12 }, async () => {
      const res = await fetch(`${url}/accounts`, { signal: AbortSignal.timeout(45_000) });
      return [res.status, await res.json()];
    }),
  );
  for (const [status, body] of answers) {
    assert.equal(status, 200, `${JSON.stringify(body)}\n${wrangler.output()}`);
    assert.ok(Array.isArray(body) && body.length > 0, "the chart of accounts");
  }
  const c = await sandbox.counters();
  assert.deepEqual(c.operations.listAccounts.statuses, { 200: 12 }, "no 429");
  assert.ok(c.peak_in_flight[h.ORG] <= 5, `at most 5 in flight, saw ${c.peak_in_flight[h.ORG]}`);
  const limits = await (await fetch(`${url}/limits`)).json();
  assert.equal(limits.maxConcurrent, 5, JSON.stringify(limits));
  // The object's state is in wrangler's local Durable Object storage (the migration made the class).
  const objects = path.join(dir, ".wrangler/state/v3/do/svc-sdk-fleet-example-SvcLimiter");
  assert.ok(existsSync(objects) && readdirSync(objects).some((f) => f.endsWith(".sqlite")), `no object storage in ${objects}`);
  assert.doesNotMatch(wrangler.stdout + wrangler.stderr, /update available|Unable to fetch the `Request.cf`/, "wrangler stayed offline");
});
