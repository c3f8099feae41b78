// Issue 25, items 1 to 3: every call settles, in bounded time and memory. A core restart ends every
// pending call (in flight, queued, waiting for a token or a Retry-After, streaming through the
// proxy); one deadline per call; a long Retry-After or a spent quota blocks fast and visibly; the
// queue is bounded; decompressed bytes are counted as they stream.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import zlib from "node:zlib";
import { Client, SvcError, createProxy, parseWatchNotification } from "svc-sdk";
import { ORG, TOKEN, coreGlue, fillCoreMemory, rejection, setUp, stillWorks, svcError, thrown } from "./support/hardening.mjs";
import { startSandbox } from "./support/sandbox.mjs";

const env = setUp();
const MiB = 1024 * 1024;
const CURRENCIES = { code: 0, message: "success", currencies: [{ currency_id: "1", currency_code: "USD" }] };

/**
 * A loopback server that holds every request while `hold` is set (they stay open until it closes),
 * and otherwise answers with `answer(req)` or a page of currencies.
 */
async function startHoldServer() {
  const held = [];
  const state = { hold: true, answer: null, seen: 0 };
  const server = http.createServer((req, res) => {
    state.seen++;
    req.resume();
    if (state.hold) return held.push(res);
    const a = state.answer?.(req) ?? { status: 200, body: CURRENCIES };
    res.writeHead(a.status, { "content-type": "application/json", ...(a.headers ?? {}) });
    res.end(JSON.stringify(a.body));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    state,
    held,
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }),
  };
}

/** Settles within `ms`, or fails the test naming what did not. */
function within(promise, ms, what) {
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms); });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The byte length of the running wasm's memory. */
async function coreMemory() {
  return (await coreGlue()).initSync({ module: new Uint8Array(0) }).memory.buffer.byteLength;
}

test("a core restart settles every pending call of every client: in flight, queued, waiting for a token or a Retry-After, and proxied", { timeout: 120_000 }, async () => {
  const before = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.sandbox.url });
  const hold = await startHoldServer();
  const streaming = await startStreamingServer();
  try {
    const a = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: hold.url, rateLimit: { maxConcurrent: 5 }, timeoutMs: 0, deadlineMs: 0 });
    const calls = Array.from({ length: 50 }, () => a.listCurrencies());
    const tokenWait = new Client({ accessToken: () => new Promise(() => {}), organizationId: ORG, apiDomain: hold.url, deadlineMs: 0 }).listCurrencies();
    const retrying = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.server.url, deadlineMs: 0 });
    env.server.reset();
    env.server.reply({ status: 503, headers: { "retry-after": "50" }, body: { code: 1000, message: "busy" } });
    const backingOff = retrying.listCurrencies();
    const proxy = createProxy({ accessToken: TOKEN, organizationId: ORG, apiDomain: hold.url, allow: ["listCurrencies"] });
    const proxied = proxy(new Request("http://127.0.0.1/invoice/v3/settings/currencies"));
    const streamProxy = createProxy({ accessToken: TOKEN, organizationId: ORG, apiDomain: streaming.url, allow: ["listCurrencies"] });
    const streamed = await streamProxy(new Request("http://127.0.0.1/invoice/v3/settings/currencies"));
    const reader = streamed.body.getReader();
    await reader.read();
    while (hold.held.length < 5 || env.server.requests.length < 1) await new Promise((r) => setTimeout(r, 20));
    assert.equal(a.rateLimitState().inFlight, 5);
    assert.equal(a.rateLimitState().queued, 45);

    await fillCoreMemory();
    const trap = thrown(() => parseWatchNotification(" ".repeat(20 * MiB), { token: "chan", maxBodyBytes: 64 * MiB }), svcError("decode"));
    assert.match(trap.message, /restarted/);

    const ended = await within(Promise.allSettled([...calls, tokenWait, backingOff]), 10_000, "the pending calls");
    for (const r of ended) {
      assert.equal(r.status, "rejected");
      svcError("aborted")(r.reason);
      assert.match(r.reason.message, /core was restarted/);
    }
    const answer = await within(proxied, 10_000, "the proxied request");
    assert.equal(answer.status, 503);
    assert.match((await answer.json()).message, /restarted/);
    const cut = await within(reader.read().then(() => reader.read()).then(() => null, (e) => e), 10_000, "the proxied stream");
    assert.ok(cut instanceof SvcError, `the stream ends with an SvcError, not ${cut}`);
    assert.match(cut.message, /restarted/);

    hold.state.hold = false;
    assert.equal((await a.listCurrencies()).items.length, 1, "the client whose calls were stopped works again");
    assert.equal((await before.listCurrencies()).items.length > 0, true);
    assert.equal((await proxy(new Request("http://127.0.0.1/invoice/v3/settings/currencies"))).status, 200);
  } finally {
    await hold.close();
    await streaming.close();
  }
  await stillWorks(env);
});

/** A server whose answer sends its headers and a first chunk, then holds the rest. */
async function startStreamingServer() {
  const open = [];
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "application/json" });
    // Longer than what the token's redaction holds back, so that the proxy passes a first chunk on.
    res.write(`{"code":0,"message":"success","currencies":[${" ".repeat(4096)}`);
    open.push(res);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
}

test("path params, a request() path and per-call headers are bounded before they enter the core", async () => {
  const c = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.server.url, maxRequestBytes: 1024 });
  env.server.reset();
  const e = await rejection(c.getCurrency("9".repeat(20 * MiB)), svcError("validation"));
  assert.equal(e.issues[0].code, "too_long");
  assert.deepEqual(e.issues[0].path, ["currency_id"]);
  await rejection(c.request("GET", "invoice", "/x".repeat(MiB)), svcError("config"));
  await rejection(c.request("POST", "invoice", "/x", { body: { a: "b".repeat(4096) } }), svcError("config"));
  await rejection(c.getCurrency("1", {}, { headers: { "x-big": "v".repeat(MiB) } }), svcError("config"));
  assert.equal(env.server.requests.length, 0, "nothing was sent");
  await stillWorks(env);
});

test("one deadline per call: a token function that never settles, a queue wait, a hung attempt; AbortSignal.timeout ends as timeout", { timeout: 60_000 }, async () => {
  const hold = await startHoldServer();
  try {
    const never = new Client({ accessToken: () => new Promise(() => {}), organizationId: ORG, apiDomain: hold.url, deadlineMs: 1_000 });
    const e = await within(rejection(never.listCurrencies(), svcError("timeout")), 20_000, "the call waiting for its token");
    assert.match(e.message, /deadline of 1000 ms/);

    const one = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: hold.url, rateLimit: { maxConcurrent: 1 }, timeoutMs: 0 });
    const first = one.listCurrencies({}, { deadlineMs: 3_000 });
    first.catch(() => {});
    const queued = await within(rejection(one.listCurrencies({}, { deadlineMs: 800 }), svcError("timeout")), 20_000, "the queued call");
    assert.match(queued.message, /deadline of 800 ms/);
    assert.equal(one.rateLimitState().queued, 0, "it left the queue");
    const hung = await within(rejection(first, svcError("timeout")), 20_000, "the hung attempt");
    assert.match(hung.message, /deadlineMs/);

    const signalled = await within(rejection(one.listCurrencies({}, { signal: AbortSignal.timeout(300) }), svcError("timeout")), 20_000, "the call with a timeout signal");
    assert.ok(signalled.message.length > 0);
    for (const bad of [-1, 1.5, "5", 2 ** 40]) {
      await rejection(one.listCurrencies({}, { deadlineMs: bad }), svcError("config"));
      thrown(() => new Client({ accessToken: TOKEN, organizationId: ORG, deadlineMs: bad }), svcError("config"));
    }
  } finally {
    await hold.close();
  }
  await stillWorks(env);
});

test("a spent daily quota blocks fast and visibly: the 429's Retry-After fails at once, later calls too, rateLimitState() says until when", { timeout: 60_000 }, async () => {
  const toMidnight = 86_400_000 - (Date.now() % 86_400_000);
  if (toMidnight < 120_000) await new Promise((r) => setTimeout(r, toMidnight + 1_000));
  const sandbox = await startSandbox(["--token", `${TOKEN}=*`, "--daily-quota", "3"]);
  try {
    // A deadline of a minute: the day's reset, more than two minutes away, is never waited for.
    const c = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: sandbox.url, deadlineMs: 60_000 });
    for (let i = 0; i < 3; i++) await c.listCurrencies();
    const fourth = await rejection(c.listCurrencies(), svcError("rate_limited"));
    assert.ok(fourth.retryAfterMs > 60_000, `retryAfterMs ${fourth.retryAfterMs}`);
    const started = Date.now();
    for (let i = 0; i < 2; i++) {
      const e = await rejection(c.listCurrencies(), svcError("rate_limited"));
      assert.ok(e.retryAfterMs > 60_000);
    }
    assert.ok(Date.now() - started < 10_000, "calls 5 and 6 failed at once");
    const state = c.rateLimitState();
    assert.equal(state.remainingToday, 0);
    const midnight = Math.ceil(Date.now() / 86_400_000) * 86_400_000;
    assert.ok(Math.abs(state.blockedUntil - midnight) < 120_000, `blockedUntil ${new Date(state.blockedUntil).toISOString()}`);
    assert.equal(state.queued, 0);
  } finally {
    await sandbox.close();
  }
  await stillWorks(env);
});

test("a long Retry-After behind createProxy: the browser's later requests get 429 with Retry-After at once", { timeout: 60_000 }, async () => {
  const upstream = await startHoldServer();
  upstream.state.hold = false;
  upstream.state.answer = () => ({ status: 429, headers: { "retry-after": "86400" }, body: { code: 1070, message: "quota" } });
  try {
    const proxy = createProxy({ accessToken: TOKEN, organizationId: ORG, apiDomain: upstream.url, allow: ["listCurrencies"] });
    const first = await proxy(new Request("http://127.0.0.1/invoice/v3/settings/currencies"));
    assert.equal(first.status, 429);
    const started = Date.now();
    for (let i = 0; i < 3; i++) {
      const later = await within(proxy(new Request("http://127.0.0.1/invoice/v3/settings/currencies")), 10_000, "a later proxied request");
      assert.equal(later.status, 429);
      assert.ok(Number(later.headers.get("retry-after")) > 80_000, later.headers.get("retry-after"));
    }
    assert.ok(Date.now() - started < 10_000);
    assert.equal(upstream.state.seen, 1, "nothing more reached the service");
  } finally {
    await upstream.close();
  }
  await stillWorks(env);
});

test("Retry-After is delay-seconds or an HTTP-date: `1e3` is no value, so the call backs off briefly and succeeds", { timeout: 60_000 }, async () => {
  env.server.reset();
  env.server.reply({ status: 429, headers: { "retry-after": "1e3" }, body: { code: 1070, message: "slow down" } });
  env.server.reply({ status: 200, body: CURRENCIES });
  const c = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.server.url, rateLimit: false });
  const started = Date.now();
  assert.equal((await c.listCurrencies()).items.length, 1);
  assert.ok(Date.now() - started < 30_000, "not a wait of 1000 s");
  assert.equal(env.server.requests.length, 2);
  await stillWorks(env);
});

test("the limiter's queue is bounded: over rateLimit.maxQueued a call fails at once, and a settled call's memory is reused", { timeout: 120_000 }, async () => {
  const hold = await startHoldServer();
  try {
    const c = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: hold.url, rateLimit: { maxConcurrent: 1, maxQueued: 3 }, timeoutMs: 0, deadlineMs: 0 });
    const pending = [c.listCurrencies(), c.listCurrencies(), c.listCurrencies(), c.listCurrencies()];
    const over = await rejection(c.listCurrencies(), svcError("rate_limited"));
    assert.match(over.message, /maxQueued/);
    assert.ok(over.retryAfterMs >= 0);
    for (const bad of [0, -1, 1.5, "3"]) {
      thrown(() => new Client({ accessToken: TOKEN, organizationId: ORG, rateLimit: { maxQueued: bad } }), svcError("config"));
    }

    // Memory: N calls queued, then settled (aborted), then N again: the second round reuses the first's memory.
    const N = 2_000;
    const big = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: hold.url, rateLimit: { maxConcurrent: 1, maxQueued: N }, timeoutMs: 0, deadlineMs: 0 });
    const round = async () => {
      const controller = new AbortController();
      const calls = Array.from({ length: N }, () => big.listCurrencies({}, { signal: controller.signal }));
      while (big.rateLimitState().queued < N - 1) await new Promise((r) => setTimeout(r, 10));
      const held = await coreMemory();
      controller.abort();
      await Promise.allSettled(calls);
      return held;
    };
    const start = await coreMemory();
    const first = await round();
    const second = await round();
    const perCall = Math.max(0, first - start) / N;
    console.log(`queue memory: ${N} queued calls grew the core by ${first - start} bytes (${perCall.toFixed(0)} bytes a call); a second round grew it by ${second - first}`);
    assert.ok(second - first <= (first - start) / 2 + 65_536, "a settled call's memory is reused");
    assert.equal(big.rateLimitState().queued, 0);
    hold.state.hold = false;
    for (const res of hold.held.splice(0)) res.end();
    await Promise.allSettled(pending);
  } finally {
    await hold.close();
  }
  await stillWorks(env);
});

test("a gzip bomb: decompressed bytes are counted as they stream, whatever Content-Length says, and reading stops at maxResponseBytes", { timeout: 60_000 }, async () => {
  // 16 GiB of spaces as 256 gzip members of 64 MiB each (a decoder inflates them one after another):
  // about 16 MB on the wire, far more than the sockets buffer, so a server that could send it all
  // was read to the end.
  const member = zlib.gzipSync(Buffer.alloc(64 * MiB, 0x20), { level: 9 });
  const members = 256;
  const total = member.length * members;
  const stats = { sent: 0 };
  const server = http.createServer(async (req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": String(total) });
    const closed = new Promise((r) => res.once("close", r));
    for (let i = 0; i < members && !res.destroyed; i++) {
      const ok = res.write(member);
      stats.sent += member.length;
      if (!ok) await Promise.race([new Promise((r) => res.once("drain", r)), closed]);
    }
    res.end();
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  try {
    const c = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: `http://127.0.0.1:${server.address().port}`, maxResponseBytes: MiB, maxRetries: 0 });
    const e = await within(rejection(c.listCurrencies(), svcError("decode")), 50_000, "the bomb");
    assert.match(e.message, /maxResponseBytes/);
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(stats.sent < total, `the client stopped reading (${stats.sent} of ${total} compressed bytes sent)`);
  } finally {
    await new Promise((r) => { server.closeAllConnections(); server.close(r); });
  }
  await stillWorks(env);
});
