// Class 7 of the hardening issue: per-call options are checked as the client's are, header values
// and tokens are checked for what a header carries before anything is sent, and an abort rejects
// at once in every phase, the token function's included.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Client } from "svc-sdk";
import { ORG, TOKEN, rejection, setUp, stillWorks, svcError, thrown } from "./support/hardening.mjs";

const env = setUp();
const client = (extra = {}) => new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.server.url, ...extra });

test("per-call options: the client's bounds, integers only, known names only, a real signal", async () => {
  env.server.reset();
  const c = client();
  const bad = [
    { timeoutMs: 2 ** 31 }, { timeoutMs: 24 * 3_600_000 + 1 }, { timeoutMs: -1 }, { timeoutMs: 1.5 }, { timeoutMs: "100" }, { timeoutMs: NaN },
    { maxRetries: 101 }, { maxRetries: -1 }, { maxRetries: Infinity },
    { signal: {} }, { signal: "abort" }, { timeout: 5 }, 5, "x", [], () => {},
  ];
  for (const options of bad) {
    const e = await rejection(c.listPlans({}, options), svcError("config"));
    assert.equal(e.operationId, "listPlans");
    await rejection(c.request("GET", "billing", "/plans", {}, options), svcError("config"));
  }
  assert.equal(env.server.requests.length, 0);
  await env.witness.listCurrencies({}, { timeoutMs: 24 * 3_600_000, maxRetries: 100 });
  await stillWorks(env);
});

test("header values and tokens outside printable ASCII are refused up front, never retried as network failures", async () => {
  env.server.reset();
  const c = client();
  for (const value of ["💩", "é", "a\tb", "\u0100", "x\u007f"]) {
    const params = { x_unique_identifier_key: "cf_k", x_unique_identifier_value: value, amount: 1 };
    const e = await rejection(c.updateExpenseByUniqueField(params), svcError("validation"));
    assert.deepEqual(e.issues[0].path, ["x_unique_identifier_value"]);
  }
  for (const token of ["tokĀ", "tok é", "tok en", "tok💩"]) {
    thrown(() => new Client({ accessToken: token, organizationId: ORG, apiDomain: env.server.url }), svcError("config", token));
    let calls = 0;
    const fn = client({ accessToken: () => (calls++, token) });
    await rejection(fn.listPlans(), svcError("config", token));
    assert.equal(calls, 1, "asked once, not retried");
  }
  assert.equal(env.server.requests.length, 0);
  await stillWorks(env);
});

test("an abort rejects at once while the token function is pending, while queued, while waiting to retry", async () => {
  env.server.reset();
  let release;
  const pending = client({ accessToken: () => new Promise((r) => (release = r)) });
  const controller = new AbortController();
  const call = pending.listPlans({}, { signal: controller.signal });
  controller.abort(new Error("stop"));
  const e = await rejection(call, svcError("aborted"));
  assert.equal(e.message, "stop");
  release(TOKEN);
  await rejection(pending.listPlans({}, { signal: AbortSignal.abort() }), svcError("aborted"));

  const queued = client({ rateLimit: { maxConcurrent: 1 } });
  env.server.reply({ status: 200, body: { code: 0, plans: [] }, delayMs: 200 });
  const first = queued.listPlans();
  const second = new AbortController();
  const waiting = queued.listPlans({}, { signal: second.signal });
  second.abort();
  await rejection(waiting, svcError("aborted"));
  await first;

  env.server.reply({ status: 503, body: { code: 1, message: "busy" }, headers: { "retry-after": "30" } });
  const seen = env.server.requests.length;
  const retrying = new AbortController();
  const later = client().listPlans({}, { signal: retrying.signal });
  while (env.server.requests.length === seen) await new Promise((r) => setTimeout(r, 10));
  retrying.abort();
  await rejection(later, svcError("aborted"));
  await stillWorks(env);
});
