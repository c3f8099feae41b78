// Issue 25, item 4: no value a user gives can throw through the core. Every place where the core
// reads a user's value (options, call options, token function results, a fetch option's answers,
// store replies, files, hooks and logger, receiver bodies, proxy options and requests) is fed the
// hostile values below: each ends as an SvcError (or the value is ignored), never a raw TypeError,
// an uncaught exception or a client stuck "while it was borrowed".
import { test } from "node:test";
import assert from "node:assert/strict";
import { Client, SvcError, createProxy, parseEvent, parseWatchNotification } from "svc-sdk";
import { ORG, TOKEN, rejection, setUp, stillWorks, svcError, thrown } from "./support/hardening.mjs";

const env = setUp();
const boom = () => {
  throw new TypeError("boom from a hostile value");
};

/** Values whose every reading throws, each a fresh one. */
function hostile() {
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  const revokedArray = Proxy.revocable([], {});
  revokedArray.revoke();
  return [
    new Proxy({}, { get: boom, has: boom, ownKeys: boom, getPrototypeOf: boom, getOwnPropertyDescriptor: boom }),
    new Proxy([], { get: boom, ownKeys: boom }),
    revocable.proxy,
    revokedArray.proxy,
    Object.defineProperty({}, "then", { get: boom }),
    { then: boom },
    { get token() { return boom(); } },
    new Proxy(new Date(), {}),
    new Proxy(new Uint8Array(4), {}),
    new Proxy(new Blob(["x"]), {}),
  ];
}

/** Every uncaught exception and unhandled rejection while `fn` runs and a moment after. */
async function noEscape(fn) {
  const escaped = [];
  const onError = (e) => escaped.push(e);
  process.on("uncaughtException", onError);
  process.on("unhandledRejection", onError);
  try {
    await fn();
    await new Promise((r) => setTimeout(r, 50));
  } finally {
    process.off("uncaughtException", onError);
    process.off("unhandledRejection", onError);
  }
  assert.deepEqual(escaped.map(String), [], "nothing escaped the SDK");
}

/** Settles to an SvcError or a value, never another error. */
async function svcOrValue(promise) {
  try {
    return { value: await promise };
  } catch (e) {
    assert.ok(e instanceof SvcError, `not an SvcError: ${e && e.stack}`);
    return { error: e };
  }
}

test("client options: every option given a hostile value is a config error, and the client made before still works", async () => {
  await noEscape(async () => {
    const keys = ["accessToken", "organizationId", "region", "apiDomain", "crmVersion", "plan", "maxRetries", "timeoutMs", "deadlineMs", "rateLimit", "fetch", "maxRequestBytes", "maxResponseBytes", "logLevel", "logger", "onRequest", "onResponse", "warnUnknownFields"];
    for (const key of keys) {
      for (const value of hostile()) {
        const options = { accessToken: TOKEN, organizationId: ORG, apiDomain: env.sandbox.url, [key]: value };
        try {
          const c = new Client(options);
          await svcOrValue(c.listCurrencies());
        } catch (e) {
          assert.ok(e instanceof SvcError, `${key}: not an SvcError: ${e && e.stack}`);
          assert.equal(e.kind, "config", `${key}: ${e.message}`);
        }
      }
    }
    for (const value of hostile()) {
      thrown(() => new Client({ accessToken: TOKEN, organizationId: ORG, rateLimit: { requestsPerMinute: 10, maxQueued: value } }), svcError("config"));
      thrown(() => new Client({ accessToken: TOKEN, organizationId: ORG, rateLimit: { store: value } }), svcError("config"));
    }
  });
  await stillWorks(env);
});

test("call options and path params: hostile values are config or validation errors, or are read as nothing", async () => {
  env.server.reset();
  env.server.handle(() => ({ status: 200, body: { code: 0, message: "success", currencies: [] } }));
  const c = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.server.url });
  await noEscape(async () => {
    for (const value of hostile()) {
      for (const options of [value, { headers: value }, { signal: value }, { timeoutMs: value }, { deadlineMs: value }, { maxRetries: value }]) {
        const r = await svcOrValue(c.listCurrencies({}, options));
        if (r.error) assert.ok(["config", "validation"].includes(r.error.kind), r.error.message);
      }
      const r = await svcOrValue(c.getCurrency(value));
      assert.ok(r.error, "a path param that is not a string is refused");
      await rejection(c.addExpenseAttachment("1", { files: value }), svcError("validation"));
      await rejection(c.addExpenseAttachment("1", { files: [value] }), svcError("validation"));
    }
  });
  assert.equal(env.server.requests.filter((r) => r.url.includes("attachment")).length, 0, "no upload was sent");
  await stillWorks(env);
});

test("a token function's hostile results: an unauthorized SvcError, or a config one for an expiresAt that is not a time", async () => {
  await noEscape(async () => {
    const results = [
      ...hostile(),
      { token: TOKEN, expiresAt: new Proxy(new Date(), {}) },
      { token: TOKEN, get expiresAt() { return boom(); } },
      { token: TOKEN, expiresAt: { valueOf: boom } },
      Object.assign(Promise.resolve(TOKEN), { then: boom }),
      (() => { const p = Promise.resolve(TOKEN); Object.defineProperty(p, "constructor", { get: boom }); return p; })(),
      "t".repeat(100_000),
    ];
    for (const result of results) {
      for (const fn of [() => result, async () => result]) {
        const c = new Client({ accessToken: fn, organizationId: ORG, apiDomain: env.sandbox.url, maxRetries: 0 });
        const r = await svcOrValue(c.listCurrencies());
        if (r.error) assert.ok(["unauthorized", "config"].includes(r.error.kind), `${r.error.kind}: ${r.error.message}`);
        else assert.ok(Array.isArray(r.value.items));
      }
    }
    // Issue 46: an expiresAt that is not a time is not "never expires": the call fails, naming it, and nothing is sent.
    const bad = new Client({ accessToken: () => ({ token: TOKEN, expiresAt: new Proxy(new Date(), {}) }), organizationId: ORG, apiDomain: env.sandbox.url });
    const r = await svcOrValue(bad.listCurrencies());
    assert.equal(r.error?.kind, "config");
    assert.match(r.error.message, /expiresAt that is not a time/);
  });
  await stillWorks(env);
});

test("a fetch option's hostile answers: a network or config SvcError, never a raw error", async () => {
  const answers = [
    ...hostile(),
    { headers: new Headers(), get status() { return boom(); } },
    { headers: { get: boom, forEach: boom }, status: 200, body: null, arrayBuffer: boom },
    { headers: new Headers({ "content-type": "application/json" }), status: 200, get body() { return boom(); }, arrayBuffer: boom },
    { headers: new Headers({ "content-type": "application/json" }), status: 200, get url() { return boom(); }, body: null, arrayBuffer: async () => new TextEncoder().encode('{"code":0,"currencies":[]}').buffer },
    new Proxy(new Response("{}"), {}),
    (() => { const p = Promise.resolve(new Response("{}")); Object.defineProperty(p, "then", { get: boom }); return p; })(),
  ];
  await noEscape(async () => {
    for (const answer of answers) {
      for (const raw of [false, true]) {
        const fetch = () => answer;
        if (!raw) {
          const c = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.server.url, fetch, maxRetries: 0 });
          await svcOrValue(c.listCurrencies());
          await svcOrValue(c.deleteCurrency("1"));
        } else {
          const proxy = createProxy({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.server.url, allow: ["listCurrencies"], fetch, maxRetries: 0 });
          const res = await proxy(new Request("http://127.0.0.1/invoice/v3/settings/currencies"));
          assert.ok(res instanceof Response);
          await res.arrayBuffer().catch((e) => assert.ok(e instanceof SvcError || e instanceof TypeError));
        }
      }
    }
  });
  await stillWorks(env);
});

test("a store's hostile replies: a network SvcError, never a raw error", async () => {
  const stores = [];
  for (const value of hostile()) {
    stores.push({ step: () => value });
    stores.push({ step: async () => value });
    stores.push({ load: () => value, save: () => true });
    stores.push({ load: async () => ({ text: value, now: Date.now() }), save: async () => value });
    stores.push({ load: async () => ({ text: null, now: value }), save: async () => true });
  }
  await noEscape(async () => {
    for (const store of stores) {
      const c = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.sandbox.url, rateLimit: { store, storeTimeoutMs: 200 } });
      const r = await svcOrValue(c.listCurrencies());
      if (r.error) assert.ok(["network", "config", "rate_limited", "timeout"].includes(r.error.kind), `${r.error.kind}: ${r.error.message}`);
    }
  });
  await stillWorks(env);
});

test("hooks and a logger that throw or are hostile are ignored; the call completes", async () => {
  await noEscape(async () => {
    for (const value of hostile()) {
      const hooks = { onRequest: () => value, onResponse: boom, logLevel: "debug", logger: { debug: boom, info: () => value, warn: boom, error: boom } };
      const c = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.sandbox.url, ...hooks });
      assert.ok(Array.isArray((await c.listCurrencies()).items));
    }
    const proxyLogger = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.sandbox.url, logLevel: "debug", logger: new Proxy({}, { get: boom }) });
    assert.ok(Array.isArray((await proxyLogger.listCurrencies()).items));
  });
  await stillWorks(env);
});

test("receivers and the proxy: hostile bodies, options and requests are SvcErrors", async () => {
  const proxy = createProxy({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.sandbox.url, allow: ["listCurrencies"] });
  await noEscape(async () => {
    for (const value of hostile()) {
      for (const parse of [() => parseWatchNotification(value, { token: "t" }), () => parseWatchNotification("{}", value), () => parseEvent(value, { skipVerification: true }), () => parseEvent("{}", value), () => parseEvent("{}", { token: "t", url: value })]) {
        try {
          parse();
        } catch (e) {
          assert.ok(e instanceof SvcError, `not an SvcError: ${e && e.stack}`);
        }
      }
      for (const options of [{ accessToken: TOKEN, organizationId: ORG, allow: value }, { accessToken: TOKEN, organizationId: ORG, allow: ["listCurrencies"], allowedOrigins: value }, { accessToken: TOKEN, organizationId: ORG, allow: ["listCurrencies"], maxBodyBytes: value }]) {
        thrown(() => createProxy(options), svcError("config"));
      }
      const r = await svcOrValue(proxy(value));
      if (r.value !== undefined) assert.ok(r.value instanceof Response);
      const req = new Request("http://127.0.0.1/invoice/v3/settings/currencies");
      const r2 = await svcOrValue(proxy(new Proxy(req, { get: (t, k) => (k === "body" || k === "headers" ? value : Reflect.get(t, k)) })));
      if (r2.value !== undefined) assert.ok(r2.value instanceof Response);
    }
    assert.equal((await proxy(new Request("http://127.0.0.1/invoice/v3/settings/currencies"))).status, 200, "the proxy still forwards");
  });
  await stillWorks(env);
});
