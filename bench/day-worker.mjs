// The day bench (bench/day.mjs) in one process: an organization's day of `dailyQuota` calls, stated by
// svc-sdk/testing's sandbox on every answer, a sync job of `syncCalls` run early in the day and
// `interactiveCalls` of people spread over the rest of it, one after another in that order (the day
// simulated by the order of its calls, not by a clock). With `lanes` the sync job's client is
// priority "background"; without, it is interactive like the people's. Prints one JSON line.
import { Client } from "svc-sdk";
import { Sandbox } from "svc-sdk/testing";

const c = JSON.parse(process.argv[2]);
const sandbox = new Sandbox({ dailyQuota: c.dailyQuota, ratePerMinute: 1_000_000, logLimit: 0 });
const options = {
  accessToken: "dev-token", organizationId: sandbox.organizationId, apiDomain: sandbox.url, fetch: sandbox.fetch,
  maxRetries: 0, rateLimit: { requestsPerMinute: 1_000_000, maxConcurrent: 10 },
};
const sync = new Client({ ...options, priority: c.lanes ? "background" : "interactive" });
const people = new Client(options);
const out = { background: { done: 0, refused: 0 }, interactive: { done: 0, refused: 0 }, status429: 0 };
async function one(client, lane) {
  try {
    await client.listCurrencies();
    out[lane].done++;
  } catch (e) {
    out[lane].refused++;
    if (e.status === 429) out.status429++;
  }
}
for (let i = 0; i < c.syncCalls; i++) await one(sync, "background");
for (let i = 0; i < c.interactiveCalls; i++) await one(people, "interactive");
process.stdout.write(JSON.stringify(out) + "\n");
