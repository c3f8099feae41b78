// Issue 36, every wait ends on the caller's terms: a fleet store that never answers holds no call
// past its signal or its deadline, a proxied body that never ends is answered 408, redisStore's
// close() settles against a Redis that says nothing, one AbortSignal serves a thousand calls
// without a listener warning, and the store's timeout says what happened. Through the installed
// package, against servers on 127.0.0.1 that accept and never answer, and the sandbox.
import { test } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import http from "node:http";
import { once, getEventListeners } from "node:events";
import { Client, createProxy } from "svc-sdk";
import { redisStore } from "svc-sdk/redis";
import { setUp, stillWorks, svcError, rejection, TOKEN, ORG } from "./support/hardening.mjs";

const env = setUp();
/** Longer than any test here runs: a call that settles did so by its signal or its deadline. */
const STORE_TIMEOUT_MS = 60_000;

/** A TCP server on 127.0.0.1 that accepts connections and never writes a byte (a hostile Redis). */
async function silentServer() {
  const sockets = new Set();
  const server = net.createServer((s) => {
    sockets.add(s);
    // Read (and drop) what comes, so that the server sees the client hang up.
    s.resume();
    s.on("error", () => {});
    s.on("close", () => sockets.delete(s));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `redis://127.0.0.1:${server.address().port}`,
    server,
    sockets,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(r));
    },
  };
}

/** A store of compare-and-set text in this process: what redisStore does, without Redis. */
function memoryStore() {
  let [text, version] = [null, 0];
  return {
    async load() {
      return { text, now: Date.now() };
    },
    async save(key, expected, next, state) {
      if (expected !== version) return false;
      [version, text] = [next, state];
      return true;
    },
  };
}

/** A store of the user's whose steps never settle; `stepped` resolves at its first step. */
function neverStore() {
  let began;
  const stepped = new Promise((r) => (began = r));
  return { store: { step: () => (began(), new Promise(() => {})) }, stepped };
}

const fleetClient = (store, extra = {}) =>
  new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.sandbox.url, rateLimit: { store, storeTimeoutMs: STORE_TIMEOUT_MS }, ...extra });

test("a fleet store that never answers: the signal (before, during, AbortSignal.timeout) and deadlineMs end the wait; nothing leaks into other calls", { timeout: 60_000 }, async () => {
  const fleetBefore = fleetClient(memoryStore());
  await fleetBefore.listCurrencies();
  const silent = await silentServer();
  const opened = [];
  try {
    // Each case on a fresh store, whose first step (a connection, a call of step) is the moment
    // the call waits on it.
    const stores = {
      redis: () => {
        const store = redisStore({ url: silent.url, prefix: `waits-${Math.random()}:` });
        opened.push(store);
        return { store, stepped: once(silent.server, "connection") };
      },
      "a user's step": neverStore,
    };
    for (const [name, make] of Object.entries(stores)) {
      const before = make().store;
      await rejection(fleetClient(before).listCurrencies({}, { signal: AbortSignal.abort() }), svcError("aborted"));

      const during = make();
      const ac = new AbortController();
      const pending = fleetClient(during.store).listCurrencies({}, { signal: ac.signal });
      await during.stepped;
      ac.abort();
      const e = await rejection(pending, svcError("aborted"));
      assert.match(e.message, /aborted/, name);

      const timed = make();
      await rejection(fleetClient(timed.store).listCurrencies({}, { signal: AbortSignal.timeout(300) }), svcError("timeout"));

      const late = make();
      const d = await rejection(fleetClient(late.store).listCurrencies({}, { deadlineMs: 500 }), svcError("timeout"));
      assert.match(d.message, /deadline of 500 ms \(deadlineMs\)/, `${name}: ${d.message}`);
    }
    // A token function's wait on the store ends by the signal too.
    const tokenWait = neverStore();
    const ac = new AbortController();
    const pending = fleetClient(tokenWait.store, { accessToken: async () => TOKEN }).listCurrencies({}, { signal: ac.signal });
    await tokenWait.stepped;
    ac.abort(new Error("the page closed"));
    const e = await rejection(pending, svcError("aborted"));
    assert.equal(e.message, "the page closed");
  } finally {
    await Promise.all(opened.map((s) => s.close()));
    await silent.close();
  }
  await fleetBefore.listCurrencies();
  await stillWorks(env);
});

test("a store that answers after the call gave up: its late replies break no later call", { timeout: 30_000 }, async () => {
  const memory = memoryStore();
  const held = [];
  let holding = true;
  const store = {
    load: (key) => (holding ? new Promise((r) => held.push(r)).then(() => memory.load(key)) : memory.load(key)),
    save: (...args) => memory.save(...args),
  };
  const client = fleetClient(store);
  const ac = new AbortController();
  const pending = client.listCurrencies({}, { signal: ac.signal });
  while (held.length === 0) await new Promise((r) => setImmediate(r));
  ac.abort();
  await rejection(pending, svcError("aborted"));
  holding = false;
  for (const release of held) release();
  const page = await client.listCurrencies();
  assert.ok(Array.isArray(page.items));
  assert.equal(client.rateLimitState().queued, 0);
  await stillWorks(env);
});

test("the store's timeout says what happened: no reply within storeTimeoutMs, no second figure", { timeout: 30_000 }, async () => {
  const { store } = neverStore();
  const client = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.sandbox.url, rateLimit: { store, storeTimeoutMs: 300 } });
  const e = await rejection(client.listCurrencies(), svcError("network"));
  assert.equal(e.message, "the rate-limit store could not be reached within storeTimeoutMs (300 ms): it did not reply; the call was not sent");
  await stillWorks(env);
});

test("one AbortSignal shared by 1000 waiting calls: one listener, no MaxListenersExceededWarning, all aborted, the listener removed", { timeout: 60_000 }, async () => {
  const warnings = [];
  const onWarning = (w) => warnings.push(w);
  process.on("warning", onWarning);
  // An API that accepts and never answers: each call waits in its attempt.
  const hung = http.createServer(() => {});
  await new Promise((r) => hung.listen(0, "127.0.0.1", r));
  try {
    const { store, stepped } = neverStore();
    const queued = fleetClient(store);
    const direct = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: `http://127.0.0.1:${hung.address().port}`, rateLimit: false, maxRetries: 0 });
    for (const client of [queued, direct]) {
      const ac = new AbortController();
      const calls = Array.from({ length: 1000 }, () => client.listCurrencies({}, { signal: ac.signal }).catch((e) => e));
      if (client === queued) await stepped;
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
      assert.equal(getEventListeners(ac.signal, "abort").length, 1, "one listener for every call");
      ac.abort();
      for (const e of await Promise.all(calls)) svcError("aborted")(e);
      assert.equal(getEventListeners(ac.signal, "abort").length, 0, "the listener is removed");
    }
    assert.equal(queued.rateLimitState().queued, 0);
  } finally {
    hung.closeAllConnections();
    await new Promise((r) => hung.close(r));
  }
  await new Promise((r) => setImmediate(r));
  process.off("warning", onWarning);
  assert.deepEqual(
    warnings.filter((w) => w.name === "MaxListenersExceededWarning").map(String),
    [],
  );
  await stillWorks(env);
});

/** A POST whose JSON body starts and then `rest` decides: never another byte, or a byte now and then. */
function unfinished(url, rest) {
  let cancelled;
  const gone = new Promise((r) => (cancelled = r));
  let timer;
  const body = new ReadableStream({
    start(c) {
      c.enqueue(new TextEncoder().encode('{"plan_code":"'));
      if (rest === "trickle") timer = setInterval(() => c.enqueue(new TextEncoder().encode("x")), 50);
    },
    cancel() {
      clearInterval(timer);
      cancelled();
    },
  });
  const request = new Request(url, { method: "POST", body, duplex: "half", headers: { "content-type": "application/json" } });
  return { request, gone };
}

test("a proxied POST whose body never ends is answered 408 within timeoutMs or deadlineMs, its stream cancelled; the proxy goes on", { timeout: 30_000 }, async () => {
  const url = "http://127.0.0.1/billing/v1/plans";
  const options = { accessToken: TOKEN, organizationId: ORG, apiDomain: env.sandbox.url, allow: ["createPlan"] };
  const cases = [
    [{ timeoutMs: 300 }, "stall", /nothing came for 300 ms \(timeoutMs\)/],
    [{ timeoutMs: 0, deadlineMs: 500 }, "stall", /within the deadline of 500 ms \(deadlineMs\)/],
    [{ deadlineMs: 500 }, "trickle", /within the deadline of 500 ms \(deadlineMs\)/],
  ];
  for (const [bounds, rest, message] of cases) {
    const proxy = createProxy({ ...options, ...bounds });
    const { request, gone } = unfinished(url, rest);
    const res = await proxy(request);
    assert.equal(res.status, 408);
    assert.match(res.headers.get("content-type"), /application\/json/);
    const body = await res.json();
    assert.equal(body.code, 1408);
    assert.match(body.message, message);
    assert.match(body.message, /not forwarded/);
    await gone;
    const plan = { plan_code: `w${Date.now()}${Math.random()}`.replace(".", ""), name: "P", recurring_price: 1, interval: 1, interval_unit: "months" };
    const ok = await proxy(new Request(url, { method: "POST", body: JSON.stringify(plan), headers: { "content-type": "application/json" } }));
    assert.ok(ok.status >= 200 && ok.status < 300, await ok.clone().text());
  }
  await stillWorks(env);
});

test("redisStore().close() settles against a Redis that accepts and never answers, and drops the connection", { timeout: 60_000 }, async () => {
  const silent = await silentServer();
  try {
    const store = redisStore({ url: silent.url });
    const connected = once(silent.server, "connection");
    const ac = new AbortController();
    const pending = fleetClient(store).listCurrencies({}, { signal: ac.signal });
    const [socket] = await connected;
    ac.abort();
    await rejection(pending, svcError("aborted"));
    const closed = once(socket, "close");
    await store.close();
    await closed;
    await store.close();
  } finally {
    await silent.close();
  }
  await stillWorks(env);
});

/** A Redis that answers every command "+OK" until it gets an EVAL (the store's first step), then says nothing more. */
async function muteAfterReady() {
  const server = net.createServer((s) => {
    let buffered = "";
    let mute = false;
    s.on("error", () => {});
    s.on("data", (d) => {
      buffered += d.toString("latin1");
      // Each command is an array of bulk strings: *n, then n times $len and the text.
      for (;;) {
        const m = buffered.match(/^\*(\d+)\r\n/);
        if (!m) return;
        let at = m[0].length;
        const parts = [];
        for (let i = 0; i < Number(m[1]); i++) {
          const b = buffered.slice(at).match(/^\$(\d+)\r\n/);
          if (!b || buffered.length < at + b[0].length + Number(b[1]) + 2) return;
          parts.push(buffered.substr(at + b[0].length, Number(b[1])));
          at += b[0].length + Number(b[1]) + 2;
        }
        buffered = buffered.slice(at);
        mute ||= /^EVAL/i.test(parts[0]);
        if (mute) server.emit("mute", s);
        else s.write("+OK\r\n");
      }
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return server;
}

test("redisStore().close() against a Redis that was ready and then stops answering settles within the default storeTimeoutMs", { timeout: 60_000 }, async () => {
  const server = await muteAfterReady();
  const sockets = new Set();
  server.on("connection", (s) => sockets.add(s));
  try {
    const store = redisStore({ url: `redis://127.0.0.1:${server.address().port}` });
    const muted = once(server, "mute");
    const pending = store.load("k").then(
      () => assert.fail("a step Redis never answered resolved"),
      (e) => e,
    );
    await muted;
    await store.close();
    assert.ok((await pending) instanceof Error, "the step in flight failed");
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  }
  await stillWorks(env);
});
