// Issue 25, item 2, the fleet store: storeTimeoutMs bounds every wait on the store (a redis-server
// stopped mid-run, a URL that never answered, a server that accepts and says nothing, a store of
// the user's whose promises never settle), and a state with timestamps in the year 3000 makes no
// client spin. Through the installed package, with a real redis-server and the sandbox.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { Client } from "svc-sdk";
import { redisStore } from "svc-sdk/redis";
import { createClient } from "redis";
import { startRedis } from "./support/redis-server.mjs";
import { setUp, stillWorks, svcError, rejection, TOKEN, ORG } from "./support/hardening.mjs";

const env = setUp();
let redis;
before(async () => {
  redis = await startRedis();
});
/** Every redisStore the file made: closed after it, so that no client reconnects to a stopped server and keeps the process alive. */
const stores = [];
after(async () => {
  await Promise.all(stores.map((s) => s.close().catch(() => {})));
  await redis?.stop();
});

const STORE_TIMEOUT_MS = 1000;
// What every call must meet, even on a loaded machine. Before the fix a call waited up to
// (maxRetries + 1) store timeouts, and the calls in line one after another: 4 calls took 4 to 20 s.
const BOUND_MS = STORE_TIMEOUT_MS + 5000;
const YEAR_3000 = 32_503_680_000_000;

/** A Client of `store` (redisStore of `url` if a string) with the store timeout of the file. */
function fleetClient(store, { accessToken = TOKEN, ...rateLimit } = {}) {
  if (typeof store === "string") stores.push((store = redisStore({ url: store, prefix: `settle-${Math.random()}:` })));
  return new Client({ accessToken, organizationId: ORG, apiDomain: env.sandbox.url, rateLimit: { store, storeTimeoutMs: STORE_TIMEOUT_MS, ...rateLimit } });
}

const received = async () => Object.values((await env.sandbox.counters()).operations).reduce((n, t) => n + t.received, 0);

/**
 * Three GETs (retried on a network error before the fix) and a POST on `client`, one GET on each
 * of `others`, all at once: each fails as `network`, unsent, within BOUND_MS, and the sandbox
 * received nothing. Gives the slowest call's ms.
 */
async function allFailInTime(client, others = []) {
  const sent = await received();
  const calls = [
    client.listCurrencies(),
    client.listCurrencies(),
    client.listCurrencies(),
    client.createAccount({ account_name: "never-sent", account_type: "cash" }),
    ...others.map((c) => c.listCurrencies()),
  ];
  const started = Date.now();
  const took = await Promise.all(
    calls.map(async (call) => {
      const e = await rejection(call, svcError("network"));
      assert.match(e.message, /rate-limit store could not be reached.*not sent/);
      return Date.now() - started;
    }),
  );
  const slowest = Math.max(...took);
  assert.ok(slowest < BOUND_MS, `calls took ${took.join(", ")} ms with storeTimeoutMs ${STORE_TIMEOUT_MS}`);
  assert.equal(await received(), sent, "a call was sent while the store did not answer");
  return slowest;
}

/** `client` completes a call again within `ms` (a store that came back, reconnecting). */
async function worksAgain(client, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      const page = await client.listCurrencies();
      assert.ok(Array.isArray(page.items));
      return;
    } catch (e) {
      if (Date.now() > deadline || e?.kind !== "network") throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

test("redis stopped mid-run: every waiting call fails unsent at storeTimeoutMs, token path included; back, the same clients go", { timeout: 120_000 }, async () => {
  const witness = fleetClient(redis.url, { storeTimeoutMs: 10_000 });
  const client = fleetClient(redis.url);
  const withFunction = fleetClient(redis.url, { accessToken: async () => TOKEN });
  for (const c of [witness, client, withFunction]) await c.listCurrencies();
  await redis.stop();
  const slowest = await allFailInTime(client, [withFunction, fleetClient(redis.url)]);
  console.log(`redis stopped: the slowest of 7 calls failed after ${slowest} ms (storeTimeoutMs ${STORE_TIMEOUT_MS})`);
  await redis.restart();
  await worksAgain(client);
  await worksAgain(withFunction);
  await worksAgain(witness);
  await stillWorks(env);
});

test("a redis URL that never answered (a closed port, then a server that accepts and says nothing): calls fail at storeTimeoutMs; a server there later serves them", { timeout: 120_000 }, async () => {
  const witness = fleetClient(redis.url);
  await witness.listCurrencies();
  const closed = await new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
  const url = `redis://127.0.0.1:${closed}`;
  const client = fleetClient(url);
  const withFunction = fleetClient(url, { accessToken: async () => TOKEN });
  const slowest = await allFailInTime(client, [withFunction]);
  console.log(`closed port: the slowest of 5 calls failed after ${slowest} ms`);

  const sockets = new Set();
  const silent = net.createServer((s) => {
    sockets.add(s);
    s.on("error", () => {});
  });
  await new Promise((r) => silent.listen(0, "127.0.0.1", r));
  try {
    const mute = fleetClient(`redis://127.0.0.1:${silent.address().port}`);
    const slowestMute = await allFailInTime(mute, [fleetClient(`redis://127.0.0.1:${silent.address().port}`, { accessToken: async () => TOKEN })]);
    console.log(`silent server: the slowest of 5 calls failed after ${slowestMute} ms`);
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise((r) => silent.close(r));
  }

  const late = await startRedis({ port: closed });
  try {
    await worksAgain(client);
    await worksAgain(withFunction);
  } finally {
    await late.stop();
  }
  await worksAgain(witness);
  await stillWorks(env);
});

test("a store of the user's whose promises never settle: calls fail at storeTimeoutMs", { timeout: 60_000 }, async () => {
  const witness = fleetClient(redis.url);
  await witness.listCurrencies();
  const never = () => new Promise(() => {});
  const stepper = fleetClient({ step: never });
  const loader = fleetClient({ load: never, save: never });
  await allFailInTime(stepper, [loader, fleetClient({ step: never }, { accessToken: async () => TOKEN })]);
  await worksAgain(witness);
  await stillWorks(env);
});

/** The state of an organization in redis as a hostile or wrong-clocked holder left it. */
function hostileState({ answered = [], blockedUntil = 0, leases = [], claim } = {}) {
  const day = Math.floor(Date.now() / 86_400_000);
  return JSON.stringify({
    version: 5,
    limits: { perMinute: 100, maxConcurrent: 5, daily: 1000 },
    window: { answered, day, dayCount: 0, blockedUntil },
    leases,
    ...(claim ? { claim } : {}),
    nextId: 100,
  });
}

test("a state in redis with times in the year 3000: no client spins or waits past its bound, and what redis keeps is brought back to a day", { timeout: 120_000 }, async () => {
  const witness = fleetClient(redis.url);
  await witness.listCurrencies();
  const raw = createClient({ url: redis.url });
  await raw.connect();
  const far = 1e15;
  const cases = [
    ["a back-off until the year 3000", hostileState({ blockedUntil: YEAR_3000 }), 10],
    ["a full minute answered in the year 3000", hostileState({ answered: Array(100).fill(YEAR_3000) }), 10],
    // Every slot held until 10^15 ms: a holder asks every 50 ms for a release, no faster.
    ["5 leases until 10^15 ms", hostileState({ leases: [1, 2, 3, 4, 5].map((id) => ({ id, holder: "x", until: far })) }), 3000 / 50 + 20],
    // A token function's token is kept apart from the organization's limits, under its credential's key.
    ["a token claim until 10^15 ms", hostileState({ claim: { id: 9, holder: "x", until: far } }), 3000 / 50 + 20, async () => TOKEN, `token/function/${ORG}`],
  ];
  try {
    for (const [what, state, most, accessToken, at = ORG] of cases) {
      const prefix = `settle-hostile-${Math.random()}:`;
      const key = `${prefix}${at}`;
      await raw.hSet(key, { v: "5", s: state });
      const store = redisStore({ url: redis.url, prefix });
      let steps = 0;
      const counting = { load: (...a) => (steps++, store.load(...a)), save: (...a) => store.save(...a) };
      const client = fleetClient(counting, accessToken ? { accessToken } : {});
      try {
        const started = Date.now();
        const e = await rejection(client.listCurrencies({}, { signal: AbortSignal.timeout(3000) }), svcError());
        const took = Date.now() - started;
        // A wait longer than a call makes (the back-off, bounded to a day) ends it at once as rate_limited.
        assert.ok(["aborted", "timeout", "rate_limited"].includes(e.kind), `${what}: ${e.kind} ${e.message}`);
        assert.ok(took < 3000 + 5000, `${what}: the call ended after ${took} ms`);
        assert.ok(steps <= most, `${what}: ${steps} store steps in ${took} ms`);
        const kept = await raw.hGet(key, "s");
        assert.ok(!kept.includes(String(YEAR_3000)) && !kept.includes(String(far)), `${what}: redis keeps ${kept}`);
        console.log(`${what}: ${steps} store steps in ${took} ms`);
        await raw.del(key);
        await client.listCurrencies();
      } finally {
        // A failed case must not leave a connection that keeps the file's process alive.
        await store.close();
      }
    }
  } finally {
    await raw.quit();
  }
  await worksAgain(witness);
  await stillWorks(env);
});
