// Class 1 of the hardening issue: no input size reaches the wasm unbounded, and whatever still
// fails inside it fails as an SvcError while every Client and proxy made before keeps working.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { Client, createProxy, parseEvent, parseWatchNotification, validate } from "svc-sdk";
import { ORG, TOKEN, fillCoreMemory, rejection, setUp, stillWorks, svcError, thrown } from "./support/hardening.mjs";

const env = setUp();
const MiB = 1 << 20;
const notification = JSON.stringify({ module: "Deals", operation: "update", channel_id: "1", token: "chan" });

function refused(e) {
  svcError("decode")(e);
  assert.equal(e.status, 413);
  assert.match(e.message, /maxBodyBytes/);
  return true;
}

test("receivers refuse a body above maxBodyBytes before reading it: text, bytes, multibyte text", async () => {
  const cases = [
    "x".repeat(MiB + 1),
    new Uint8Array(MiB + 1),
    "é".repeat(MiB / 2 + 1),
    "😀".repeat(MiB / 4 + 1),
    " ".repeat(64 * MiB) + notification,
  ];
  for (const body of cases) {
    thrown(() => parseEvent(body, { skipVerification: true }), refused);
    thrown(() => parseEvent(body, { token: "hook", url: "https://h/e?token=hook" }), refused);
    thrown(() => parseWatchNotification(body, { token: "chan" }), refused);
    thrown(() => parseWatchNotification(body, { skipVerification: true }), refused);
    await stillWorks(env);
  }
  thrown(() => parseEvent("{}", { skipVerification: true, maxBodyBytes: 1 }), refused);
  const padded = " ".repeat(2 * MiB) + notification;
  thrown(() => parseWatchNotification(padded, { token: "chan" }), refused);
  assert.equal(parseWatchNotification(padded, { token: "chan", maxBodyBytes: 3 * MiB }).channel_id, "1");
  await stillWorks(env);
});

/** A server whose answer is `size` bytes of a JSON array, sent with or without a content-length. */
async function bigAnswers(size) {
  const chunk = Buffer.from("1,".repeat(32 * 1024));
  const server = http.createServer((req, res) => {
    const declared = req.url.includes("declared");
    res.writeHead(200, { "content-type": "application/json", ...(declared ? { "content-length": String(size) } : {}) });
    let sent = 0;
    const more = () => {
      while (sent < size) {
        const part = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += part.length;
        if (!res.write(part)) return res.once("drain", more);
      }
      res.end();
    };
    res.on("error", () => {});
    more();
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
}

test("an answer above maxResponseBytes is a decode SvcError, not read into the core: declared or streamed, JSON or binary", async () => {
  const big = await bigAnswers(40 * MiB);
  try {
    for (const where of ["declared", "streamed"]) {
      const c = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: `${big.url}/${where}`, maxRetries: 0 });
      const e = await rejection(c.listCurrencies(), svcError("decode"));
      assert.match(e.message, /maxResponseBytes \(33554432 bytes\)/);
      await rejection(c.getExpenseReceipt("1"), svcError("decode"));
      const small = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: `${big.url}/${where}`, maxRetries: 0, maxResponseBytes: 1000 });
      await rejection(small.listPlans(), svcError("decode"));
      await stillWorks(env);
    }
  } finally {
    await big.close();
  }
  for (const bad of [0, -1, 1.5, "1", 2 ** 40, null]) {
    thrown(() => new Client({ accessToken: TOKEN, maxResponseBytes: bad }), svcError("config"));
    thrown(() => new Client({ accessToken: TOKEN, maxRequestBytes: bad }), svcError("config"));
  }
});

test("params above maxRequestBytes are a validation SvcError and nothing is sent", async () => {
  env.server.reset();
  const c = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.server.url, maxRequestBytes: 1000 });
  const e = await rejection(c.createPlan({ plan_code: "p", name: "P", recurring_price: 1, interval: 1, interval_unit: "months", description: "d".repeat(2000) }), svcError("validation"));
  assert.equal(e.issues[0].code, "too_long");
  const huge = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.server.url });
  await rejection(huge.createJournal({ journal_date: "2024-01-01", notes: "n".repeat(11 * MiB) }), svcError("validation"));
  assert.equal(env.server.requests.length, 0);
  await stillWorks(env);
});

test("a wasm instance that fails (its memory spent) restarts: Clients, proxies and functions made before keep working", async () => {
  const before = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.sandbox.url });
  const limited = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.sandbox.url, rateLimit: { requestsPerMinute: 1000, maxConcurrent: 1 } });
  const proxy = createProxy({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.sandbox.url, allow: ["listCurrencies"] });
  await fillCoreMemory();
  const body = " ".repeat(20 * MiB) + notification;
  const e = thrown(() => parseWatchNotification(body, { token: "chan", maxBodyBytes: 64 * MiB }), svcError("decode"));
  assert.match(e.message, /restarted/);
  assert.equal((await before.listCurrencies()).items.length > 0, true);
  const calls = await Promise.all([limited.listCurrencies(), limited.listCurrencies(), limited.listCurrencies()]);
  assert.equal(calls.length, 3);
  const res = await proxy(new Request("http://127.0.0.1/invoice/v3/settings/currencies"));
  assert.equal(res.status, 200);
  assert.equal(parseWatchNotification(body, { token: "chan", maxBodyBytes: 64 * MiB }).channel_id, "1");
  assert.equal(validate("createPlan", { name: 5 }).ok, false);
  await stillWorks(env);
});
