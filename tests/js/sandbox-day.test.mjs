// svc-sdk/testing's Sandbox states the organization's day in X-Rate-Limit-Limit/-Remaining/-Reset, as the
// service does (issue 47): the daily limit in force, the calls left today after the other integrations'
// (othersSpent), and the seconds until UTC midnight.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Sandbox } from "svc-sdk/testing";

const DAY_MS = 86_400_000;
/** Seconds from `ms` to the next UTC midnight, rounded up. */
const untilMidnight = (ms) => Math.ceil((DAY_MS - (ms % DAY_MS)) / 1000);

test("the Sandbox's X-Rate-Limit headers are the organization's day", async () => {
  const sandbox = new Sandbox({ dailyQuota: 7500, othersSpent: 725 });
  const call = () => sandbox.fetch(`${sandbox.url}/books/v3/organizations`, { headers: { authorization: "Svc-oauthtoken dev-token" } });
  for (const left of [6774, 6773]) {
    const before = Date.now();
    const res = await call();
    const after = Date.now();
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("x-rate-limit-limit"), "7500");
    assert.equal(res.headers.get("x-rate-limit-remaining"), String(left), "7500 - 725 less each counted call");
    const reset = Number(res.headers.get("x-rate-limit-reset"));
    if (Math.floor(before / DAY_MS) === Math.floor(after / DAY_MS)) {
      assert.ok(reset >= untilMidnight(after) && reset <= untilMidnight(before), `${reset} s to UTC midnight, not ${untilMidnight(after)}`);
    }
  }
});

test("the Sandbox's daily 429 comes at dailyQuota - othersSpent calls, until the day's end", async () => {
  const sandbox = new Sandbox({ dailyQuota: 3, othersSpent: 1 });
  const call = () => sandbox.fetch(`${sandbox.url}/books/v3/organizations`, { headers: { authorization: "Svc-oauthtoken dev-token" } });
  assert.equal((await call()).headers.get("x-rate-limit-remaining"), "1");
  assert.equal((await call()).headers.get("x-rate-limit-remaining"), "0");
  const refused = await call();
  assert.equal(refused.status, 429);
  assert.equal((await refused.json()).code, 1431);
  assert.equal(refused.headers.get("retry-after"), refused.headers.get("x-rate-limit-reset"));
});

test("a Sandbox without a daily quota sends no X-Rate-Limit headers", async () => {
  const sandbox = new Sandbox({ dailyQuota: "none" });
  const res = await sandbox.fetch(`${sandbox.url}/books/v3/organizations`, { headers: { authorization: "Svc-oauthtoken dev-token" } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("x-rate-limit-limit"), null);
  assert.equal(res.headers.get("x-rate-limit-remaining"), null);
});
