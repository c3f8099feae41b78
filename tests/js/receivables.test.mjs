// The integrator's day (tests/runtimes/receivables.mjs: a contact, an item, an invoice for them,
// emailed, paid, what is unpaid listed) through the installed package against the sandbox, with the
// generated rows: in Node, and in a worker under workerd (`wrangler dev`).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startSandbox } from "./support/sandbox.mjs";

const consumer = path.dirname(fileURLToPath(import.meta.url));
const h = await import(pathToFileURL(path.join(process.env.SVC_ROOT, "tests/runtimes/harness.mjs")));
const dir = h.installRuntime(consumer, "receivables");
const { receivables, checkReceivables } = await import(pathToFileURL(path.join(dir, "../receivables.mjs")));

let sandbox;
let wrangler;
let workerUrl;
before(async () => {
  sandbox = await startSandbox(["--no-rate-limit"]);
  ({ child: wrangler, url: workerUrl } = await h.startWranglerDev(dir, "/ready", 45_000));
}, { timeout: 60_000 });
after(async () => {
  await wrangler?.stop();
  await sandbox?.close();
});

const account = () => ({ apiDomain: sandbox.url, accessToken: "dev-token", organizationId: "10234695" });

test("Node: the integrator's day", async () => {
  checkReceivables(assert, await receivables(account()));
});

test("workerd: the integrator's day", { timeout: 60_000 }, async () => {
  const res = await fetch(`${workerUrl}/receivables`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(account()),
    signal: AbortSignal.timeout(45_000),
  });
  const text = await res.text();
  assert.equal(res.status, 200, `${text}\n${wrangler.output()}`);
  checkReceivables(assert, JSON.parse(text));
});
