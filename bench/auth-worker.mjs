// One process of the authentication bench (bench/auth.mjs): a Client with oauth, on its own or sharing a
// redis store, calling once every `everyMs` for `seconds`; prints its calls' outcomes as one JSON line.
import { Client } from "svc-sdk";
import { redisStore } from "svc-sdk/redis";

const c = JSON.parse(process.argv[2]);
const store = c.redisUrl ? redisStore({ url: c.redisUrl }) : undefined;
const client = new Client({
  oauth: c.oauth,
  organizationId: c.org,
  maxRetries: 0,
  deadlineMs: c.deadlineMs,
  // The organization's limits out of the way (the sandbox runs without them): only the token differs.
  plan: "ultimate",
  rateLimit: { requestsPerMinute: 6_000, maxConcurrent: 50, ...(store ? { store } : {}) },
});
const counts = { ok: 0, failed: {} };
const end = Date.now() + c.seconds * 1000;
while (Date.now() < end) {
  await client.listCurrencies().then(
    () => counts.ok++,
    (e) => (counts.failed[e.kind] = (counts.failed[e.kind] ?? 0) + 1),
  );
  await new Promise((r) => setTimeout(r, c.everyMs));
}
await store?.close();
process.stdout.write(JSON.stringify(counts) + "\n");
