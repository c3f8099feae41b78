// Issue 47, through the installed package against the sandbox: the organization's day is the service's
// figure. A free-plan client (1000 a day) whose service states 7500 sends its 1001st call; a day spent by
// other integrations is refused before sending, with retryAfterMs to the reset; a background sync leaves
// the reserve of the day to interactive calls; quirky headers never lock a client out.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { Client, SvcError } from "svc-sdk";
import { Sandbox } from "svc-sdk/testing";

const FAST = { ratePerMinute: 1_000_000 };
const fast = { requestsPerMinute: 1_000_000, maxConcurrent: 10 };
const rejection = (promise) => promise.then((v) => assert.fail(`resolved: ${JSON.stringify(v)}`), (e) => e);

function clientOf(sandbox, options = {}) {
  return new Client({ accessToken: "dev-token", organizationId: sandbox.organizationId, apiDomain: sandbox.url, fetch: sandbox.fetch, ...options });
}

test("a free-plan client against a service stating a day of 7500 sends its 1001st call, and says once that the day differs", { timeout: 120_000 }, async () => {
  const sandbox = new Sandbox({ ...FAST, plan: "free", dailyQuota: 7500 });
  const records = [];
  const logger = { debug() {}, info() {}, warn: (r) => records.push(r), error() {} };
  const client = clientOf(sandbox, { plan: "free", rateLimit: fast, logger });
  for (let i = 0; i < 1001; i++) await client.listCurrencies();
  const state = client.rateLimitState();
  assert.deepEqual([state.dailyQuota, state.planDailyQuota, state.remainingToday], [7500, 1000, 7500 - 1001]);
  assert.equal(records.filter((r) => r.event === "day_stated").length, 1);
});

test("a day other integrations spent is refused before sending, with retryAfterMs to the reset", { timeout: 60_000 }, async () => {
  const sandbox = new Sandbox({ ...FAST, dailyQuota: 1000, othersSpent: 998 });
  const client = clientOf(sandbox, { rateLimit: fast, deadlineMs: 60_000 });
  await client.listCurrencies();
  await client.listCurrencies();
  const before = sandbox.requests().length;
  const started = Date.now();
  const e = await rejection(client.listCurrencies());
  assert.ok(e instanceof SvcError && e.kind === "rate_limited", e.message);
  const midnight = (Math.floor(Date.now() / 86_400_000) + 1) * 86_400_000;
  if (midnight - Date.now() > 120_000) {
    assert.ok(Math.abs(Date.now() + e.retryAfterMs - midnight) < 5_000, `${e.retryAfterMs}`);
    assert.ok(Date.now() - started < 2_000, "at once");
    assert.equal(sandbox.requests().length, before, "nothing sent");
    assert.equal(client.rateLimitState().remainingToday, 0);
  }
});

test("a background sync of 1000 calls against a day of 1000 with a 10 % reserve stops at 900, and an interactive call still goes", { timeout: 120_000 }, async () => {
  const sandbox = new Sandbox({ ...FAST, dailyQuota: 1000 });
  const client = clientOf(sandbox, { rateLimit: fast });
  let done = 0;
  let refused;
  for (let i = 0; i < 1000; i++) {
    try {
      await client.listCurrencies({}, { priority: "background" });
      done += 1;
    } catch (e) {
      refused = e;
      break;
    }
  }
  assert.equal(done, 900);
  assert.equal(refused.kind, "rate_limited");
  assert.match(refused.message, /last 100 calls of the organization's day/);
  assert.ok(refused.retryAfterMs > 0);
  await client.listCurrencies();
  // A new client of the process learns the day from its first answer (without a store, clients keep
  // their own figures), then keeps to it: its client-wide priority is background.
  const sync = clientOf(sandbox, { rateLimit: fast, priority: "background" });
  await sync.listCurrencies();
  assert.equal((await rejection(sync.listCurrencies())).kind, "rate_limited", "the client's own priority");
  assert.equal((await rejection(Promise.resolve().then(() => clientOf(sandbox, { priority: "later" })))).kind, "config");
  assert.equal((await rejection(Promise.resolve().then(() => clientOf(sandbox, { rateLimit: { reserve: 1.5 } })))).kind, "config");
});

test("the service's quirks never lock a client out: missing, zero, malformed or absurd day figures", { timeout: 60_000 }, async () => {
  const quirks = [
    {},
    { "x-rate-limit-limit": "0", "x-rate-limit-remaining": "0", "x-rate-limit-reset": "60" },
    { "x-rate-limit-limit": "100", "x-rate-limit-remaining": "0", "x-rate-limit-reset": "60" },
    { "x-rate-limit-limit": "abc", "x-rate-limit-remaining": "-1", "x-rate-limit-reset": "1e3" },
    { "x-rate-limit-limit": "100", "x-rate-limit-remaining": "500", "x-rate-limit-reset": "60" },
    { "x-rate-limit-limit": "100", "x-rate-limit-remaining": "50", "x-rate-limit-reset": "9999999" },
  ];
  for (const headers of quirks) {
    const server = createServer((req, res) => {
      res.writeHead(200, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify({ code: 0, message: "success", currencies: [] }));
    });
    await new Promise((r) => server.listen(0, "127.0.0.1", r));
    try {
      const client = new Client({ accessToken: "dev-token", organizationId: "1", apiDomain: `http://127.0.0.1:${server.address().port}` });
      for (let i = 0; i < 3; i++) await client.listCurrencies();
      const state = client.rateLimitState();
      assert.equal(state.dailyQuota, 1000, JSON.stringify(headers));
      assert.equal(state.remainingToday, 997, JSON.stringify(headers));
    } finally {
      await new Promise((r) => server.close(r));
    }
  }
});
