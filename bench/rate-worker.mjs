// The sustained rate the client's limiter achieves under a per-minute limit, against a sandbox that
// enforces the same limit: `node bench/rate-worker.mjs <sdk entry URL> <sandbox URL> <per minute> <seconds>`.
// Starts limit × (seconds / 60 + 1) calls at once, so that the queue never runs dry, and records
// when each one reaches fetch (after the limiter let it go) and what it was answered.
const [entry, url, limitArg = "600", secondsArg = "120"] = process.argv.slice(2);
const { Client } = await import(entry);
const limit = Number(limitArg);
const seconds = Number(secondsArg);
const total = limit * (seconds / 60 + 1);

const starts = [];
const statuses = {};
const recording = async (input, init) => {
  starts.push(performance.now());
  const res = await fetch(input, init);
  statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  return res;
};
const client = new Client({
  accessToken: "dev-token",
  organizationId: "10234695",
  apiDomain: url,
  plan: "ultimate",
  // The queue holds every call (its default bound, 1000, is below `total`).
  rateLimit: { requestsPerMinute: limit, maxQueued: total },
  fetch: recording,
});

const t0 = performance.now();
const results = await Promise.allSettled(Array.from({ length: total }, () => client.listCurrencies()));
const elapsed = performance.now() - t0;
const rejected = results.filter((r) => r.status === "rejected");

starts.sort((a, b) => a - b);
const first = starts[0];
const inWindow = starts.filter((t) => t - first < seconds * 1000).length;
// How closely the limiter packs the minute: the time from a call to the call `limit` places later.
const gaps = [];
for (let i = 0; i + limit < starts.length; i++) gaps.push(starts[i + limit] - starts[i]);
gaps.sort((a, b) => a - b);

console.log(
  JSON.stringify({
    limit,
    seconds,
    calls: total,
    attempts: starts.length,
    inWindow,
    perMinute: (inWindow / seconds) * 60,
    // Sustained: `limit` calls per (median time from a call to the call `limit` places later).
    sustainedPerMinute: (limit * 60_000) / gaps[Math.floor(gaps.length / 2)],
    statuses,
    rejected: rejected.length,
    firstError: rejected[0] ? `${rejected[0].reason?.kind}: ${rejected[0].reason?.message}` : null,
    gapMinMs: gaps[0],
    gapMedianMs: gaps[Math.floor(gaps.length / 2)],
    gapMaxMs: gaps[gaps.length - 1],
    elapsedMs: elapsed,
    state: client.rateLimitState(),
  }),
);
