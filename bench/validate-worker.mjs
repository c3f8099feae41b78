// One run of the validation benchmark for one implementation, in a process of its own:
// `node bench/validate-worker.mjs <svc-sdk|zod|valibot> <sdk entry URL> <ms per case>`.
// Prints one JSON line: ops/s per case, and the issue count each case gave. The svc-sdk run also
// times `JSON.stringify` of each body the same way, in slices alternated with svc-sdk's (the floor of
// a valid body).
import { CASES } from "./bodies.mjs";

const [lib, entry, perCase = "600"] = process.argv.slice(2);
const budget = Number(perCase);

let call, count;
if (lib === "svc-sdk") {
  const { validate } = await import(entry);
  call = (c) => validate(c.op, c.body);
  count = (r) => (r.ok ? 0 : r.issues.length);
} else {
  const s = await import(`./schemas/${lib}.mjs`);
  call = (c) => s.run(s[c.op], c.body);
  count = (r) => (r.success ? 0 : (r.issues ?? r.error.issues).length);
}

let sink = 0;
/** Calls per second over about `ms` milliseconds, in batches so that the clock is read rarely. */
function measure(c, ms, f = { call, count }) {
  let n = 0;
  let batch = 64;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < batch; i++) sink += f.count(f.call(c));
    n += batch;
    elapsed = performance.now() - start;
    if (elapsed < ms / 20) batch *= 2;
  }
  return (n / elapsed) * 1000;
}

const stringify = { call: (c) => JSON.stringify(c.body), count: (r) => (r.length > 0 ? 0 : 1) };
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
/** Slices of svc-sdk and JSON.stringify, alternated so that each pair sees the same machine. */
const SLICES = 9;

const out = { lib, cases: {} };
for (const c of CASES) {
  const issues = count(call(c));
  measure(c, budget / 3); // warm-up: the JIT settles
  if (lib !== "svc-sdk") {
    out.cases[c.name] = { opsPerSec: measure(c, budget), issues };
    continue;
  }
  measure(c, budget / 3, stringify);
  const sdk = [];
  const floor = [];
  for (let i = 0; i < SLICES; i++) {
    sdk.push(measure(c, budget / SLICES));
    floor.push(measure(c, budget / SLICES, stringify));
  }
  // stringifyRatio: svc-sdk's time ÷ JSON.stringify's, the median of the slices' ratios.
  out.cases[c.name] = { opsPerSec: median(sdk), issues, stringifyOpsPerSec: median(floor), stringifyRatio: median(floor.map((f, i) => f / sdk[i])) };
}
out.sink = sink;
console.log(JSON.stringify(out));
