// One call through the SDK against a raw fetch of the same request, sequential, on the loopback
// sandbox: `node bench/call-worker.mjs <sdk entry URL> <sandbox URL> <rounds> <calls per round> <timeline calls>`.
// Prints one JSON line: per round, the µs of one call of each variant (for the SDK and the raw fetch, the
// median of calls made in turns), and where the SDK's time falls.
const [entry, url, roundsArg = "7", perRoundArg = "300", timelineArg = "2000"] = process.argv.slice(2);
const { Client } = await import(entry);
const ORG = "10234695";
const TOKEN = "dev-token";

const base = { accessToken: TOKEN, organizationId: ORG, apiDomain: url, maxRetries: 0 };
const sdk = new Client({ ...base, rateLimit: false });
// The same with the limiter on (a limit that never binds): what queueing through the limiter costs.
const limited = new Client({ ...base, plan: "ultimate", rateLimit: { requestsPerMinute: 1_000_000, maxConcurrent: 10 } });

const currency = (await sdk.listCurrencies()).items.find((c) => c.currency_code === "USD") ?? (await sdk.listCurrencies()).items[0];
const id = currency.currency_id;
// The very request the SDK sends, for the raw fetch (prepare leaves the Authorization header out).
const prepared = await sdk.prepare("getCurrency", id);
const headers = { ...prepared.headers, Authorization: `Svc-oauthtoken ${TOKEN}` };

const variants = {
  raw: async () => {
    const res = await fetch(prepared.url, { method: prepared.method, headers });
    const body = await res.json();
    return body.currency;
  },
  // The raw fetch dressed as the SDK's attempt() dresses it: an AbortController signal and a timeout timer.
  rawSignal: async () => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 60_000);
    try {
      const res = await fetch(prepared.url, { method: prepared.method, headers, signal: controller.signal });
      const body = JSON.parse(new TextDecoder().decode(await res.arrayBuffer()));
      return body.currency;
    } finally {
      clearTimeout(timer);
    }
  },
  // The same with AbortSignal.timeout(): one native timer, no controller, no listener of ours.
  rawTimeoutSignal: async () => {
    const res = await fetch(prepared.url, { method: prepared.method, headers, signal: AbortSignal.timeout(60_000) });
    return JSON.parse(new TextDecoder().decode(await res.arrayBuffer())).currency;
  },
  sdk: () => sdk.getCurrency(id),
  sdkLimiter: () => limited.getCurrency(id),
};

let sink = 0;
async function perCall(fn, n) {
  const start = performance.now();
  for (let i = 0; i < n; i++) sink += (await fn()).currency_id === id ? 1 : 0;
  return ((performance.now() - start) / n) * 1000;
}

const perRound = Number(perRoundArg);
for (const fn of Object.values(variants)) await perCall(fn, perRound); // warm-up: JIT, keep-alive sockets
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
/** The SDK and the raw fetch call by call in turns (which goes first alternates): the median µs of one call of each. */
async function interleaved(n) {
  const t = { sdk: [], raw: [] };
  for (let i = 0; i < n; i++) {
    for (const k of i % 2 ? ["raw", "sdk"] : ["sdk", "raw"]) {
      const start = performance.now();
      sink += (await variants[k]()).currency_id === id ? 1 : 0;
      t[k].push((performance.now() - start) * 1000);
    }
  }
  return t;
}

const rounds = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
const others = Object.keys(variants).filter((k) => k !== "sdk" && k !== "raw");
for (let r = 0; r < Number(roundsArg); r++) {
  // sdk and raw: per round, the median call of each, timed in turns so that both see the same machine
  // (a shared machine's pauses land on single calls, which the median leaves out). The other variants
  // after them, µs per call over the round, the order rotated.
  const t = await interleaved(perRound);
  rounds.sdk.push(median(t.sdk));
  rounds.raw.push(median(t.raw));
  for (const k of others.map((_, i) => others[(i + r) % others.length])) rounds[k].push(await perCall(variants[k], perRound));
}
// Where the time falls: the SDK's fetch wrapped to take the time it is called and the time it resolves
// (response headers), against a raw fetch timed the same way; interleaved call by call, medians.
let calledAt = 0;
let answeredAt = 0;
const timed = new Client({
  ...base,
  rateLimit: false,
  fetch: async (input, init) => {
    calledAt = performance.now();
    const res = await fetch(input, init);
    answeredAt = performance.now();
    return res;
  },
});
const tl = { sdk: { before: [], fetch: [], after: [], total: [] }, raw: { fetch: [], after: [], total: [] } };
const calls = Number(timelineArg);
for (let i = 0; i < calls + 200; i++) {
  const t0 = performance.now();
  await timed.getCurrency(id);
  const t1 = performance.now();
  const res = await fetch(prepared.url, { method: prepared.method, headers });
  const u1 = performance.now();
  sink += (await res.json()).currency ? 1 : 0;
  const u2 = performance.now();
  if (i < 200) continue; // warm-up
  tl.sdk.before.push(calledAt - t0);
  tl.sdk.fetch.push(answeredAt - calledAt);
  tl.sdk.after.push(t1 - answeredAt);
  tl.sdk.total.push(t1 - t0);
  tl.raw.fetch.push(u1 - t1);
  tl.raw.after.push(u2 - u1);
  tl.raw.total.push(u2 - t1);
}
const med = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] * 1000;
};
const timeline = { calls };
for (const [k, parts] of Object.entries(tl)) timeline[k] = Object.fromEntries(Object.entries(parts).map(([p, xs]) => [p, med(xs)]));

console.log(JSON.stringify({ op: "getCurrency", url: prepared.url.replace(url, ""), rounds, timeline, sink }));
