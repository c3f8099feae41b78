// svc-sdk/cloudflare in real workerd: one Miniflare (the workerd of wrangler's miniflare, offline)
// runs a worker hosting SvcLimiter (tests/runtimes/fleet/limiter.mjs), HOLDERS workers that step on
// it through durableObjectStore as a Client's store does (holder.mjs), and CLIENTS workers with a
// Client each, rateLimit: { store: durableObjectStore(env.SVC_LIMITER) } (client.mjs), calling the
// sandbox on 127.0.0.1. Each worker is its own isolate with its own wasm instance, bundled from the
// installed package by esbuild with the `workerd` condition and the .wasm as a CompiledWasm module,
// and binds the one namespace by scriptName. The test drives the workers over loopback HTTP and
// checks the object's replies, its storage, and the sandbox's counters. The short tests share one
// sandbox at 60 a minute and keep the fleet to 2 in flight; the last two run on sandboxes of their
// own: the whole fleet scenario (the fleet-redis test's, in workerd) at the free plan's limits, and
// a service whose own limit is below the plan's (issue 36).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startSandbox } from "./support/sandbox.mjs";
import { bundle, modules } from "./support/workerd-bundle.mjs";

const consumer = path.dirname(fileURLToPath(import.meta.url));
const h = await import(pathToFileURL(path.join(process.env.SVC_ROOT, "tests/runtimes/harness.mjs")));
const miniflare = await import(pathToFileURL(path.join(h.root, "node_modules/miniflare/dist/src/index.js")));
const { Miniflare, Log, LogLevel } = miniflare.Miniflare ? miniflare : miniflare.default;

const HOLDERS = 4;
const CLIENTS = 8;
const COMPAT = "2024-09-23";
/** Two in flight; the minute and the day never bind in these tests. */
const LIMITS = { perMinute: 10_000, maxConcurrent: 2, daily: 1_000_000 };
/** How long the sandbox takes over every answer. */
const SLOW_MS = 300;
/** Long enough that no lease of a live holder ends while it holds it, however slow the machine. */
const LONG_LEASE = 600_000;

let mf;
let sandbox;
const holders = [];
const clients = [];
let limiterUrl;
let runtimeLog = "";

/**
 * Bundles the workers into dir/`dist` (with `clock`, each runs on it: see the last test) and starts
 * a Miniflare of the limiter, `holders` holders and `clients` client workers; their direct URLs.
 */
async function startFleet({ dist = "dist", holders = 0, clients = 0, clock } = {}) {
  const started = performance.now();
  const inject = [];
  if (clock) {
    const file = path.join(h.ensureDir(path.join(dir, dist)), "clock.mjs");
    const shim = path.join(consumer, "support/scaled-clock.mjs");
    writeFileSync(file, `import { scaleClock } from ${JSON.stringify(shim)};\nscaleClock(${JSON.stringify(clock)});\n`);
    inject.push(file);
  }
  const limiter = await bundle(dir, "limiter.mjs", dist, inject);
  const holder = holders ? await bundle(dir, "holder.mjs", dist, inject) : undefined;
  const client = clients ? await bundle(dir, "client.mjs", dist, inject) : undefined;
  const binding = { SVC_LIMITER: { className: "SvcLimiter", scriptName: "limiter" } };
  const socket = [{ host: "127.0.0.1", port: 0 }];
  const modulesRoot = path.join(dir, dist);
  const mf = new Miniflare({
    host: "127.0.0.1",
    port: 0,
    cf: false,
    log: new Log(LogLevel.WARN),
    // workerd's own output (the uncaught exception of /die among it), shown when before() fails.
    handleRuntimeStdio: (stdout, stderr) => {
      stdout.on("data", (d) => (runtimeLog += d));
      stderr.on("data", (d) => (runtimeLog += d));
    },
    workers: [
      { name: "limiter", modules: modules(limiter), modulesRoot, compatibilityDate: COMPAT, durableObjects: { SVC_LIMITER: "SvcLimiter" }, unsafeDirectSockets: socket },
      ...Array.from({ length: holders }, (_, i) => ({
        name: `holder-${i}`,
        modules: modules(holder),
        modulesRoot,
        compatibilityDate: COMPAT,
        bindings: { HOLDER: `holder-${i}` },
        durableObjects: binding,
        unsafeDirectSockets: socket,
      })),
      ...Array.from({ length: clients }, (_, i) => ({
        name: `client-${i}`,
        modules: modules(client),
        modulesRoot,
        compatibilityDate: COMPAT,
        durableObjects: binding,
        unsafeDirectSockets: socket,
      })),
    ],
  });
  await h.withTimeout(mf.ready, 45_000, "miniflare").catch((e) => {
    throw new Error(`${e.message}\n${runtimeLog.slice(-4000)}`);
  });
  const url = async (name) => String(await mf.unsafeGetDirectURL(name)).replace(/\/$/, "");
  const fleet = { mf, limiterUrl: await url("limiter"), holders: [], clients: [] };
  for (let i = 0; i < holders; i++) fleet.holders.push(await url(`holder-${i}`));
  for (let i = 0; i < clients; i++) fleet.clients.push(await url(`client-${i}`));
  console.log(`miniflare ${1 + holders + clients} workers ready in ${Math.round(performance.now() - started)} ms${clock ? `, on a clock ${clock.scale} times as fast` : ""}`);
  return fleet;
}

let dir;
before(async () => {
  dir = h.installRuntime(consumer, "fleet");
  const fleet = await startFleet({ holders: HOLDERS, clients: CLIENTS });
  ({ mf, limiterUrl } = fleet);
  holders.push(...fleet.holders);
  clients.push(...fleet.clients);
  // Every answer takes SLOW_MS, so that the calls of the fleet overlap; 60 a minute (more than the
  // tests make, so that none waits for the next minute), 5 in flight (the free plan).
  sandbox = await startSandbox(["--rate-per-minute", "60", "--faults", "slow=1", "--slow-ms", String(SLOW_MS)]);
}, { timeout: 60_000 });
after(async () => {
  await mf?.dispose();
  await sandbox?.close();
});

async function post(url, body, timeoutMs = 60_000) {
  const res = await fetch(url, { method: "POST", body: JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return JSON.parse(text);
}

/** An HTTP server on 127.0.0.1 for the workers to call: its base URL, and close(). */
async function serve(handler) {
  const server = http.createServer(handler);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** One step through holder i's durableObjectStore; the parsed reply. */
const step = (i, key, request) => post(`${holders[i]}/step`, { key, request: JSON.stringify(request) });
const acquire = (i, key, leaseMs = LONG_LEASE) => step(i, key, { acquire: { holder: `holder-${i}`, limits: LIMITS, leaseMs } });
const release = (i, key, lease) => step(i, key, { release: { lease } });

async function peek(key, limiter = limiterUrl) {
  const res = await fetch(`${limiter}/peek?key=${encodeURIComponent(key)}`, { signal: AbortSignal.timeout(30_000) });
  const p = await res.json();
  return { ...p, fleet: p.fleet === null ? null : JSON.parse(p.fleet) };
}

/** What the object holds of `key` once no lease is left, or after 45 s. */
async function leasesGone(key) {
  const deadline = Date.now() + 45_000;
  let p = await peek(key);
  while (p.fleet.leases.length > 0 && Date.now() < deadline) {
    await h.sleep(200);
    p = await peek(key);
  }
  return p;
}

test("acquires from every holder at once: maxConcurrent granted, the rest told to wait; a release lets one in", { timeout: 60_000 }, async () => {
  const key = "at-once";
  const replies = await Promise.all(holders.map((_, i) => acquire(i, key)));
  for (const r of replies) assert.ok(r.state.inFlight <= LIMITS.maxConcurrent, JSON.stringify(r));
  const granted = replies.map((r, i) => [i, r.outcome.acquire.granted]).filter(([, g]) => g);
  const waiting = replies.map((r, i) => [i, r.outcome.acquire.wait]).filter(([, w]) => w);
  assert.equal(granted.length, LIMITS.maxConcurrent, JSON.stringify(replies));
  assert.equal(waiting.length, HOLDERS - LIMITS.maxConcurrent);
  for (const [, w] of waiting) assert.equal(w.onRelease, true, "a release may let the waiters in");
  assert.equal(new Set(granted.map(([, g]) => g.lease)).size, granted.length, "every lease its own id");

  // While both slots are held, nobody else gets one.
  assert.ok((await acquire(waiting[0][0], key)).outcome.acquire.wait);
  const [holderA, { lease: leaseA }] = granted[0];
  const freed = await release(holderA, key, leaseA);
  assert.deepEqual([freed.outcome.released, freed.state.inFlight], [true, 1]);
  assert.equal((await release(holderA, key, leaseA)).outcome.released, false, "a lease is released once");
  const next = await acquire(waiting[0][0], key);
  assert.ok(next.outcome.acquire.granted, JSON.stringify(next));
  assert.ok((await acquire(waiting[1][0], key)).outcome.acquire.wait, "full again");

  await release(granted[1][0], key, granted[1][1].lease);
  const last = await release(waiting[0][0], key, next.outcome.acquire.granted.lease);
  assert.equal(last.state.inFlight, 0);
  const p = await peek(key);
  assert.deepEqual(p.fleet.leases, [], "the stored state holds no lease");
});

test("holders cycling at once on one organization: never more than maxConcurrent at the resource, every lease released", { timeout: 120_000 }, async () => {
  const key = "cycles";
  let now = 0;
  let most = 0;
  let served = 0;
  const resource = await serve((req, res) => {
    now++;
    most = Math.max(most, now);
    setTimeout(() => {
      now--;
      served++;
      res.end("ok");
    }, 20);
  });
  const started = performance.now();
  try {
    const cycles = 8;
    const url = `${resource.url}/`;
    const runs = await Promise.all(holders.map((h_) => post(`${h_}/cycles`, { key, cycles, limits: LIMITS, leaseMs: LONG_LEASE, resource: url })));
    assert.equal(served, HOLDERS * cycles);
    assert.ok(most <= LIMITS.maxConcurrent, `at most ${LIMITS.maxConcurrent} at once at the resource, saw ${most}`);
    for (const run of runs) {
      assert.ok(run.inFlight.every((n) => n <= LIMITS.maxConcurrent), JSON.stringify(run.inFlight));
      assert.deepEqual(run.released, Array(cycles).fill(true), "every lease was still held at its release");
    }
    const end = await step(0, key, "state");
    assert.equal(end.state.inFlight, 0);
    console.log(`${HOLDERS} holders x ${cycles} cycles in ${Math.round(performance.now() - started)} ms; most at once ${most}; waits ${runs.map((r) => r.waits)}`);
  } finally {
    await resource.close();
  }
});

test("the object's alarm is set to the first lease's end", { timeout: 30_000 }, async () => {
  const key = "alarm";
  const got = (await acquire(0, key)).outcome.acquire.granted;
  assert.ok(got);
  const p = await peek(key);
  assert.equal(p.alarm, got.until);
  assert.deepEqual(p.fleet.leases.map((l) => l.id), [got.lease]);
  await release(0, key, got.lease);
});

test("a lease never released is swept by the object's alarm after its lease time, with nobody asking", { timeout: 60_000 }, async () => {
  const key = "dead-holder";
  const LEASE = 1500;
  const got = (await acquire(1, key, LEASE)).outcome.acquire.granted;
  assert.ok(got);
  // No step on this organization from here on: a step would sweep the lease itself.
  const p = await leasesGone(key);
  assert.deepEqual(p.fleet.leases, [], `swept: ${JSON.stringify(p)}`);
  assert.ok(p.alarms >= 1, "by the alarm");
  assert.ok(p.now >= got.until, "not before the lease ended");
  assert.equal(p.alarm, null, "and no alarm is left with no lease");
  const after = await acquire(2, key, LEASE);
  assert.equal(after.state.inFlight, 1, "the slot is free for another holder");
  await release(2, key, after.outcome.acquire.granted.lease);
});

test("a bad step is a 400 that rejects the store's step; the object keeps working; the key may be empty", { timeout: 30_000 }, async () => {
  const res = await fetch(`${holders[3]}/step`, { method: "POST", body: JSON.stringify({ key: "bad", request: '{"fly":{}}' }) });
  const body = await res.json();
  assert.equal(res.status, 502);
  assert.match(body.error, /^SvcLimiter answered 400: the fleet step is not valid/);
  assert.equal((await step(3, "bad", "state")).outcome, "done");
  const none = await acquire(3, "");
  assert.ok(none.outcome.acquire.granted, "no organization: key \"\"");
  await release(3, "", none.outcome.acquire.granted.lease);
});

test("durableObjectStore: a config SvcError for what is not a namespace; a rejection when the object cannot be reached", { timeout: 30_000 }, async () => {
  const res = await fetch(`${holders[0]}/checks`);
  const c = await res.json();
  assert.deepEqual(c.config, { thrown: true, instanceofSvcError: true, kind: "config", message: c.config.message });
  assert.match(c.config.message, /Durable Object namespace/);
  assert.deepEqual(c.unreachable, { rejected: true, message: "the object is unreachable" });
});

test("a holder whose request dies mid-call never releases; its lease is swept after its lease time and the slot comes back", { timeout: 60_000 }, async () => {
  const key = "died";
  const LEASE = 1500;
  const one = { ...LIMITS, maxConcurrent: 1 };
  let arrived;
  const seen = new Promise((resolve) => (arrived = resolve));
  let closed;
  const gone = new Promise((resolve) => (closed = resolve));
  const server = await serve((req, res) => {
    if (req.url === "/gate") return void seen.then(() => res.end("die now"));
    res.on("close", () => closed(res.writableFinished));
    arrived();
  });
  try {
    const base = server.url;
    const res = await fetch(`${holders[2]}/die`, { method: "POST", body: JSON.stringify({ key, limits: one, leaseMs: LEASE, resource: `${base}/call`, gate: `${base}/gate` }) });
    assert.equal(res.status, 500, "the handler threw");
    await res.arrayBuffer();
    assert.equal(await gone, false, "workerd cancelled the call it was making: its answer was never written");
    const p = await leasesGone(key);
    assert.deepEqual(p.fleet.leases, [], `swept: ${JSON.stringify(p)}`);
    assert.ok(p.alarms >= 1, "by the alarm");
    const next = await step(3, key, { acquire: { holder: "holder-3", limits: one, leaseMs: LEASE } });
    assert.ok(next.outcome.acquire.granted, "the one slot came back");
    await release(3, key, next.outcome.acquire.granted.lease);
  } finally {
    await server.close();
  }
});

// With the Client: rateLimit: { store: durableObjectStore(env.SVC_LIMITER) } in every client worker.

/** The options of every client worker's Client: at most 2 in flight for the fleet (the sandbox allows 5). */
const clientOptions = ({ maxConcurrent = 2, leaseMs } = {}) => ({
  accessToken: "dev-token",
  organizationId: h.ORG,
  apiDomain: sandbox.url,
  rateLimit: { requestsPerMinute: 60, maxConcurrent, ...(leaseMs ? { leaseMs } : {}) },
});

const calls = (i, names, options) => post(`${clients[i]}/calls`, { options, names });

/**
 * Where client workers record the account name of each request before they send it (options.record:
 * `sent`, in order), the gate of /die: answered once the sandbox `sb` has received as many
 * createAccount requests as were recorded when the gate was asked (so the one that /die waited for
 * among them), or after 30 s; and `stop`, answered once `end()` is called (the end of a run).
 */
async function recorder(sb) {
  const sent = [];
  const received = async () => (await sb.counters()).operations.createAccount?.received ?? 0;
  let end;
  const ended = new Promise((resolve) => (end = resolve));
  const server = await serve(async (req, res) => {
    if (req.url === "/stop") return void ended.then(() => res.end("the run is over"));
    if (req.url === "/gate") {
      const [n, until] = [sent.length, Date.now() + 30_000];
      while ((await received()) < n && Date.now() < until) await h.sleep(20);
      return void res.end("the call is at the sandbox");
    }
    let name = "";
    for await (const chunk of req) name += chunk;
    sent.push(name);
    res.end();
  });
  return { sent, record: `${server.url}/sent`, gate: `${server.url}/gate`, stop: `${server.url}/stop`, end, close: server.close };
}

test(`${CLIENTS} workers with a Client each, their calls queued at once: no 429, at most maxConcurrent in flight at the sandbox, every POST received once`, { timeout: 120_000 }, async () => {
  await sandbox.resetCounters();
  const started = performance.now();
  const PER = 2;
  const names = clients.map((_, i) => Array.from({ length: PER }, (_, j) => `fleet-${i}-${j}`));
  const runs = await Promise.all(clients.map((_, i) => calls(i, names[i], clientOptions())));
  const ms = Math.round(performance.now() - started);
  for (const [i, run] of runs.entries()) {
    assert.deepEqual(run.results, names[i].map((name) => ({ ok: true, name })), JSON.stringify(run.results));
  }
  const c = await sandbox.counters();
  const created = c.operations.createAccount;
  assert.equal(created.received, CLIENTS * PER, "every POST received once");
  assert.deepEqual(created.statuses, { 201: CLIENTS * PER }, "every answer a 201: no 429");
  assert.ok(c.peak_in_flight[h.ORG] <= 2, `at most 2 in flight at the sandbox, saw ${c.peak_in_flight[h.ORG]}`);
  assert.ok(ms >= ((CLIENTS * PER) / 2) * SLOW_MS, "the calls took turns");
  console.log(`${CLIENTS} workers x ${PER} calls in ${ms} ms; peak in flight ${c.peak_in_flight[h.ORG]}; statuses ${JSON.stringify(created.statuses)}`);
});

test("a worker's request dies with its Client's call in flight: the call was sent once, its slot comes back after the lease, the other workers' calls finish", { timeout: 120_000 }, async () => {
  await sandbox.resetCounters();
  const LEASE = 5000;
  const options = clientOptions({ maxConcurrent: 1, leaseMs: LEASE });
  const rec = await recorder(sandbox);
  try {
    const res = await fetch(`${clients[0]}/die`, {
      method: "POST",
      body: JSON.stringify({ options: { ...options, record: rec.record }, names: ["died-0"], gate: rec.gate }),
      signal: AbortSignal.timeout(60_000),
    });
    assert.equal(res.status, 500, "the handler threw");
    await res.arrayBuffer();
    const held = await peek(h.ORG);
    assert.deepEqual(held.fleet.leases.length, 1, `the dead call's lease is held, never released: ${JSON.stringify(held)}`);
    const until = held.fleet.leases[0].until;

    const started = performance.now();
    const PER = 2;
    const rest = [1, 2, 3];
    const names = rest.map((i) => Array.from({ length: PER }, (_, j) => `after-${i}-${j}`));
    const runs = await Promise.all(rest.map((i, k) => calls(i, names[k], options)));
    const finished = Date.now();
    const ms = Math.round(performance.now() - started);
    for (const [k, run] of runs.entries()) assert.deepEqual(run.results, names[k].map((name) => ({ ok: true, name })), JSON.stringify(run.results));

    const c = await sandbox.counters();
    const created = c.operations.createAccount;
    assert.equal(created.received, 1 + rest.length * PER, "the dead call was sent once, every other call once");
    assert.equal(created.statuses["429"], undefined, `no 429: ${JSON.stringify(created.statuses)}`);
    assert.ok(c.peak_in_flight[h.ORG] <= 1, `one in flight at a time at the sandbox, saw ${c.peak_in_flight[h.ORG]}`);
    const after = await peek(h.ORG);
    assert.deepEqual(after.fleet.leases, [], "no lease left");
    // One slot: the first of the others started when the dead lease ended (the object's clock is the
    // machine's), and each of them took SLOW_MS at least, one after another.
    assert.ok(finished >= until + rest.length * PER * SLOW_MS, `the slot was not taken before the lease ended (${finished} < ${until} + ${rest.length * PER * SLOW_MS})`);
    console.log(`lease ${LEASE} ms: the other ${rest.length * PER} calls finished ${ms} ms after the death; statuses ${JSON.stringify(created.statuses)}`);
  } finally {
    await rec.close();
  }
});

test("the fleet's token: workers that start with none call the token function once in all; after a revoke, once more", { timeout: 120_000 }, async () => {
  await sandbox.resetCounters();
  const options = { ...clientOptions(), accessToken: undefined, mint: `${sandbox.url}/__sandbox/tokens` };
  /** How many tokens were minted, read by minting one more (which nobody uses). */
  const minted = async () => (await (await fetch(`${sandbox.url}/__sandbox/tokens`, { method: "POST" })).json()).minted;
  const before = await minted();
  const run = async (tag, per) => {
    const names = clients.map((_, i) => Array.from({ length: per }, (_, j) => `${tag}-${i}-${j}`));
    const runs = await Promise.all(clients.map((_, i) => calls(i, names[i], options)));
    for (const [i, r] of runs.entries()) assert.deepEqual(r.results, names[i].map((name) => ({ ok: true, name })), JSON.stringify(r.results));
  };
  await run("token", 1);
  const first = await minted();
  assert.equal(first - before - 1, 1, "one token for the fleet");
  const token = `sandbox-token-${before + 1}`;
  await fetch(`${sandbox.url}/__sandbox/tokens/${token}/revoke`, { method: "POST" });
  await run("revoked", 1);
  assert.equal((await minted()) - first - 1, 1, "one more after the revoke, for everyone");
  const c = await sandbox.counters();
  assert.equal(c.operations.createAccount.statuses["201"], CLIENTS * 2, JSON.stringify(c.operations.createAccount));
  assert.equal(c.operations.createAccount.statuses["429"], undefined);
  console.log(`token: statuses ${JSON.stringify(c.operations.createAccount.statuses)}`);
});

test("workers with oauth on one Durable Object: one refresh for the fleet, one more per token lifetime, no 401, the live-token cap never reached", { timeout: 120_000 }, async () => {
  // An organization of its own, so that the object's state holds no token of the tests before.
  const org = "70000012";
  const sb = await startSandbox(["--org", org, "--rate-per-minute", "60", "--oauth-token-lifetime-ms", "10000"]);
  try {
    const options = { ...clientOptions(), accessToken: undefined, organizationId: org, apiDomain: sb.url, oauth: sb.oauth };
    const accounts = async () => (await fetch(`${sb.url}/__sandbox/accounts`)).json();
    const run = async (tag) => {
      const names = clients.map((_, i) => [`${tag}-${i}`]);
      const runs = await Promise.all(clients.map((_, i) => calls(i, names[i], options)));
      for (const [i, r] of runs.entries()) assert.deepEqual(r.results, names[i].map((name) => ({ ok: true, name })), JSON.stringify(r.results));
    };
    await run("oauth-a");
    assert.equal((await accounts()).refreshes.granted, 1, "a cold start of every isolate: one refresh");
    await h.sleep(6_000);
    await run("oauth-b");
    const c = await accounts();
    assert.equal(c.refreshes.granted, 2, "renewed once for the fleet, past half the token's life");
    assert.deepEqual(c.api_401, { expired: 0, revoked: 0 });
    assert.ok(c.refresh_tokens[sb.oauth.refreshToken].peak_live_tokens <= 2);
  } finally {
    await sb.close();
  }
});

// The fleet scenario runs on a clock SCALE times as fast (4: a minute of 15 s, the two minutes in
// 30 s; SVC_TEST_SCALE=1 runs the real two minutes), in a Miniflare of its own: the sandbox's minute
// is 60/SCALE s (--minute-ms) and its slow answers a SCALEth as long, and every worker is bundled
// with tests/support/scaled-clock.mjs injected first, so that in each isolate Date.now and the timers
// run SCALE times as fast from one epoch: the Clients' minute (the SDK's own 60 000 ms), their
// default lease of 30 s and their waits, and the object's steps (cloudflare.js reads Date.now) and
// its alarms (limiter.mjs sets them at the machine's time of the scaled one). No option of the SDK
// changes. workerd's Date.now moves only across I/O, scaled or not, and each step of the object
// begins with I/O, so the object reads the scaled time as it read the real one. Only the machine's
// own delays (loopback, workerd, scheduling) are not scaled, so how many calls a scaled minute
// holds depends on the machine's load: the test judges none by its count per time. It judges the
// fleet from the limiter's own records (tests/runtimes/fleet/limiter.mjs keeps every step's reply):
// a caller refused a slot only while every slot was in flight, the minute's places were all taken or
// the service's back-off held; never more starts in a minute than the minute allows; and the
// sandbox's own minute window (a 429 fails it) and in-flight count check the same from outside.
const SCALE = Number(process.env.SVC_TEST_SCALE ?? 4);
assert.ok(Number.isInteger(60_000 / SCALE) && Number.isInteger(SLOW_MS / SCALE), `SVC_TEST_SCALE=${SCALE} must divide ${SLOW_MS}`);
/** `ms` of the scaled clock in ms of the machine's. */
const real = (ms) => ms / SCALE;

/** The records of every step the object of `key` ran: { request, reply }, in the order of the object's clock. */
async function steps(key, limiter) {
  const res = await fetch(`${limiter}/steps?key=${encodeURIComponent(key)}`, { signal: AbortSignal.timeout(30_000) });
  return (await res.json()).sort((a, b) => a.reply.now - b.reply.now);
}

/** The acquire steps of `records`: when, the figures the object replied with, and granted or why it waited. */
const acquires = (records) =>
  records.filter((r) => r.request.acquire).map(({ reply: { now, state, outcome } }) => ({ now, state, granted: "granted" in outcome.acquire, outcome: outcome.acquire }));

/** Why the object had no slot to give, in its own figures; undefined when it had one. */
function refusedFor(state) {
  if (state.inFlight >= state.maxConcurrent) return "every slot in flight";
  if (state.remainingThisMinute === 0) return "the minute's places taken";
  if (state.blockedUntil !== undefined) return "the service's back-off";
  return undefined;
}

// The run lasts two minutes of the scaled clock and until two things happened, however long the
// machine takes for them: the minute's last place was granted (the limit binds) and, once the dead
// request's leases ended, the fleet had 5 in flight again. Then every call still queued ends as a
// timeout, as at a deadline.
test(`a fleet at the free plan's limits on a clock ${SCALE} times as fast: ${CLIENTS} workers, 400 calls queued at once at 100 a minute and 5 in flight, one worker's request killed mid-call: for 2 minutes no 429, at most 5 in flight, no caller refused a slot while the limiter had one (its own records), no POST sent twice; the slots the dead request held come back when their leases end`, { timeout: 200_000 }, async () => {
  const org = "70000021";
  /** Two minutes of the scaled clock, and the Client's default leaseMs (the workers' Clients leave it as it is, like the limits). */
  const RUN_MS = 120_000;
  const LEASE = 30_000;
  /** How long the workers' calls may last at most, in ms of the machine's clock: the test's own bound. */
  const BOUND = 170_000;
  const clock = { epoch: Date.now(), scale: SCALE };
  /** A time of the machine's clock on the scaled one. */
  const scaledAt = (t) => clock.epoch + (t - clock.epoch) * SCALE;
  const fleet = await startFleet({ dist: "dist-scaled", clients: CLIENTS, clock });
  const sb = await startSandbox(["--org", org, "--minute-ms", String(real(60_000)), "--faults", "slow=1", "--slow-ms", String(real(SLOW_MS))]);
  const rec = await recorder(sb);
  try {
    const options = { accessToken: "dev-token", organizationId: org, apiDomain: sb.url, record: rec.record };
    const per = 400 / CLIENTS;
    const names = fleet.clients.map((_, i) => Array.from({ length: per }, (_, j) => `full-${i}-${j}`));
    const started = Date.now();
    /** What is left of the test's bound, in ms of the scaled clock (the workers' timers run on it). */
    const deadlineMs = () => (started + BOUND - Date.now()) * SCALE;
    // Worker 0's request dies once its first call is at the sandbox; the others run until stopped.
    const dying = fetch(`${fleet.clients[0]}/die`, { method: "POST", body: JSON.stringify({ options, names: names[0], gate: rec.gate, deadlineMs: deadlineMs() }), signal: AbortSignal.timeout(60_000) });
    const runs = Promise.all(fleet.clients.slice(1).map((url, k) => post(`${url}/calls`, { options, names: names[k + 1], deadlineMs: deadlineMs(), stop: rec.stop }, BOUND + 10_000)));
    const died = await dying;
    assert.equal(died.status, 500, "the handler threw");
    await died.arrayBuffer();
    const killedAt = Date.now();
    const held = (await peek(org, fleet.limiterUrl)).fleet.leases;

    // A live call's lease ends with its answer, within SLOW_MS and a step: half a lease later, the
    // leases left of those held at the death are the dead request's, which hold their lease's end.
    await h.sleep(killedAt + real(LEASE / 2) - Date.now());
    const later = (await peek(org, fleet.limiterUrl)).fleet.leases;
    const dead = held.filter((l) => later.some((x) => x.id === l.id));
    assert.ok(dead.length >= 1, `the dead request's lease is held, never released: ${JSON.stringify({ held, later })}`);
    const sweptAt = new Map();
    while (sweptAt.size < dead.length) {
      assert.ok(Date.now() < killedAt + real(LEASE) + 30_000, `not swept: ${JSON.stringify(dead)}`);
      await h.sleep(real(250));
      const p = await peek(org, fleet.limiterUrl);
      for (const l of dead) if (!sweptAt.has(l.id) && !p.fleet.leases.some((x) => x.id === l.id)) sweptAt.set(l.id, p.now);
    }
    for (const l of dead) assert.ok(sweptAt.get(l.id) >= l.until, `lease ${l.id} ended before its time (${sweptAt.get(l.id)} < ${l.until}, scaled)`);
    const swept = Math.max(...sweptAt.values());

    // With a dead slot never given back, 4 would be the most in flight from here on. A step whose
    // clock is past the peek that saw the last dead lease gone came after its sweep.
    /** The first grant after the sweep that had 5 in flight, and whether the minute's last place was granted. */
    const seen = (records) => ({
      fullAgain: records.find((a) => a.granted && a.now > swept && a.state.inFlight === 5),
      bound: records.some((a) => a.granted && a.state.remainingThisMinute === 0),
    });
    let now = seen([]);
    while (!(now.fullAgain && now.bound && Date.now() >= started + real(RUN_MS))) {
      assert.ok(Date.now() < started + BOUND - 10_000, `the run never got there: ${JSON.stringify({ fullAgain: now.fullAgain, bound: now.bound })}`);
      await h.sleep(real(1000));
      now = seen(acquires(await steps(org, fleet.limiterUrl)));
    }
    rec.end();
    const results = (await runs).flatMap((r) => r.results);
    const c = await sb.counters();
    const created = c.operations.createAccount;
    assert.equal(created.statuses["429"] ?? 0, 0, JSON.stringify(created.statuses));
    assert.ok(c.peak_in_flight[org] <= 5, `peak in flight ${c.peak_in_flight[org]}`);

    // The limiter's own records: a refusal only with no slot to give, a grant never past 5 in flight
    // nor past the minute's places (a start's place lasts at least a minute from its start).
    const records = acquires(await steps(org, fleet.limiterUrl));
    const grants = records.filter((a) => a.granted);
    const refused = records.filter((a) => !a.granted);
    assert.deepEqual(refused.filter((a) => !("wait" in a.outcome) || !refusedFor(a.state)), [], "a caller was refused a slot while the limiter had one to give");
    assert.ok(refused.length > 0, "callers waited");
    assert.deepEqual(grants.filter((a) => a.state.inFlight > 5), [], "a slot granted past 5 in flight");
    for (const [i, g] of grants.entries()) {
      const inMinute = grants.slice(i).filter((x) => x.now < g.now + 60_000).length;
      assert.ok(inMinute <= g.state.requestsPerMinute, `${inMinute} starts within the minute from ${g.now} (scaled), more than ${g.state.requestsPerMinute}`);
    }

    assert.equal(results.length, (CLIENTS - 1) * per, "every living worker's request answered for each of its calls");
    assert.deepEqual(results.filter((r) => !r.ok && r.kind !== "timeout"), [], "each call answered, or ended as a timeout at the end of the run");
    const ok = results.filter((r) => r.ok).map((r) => r.name);
    const sent = new Set(rec.sent);
    assert.equal(sent.size, rec.sent.length, "a POST was sent twice");
    assert.deepEqual(ok.filter((n) => !sent.has(n)), [], "every answered call was sent");
    assert.ok(created.received >= ok.length && created.received <= sent.size, `received ${created.received}, ${ok.length} answered, ${sent.size} sent`);
    const deadSent = rec.sent.filter((n) => names[0].includes(n)).length;
    assert.ok(deadSent >= 1);
    const reasons = {};
    for (const a of refused) reasons[refusedFor(a.state)] = (reasons[refusedFor(a.state)] ?? 0) + 1;
    const scaled = (t) => ((t - started) * SCALE) / 1000;
    const since = (t) => ((t - scaledAt(started)) / 1000).toFixed(1);
    console.log(
      `workerd fleet of ${CLIENTS}: ${created.received} requests in ${scaled(Date.now()).toFixed(1)} s of the scaled clock, peak ${c.peak_in_flight[org]} in flight; ` +
        `${grants.length} slots granted, ${refused.length} refusals (${Object.entries(reasons).map(([k, n]) => `${k}: ${n}`).join(", ")}); ` +
        `${ok.length} answered, ${results.length - ok.length} ended at the end of the run; worker 0 died ${scaled(killedAt).toFixed(1)} s in with ${deadSent} sent, ` +
        `its ${dead.length} dead lease(s) swept ${((swept - scaledAt(killedAt)) / 1000).toFixed(1)} s later, 5 in flight again at ${since(now.fullAgain.now)} s (times of the scaled clock)`,
    );
  } finally {
    rec.end();
    await rec.close();
    await sb.close();
    await fleet.mf.dispose();
  }
});

// Issues 36 and 47 in workerd: the service allows 40 a minute, below the free plan's 100. Its
// X-Rate-Limit-* headers state its day, not its minute, so the Clients are told the minute
// (rateLimit.requestsPerMinute: 40); the object keeps every grant to it, the calls granted before
// included, and keeps the day the answers state: the sandbox never answers 429. 80 calls at 40 a
// minute span two minutes, so this runs on the scaled clock of the test above (see there), in a
// Miniflare of its own.
test(`4 workers with a Client each, 20 calls each at once, told 40 a minute (below the plan's 100) as the service allows, on a clock ${SCALE} times as fast: every call answered, no 429, the stated day kept in the object's state`, { timeout: 200_000 }, async () => {
  const org = "70000022";
  const WORKERS = 4;
  const PER = 20;
  const clock = { epoch: Date.now(), scale: SCALE };
  const fleet = await startFleet({ dist: "dist-scaled-40", clients: WORKERS, clock });
  const sb = await startSandbox(["--org", org, "--rate-per-minute", "40", "--minute-ms", String(real(60_000)), "--faults", "slow=1", "--slow-ms", String(real(SLOW_MS)), "--seed", "1"]);
  try {
    const options = { accessToken: "dev-token", organizationId: org, apiDomain: sb.url, rateLimit: { requestsPerMinute: 40 } };
    const names = fleet.clients.map((_, i) => Array.from({ length: PER }, (_, j) => `limit-${i}-${j}`));
    const runs = await Promise.all(fleet.clients.map((url, i) => post(`${url}/calls`, { options, names: names[i] }, 180_000)));
    for (const [i, run] of runs.entries()) assert.deepEqual(run.results, names[i].map((name) => ({ ok: true, name })), JSON.stringify(run.results));
    const c = await sb.counters();
    const created = c.operations.createAccount;
    assert.deepEqual(created.statuses, { 201: WORKERS * PER }, `no 429: ${JSON.stringify(created)}`);
    assert.ok(c.peak_in_flight[org] <= 5, `peak in flight ${c.peak_in_flight[org]}`);
    const p = await peek(org, fleet.limiterUrl);
    assert.equal(p.fleet.window.stated?.limit, 1000, `the free plan's day, as the sandbox states it: ${JSON.stringify(p.fleet.window)}`);
    assert.equal(runs[0].state.requestsPerMinute, 40, JSON.stringify(runs[0].state));
    assert.equal(runs[0].state.dailyQuota, 1000, JSON.stringify(runs[0].state));
  } finally {
    await sb.close();
    await fleet.mf.dispose();
  }
});
