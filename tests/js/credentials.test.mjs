// Issue 46, attacked through the installed package: a kept token belongs to its credential. Two
// credentials of one organization on one store each carry their own token; a Client per request shares
// one refresh; only invalid_code and invalid_client stop a credential (a 408, a 404, a redirect, an
// unknown error are asked again); secrets in a form a fetch quotes never show, the proxy's 502 says only
// that the upstream failed; a token function that gives nothing or a NaN expiresAt is asked again; a
// store that lies (a poisoned domain, a state that is not JSON) is not believed; a spent budget fails at
// once; refreshes are logged at info.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { inspect } from "node:util";
import { Client, SvcError, createProxy } from "svc-sdk";
import { Sandbox } from "svc-sdk/testing";

const ORG = "10234695";
const A = { clientId: "1000.alpha", clientSecret: "alpha-s3cret+/=", refreshToken: "1000.alpha.r3fresh+/=" };
const B = { clientId: "1000.alpha", clientSecret: "alpha-s3cret+/=", refreshToken: "1000.beta.r3fresh" };
const clients = [{ clientId: A.clientId, clientSecret: A.clientSecret, refreshTokens: [A.refreshToken, B.refreshToken] }];

/** A sandbox with the two credentials, and a fetch per holder that records each grant and call. */
function world(accounts = {}) {
  const sandbox = new Sandbox({ rateLimit: false, accounts: { clients, ...accounts } });
  const minted = new Map(); // access token -> the refresh token it was minted for
  const calls = []; // { who, token, url }
  // The sandbox in-process answers every URL; a loopback one is a server of the test's (an accounts server).
  const through = (who) => async (input, init) => {
    const url = String(input);
    const response = await (url.startsWith("http://127.0.0.1") ? fetch : sandbox.fetch)(input, init);
    if (url.endsWith("/oauth/v2/token")) {
      const form = new URLSearchParams(String(init.body));
      const body = await response.clone().json().catch(() => ({}));
      if (body.access_token) minted.set(body.access_token, form.get("refresh_token"));
    } else {
      const token = new Headers(init?.headers).get("authorization")?.replace(/^Svc-oauthtoken /, "");
      calls.push({ who, token, url });
    }
    return response;
  };
  const counters = async () => (await sandbox.fetch(`${sandbox.url}/__sandbox/accounts`)).json();
  return { sandbox, minted, calls, through, counters };
}

/** A store of its own in JS, as a user writes one: load and compare-and-set save over a Map. */
function memoryStore(seed = new Map()) {
  const states = seed;
  return {
    states,
    load: async (key) => ({ text: states.get(key)?.text ?? null, now: Date.now(), version: states.get(key)?.version }),
    save: async (key, expected, version, text) => {
      if ((states.get(key)?.version ?? 0) !== expected) return false;
      states.set(key, { version, text });
      return true;
    },
  };
}

const rejection = (promise) => promise.then((v) => assert.fail(`resolved: ${inspect(v)}`), (e) => e);
const records = () => {
  const all = [];
  const logger = Object.fromEntries(["debug", "info", "warn", "error"].map((m) => [m, (r) => all.push(r)]));
  return { all, logger };
};

test("two credentials of one organization sharing a store: each call carries its own credential's token", { timeout: 60_000 }, async () => {
  const w = world();
  const store = memoryStore();
  const make = (who, creds) =>
    new Client({ oauth: { ...creds, accountsUrl: w.sandbox.url }, organizationId: ORG, fetch: w.through(who), rateLimit: { store } });
  const holders = [make("A", A), make("B", B), make("A", A), make("B", B)];
  // Interleaved at random, in waves.
  let seed = 7;
  const next = (n) => ((seed ^= seed << 13), (seed ^= seed >>> 17), (seed ^= seed << 5), (seed >>> 0) % n);
  for (let wave = 0; wave < 5; wave++) {
    await Promise.all(Array.from({ length: 12 }, () => holders[next(holders.length)].listCurrencies()));
  }
  assert.ok(w.calls.length >= 60);
  assert.ok(w.calls.some((c) => c.who === "A") && w.calls.some((c) => c.who === "B"), "both credentials called");
  for (const { who, token } of w.calls) {
    assert.equal(w.minted.get(token), who === "A" ? A.refreshToken : B.refreshToken, `a call of ${who} carried another credential's token`);
  }
  const counted = await w.counters();
  assert.equal(counted.refreshes.granted, 2, `one grant per credential for the fleet: ${JSON.stringify(counted)}`);
  for (const [key, { text }] of store.states) {
    for (const secret of [A.clientSecret, A.refreshToken, B.refreshToken]) assert.ok(!text.includes(secret), `${key} holds a secret`);
  }
  // B's refresh token revoked: B stops with its own invalid_code, A goes on.
  await w.sandbox.fetch(`${w.sandbox.url}/__sandbox/accounts/refresh-tokens/${encodeURIComponent(B.refreshToken)}/revoke`, { method: "POST" });
  const e = await rejection(holders[1].listCurrencies());
  assert.equal(e.kind, "unauthorized");
  assert.match(e.message, /invalid_code/);
  await holders[0].listCurrencies();
  assert.equal((await rejection(holders[3].listCurrencies())).kind, "unauthorized");
});

test("a Client made per request shares one refresh and one budget with every other of its credential", { timeout: 60_000 }, async () => {
  const w = world();
  const fetch = w.through("A");
  for (let i = 0; i < 12; i++) {
    const client = new Client({ oauth: { ...A, accountsUrl: w.sandbox.url }, organizationId: ORG, fetch });
    await client.listCurrencies();
  }
  const c = await w.counters();
  assert.deepEqual([c.refreshes.granted, c.refreshes.access_denied], [1, 0]);
});

/** An accounts server on loopback that answers the grants with `answers` in turn (each `(res) => void`). */
async function hostileAccounts(answers) {
  const asked = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      asked.push(body);
      const answer = answers[Math.min(asked.length - 1, answers.length - 1)];
      answer(res, body);
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${server.address().port}`;
  return { url, asked, close: () => new Promise((r) => server.close(r)) };
}
const status = (code, body = "", headers = {}) => (res) => res.writeHead(code, headers).end(body);
const json = (value) => status(200, JSON.stringify(value), { "content-type": "application/json" });
/** An answer of the sandbox's accounts server to the same grant: a token its API takes. */
const granted = (sandbox) => async (res, body) => {
  const answer = await sandbox.fetch(`${sandbox.url}/oauth/v2/token`, { method: "POST", body: new URLSearchParams(body) });
  res.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
};

test("only invalid_code and invalid_client stop a credential: a 408, 404, 403, a redirect, an unknown error are asked again", { timeout: 60_000 }, async () => {
  const w = world();
  const redirect = status(302, "", { location: "https://elsewhere.example/login" });
  const glitches = [
    status(408, "Request Timeout"),
    status(404, "<html>Not Found</html>"),
    status(403, "Forbidden"),
    redirect,
    json({ error: "temporarily_unavailable" }),
    json({ error: "server_error" }),
  ];
  for (const glitch of glitches) {
    const accounts = await hostileAccounts([glitch, granted(w.sandbox)]);
    try {
      const { all, logger } = records();
      const client = new Client({
        oauth: { ...A, accountsUrl: accounts.url }, organizationId: ORG, fetch: w.through("A"), maxRetries: 0, logger, logLevel: "info",
      });
      const e = await rejection(client.listCurrencies());
      assert.notEqual(e.kind, "unauthorized", `${e.kind}: ${e.message}`);
      assert.ok(["api", "network"].includes(e.kind), e.message);
      if (glitch === redirect) {
        assert.equal(e.status, 302, e.message);
        assert.match(e.message, /accounts server/);
        assert.match(e.message, /oauth\.accountsUrl/);
        assert.doesNotMatch(e.message, /apiDomain/);
      }
      // Not stopped: the next call asks again and goes through.
      const page = await client.listCurrencies();
      assert.ok(Array.isArray(page.items));
      assert.equal(accounts.asked.length, 2);
      assert.ok(all.some((r) => r.level === "info" && r.event === "refreshed"), "the refresh is logged at info");
    } finally {
      await accounts.close();
    }
  }
  // With retries, one call rides out a glitch by itself.
  const accounts = await hostileAccounts([status(408), granted(w.sandbox)]);
  try {
    const client = new Client({ oauth: { ...A, accountsUrl: accounts.url }, organizationId: ORG, fetch: w.through("A") });
    await client.listCurrencies();
    assert.equal(accounts.asked.length, 2);
  } finally {
    await accounts.close();
  }
});

/** Every spelling of `secret` a leak could take: literal, JSON, percent (%2B and +), form, base64. */
function spellings(secret) {
  const unicode = [...secret].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
  const form = new URLSearchParams({ s: secret }).toString().slice(2);
  return [secret, encodeURIComponent(secret), form, Buffer.from(secret).toString("base64").replace(/=+$/, ""), unicode, JSON.stringify(secret).slice(1, -1)];
}

test("a fetch whose error quotes the grant's form shows no secret: not in the error, its cause, the logs, nor the proxy's 502", { timeout: 60_000 }, async () => {
  const quoting = async (input, init) => {
    const body = String(init?.body ?? "");
    const cause = new Error(`socket hang up while sending ${body}`);
    throw new TypeError(`fetch failed: ${body} | base64 ${Buffer.from(body).toString("base64")}`, { cause });
  };
  const { all, logger } = records();
  const hooks = [];
  const client = new Client({
    oauth: { ...A, accountsUrl: "https://accounts.svc.com" }, organizationId: ORG, fetch: quoting, logger, logLevel: "debug",
    onRequest: (i) => hooks.push(i), maxRetries: 1,
  });
  const e = await rejection(client.listCurrencies());
  assert.ok(e instanceof SvcError && e.kind === "network", `${e.kind}: ${e.message}`);
  const proxy = createProxy({ oauth: { ...A, accountsUrl: "https://accounts.svc.com" }, organizationId: ORG, allow: ["listCurrencies"], fetch: quoting, maxRetries: 0 });
  const answer = await proxy(new Request("http://127.0.0.1/invoice/v3/settings/currencies"));
  const proxied = await answer.text();
  assert.equal(answer.status, 502);
  assert.doesNotMatch(proxied, /accounts|fetch failed|socket/, proxied);
  const shown = [e.message, e.stack, JSON.stringify(e), inspect(e, { depth: 9, showHidden: true }), String(e.cause?.message), JSON.stringify(all), JSON.stringify(hooks), proxied].join("\n");
  for (const s of [A.clientSecret, A.refreshToken]) {
    for (const spelled of spellings(s)) assert.ok(!shown.includes(spelled), `${spelled} shows:\n${shown.slice(0, 3000)}`);
  }
});

test("a token function that gives nothing, or an expiresAt that is not a time, fails that call and is asked again", async () => {
  const w = world();
  const answers = [undefined, null, "", { token: "dev-token", expiresAt: NaN }, { token: "dev-token", expiresAt: new Date("nope") }, "dev-token"];
  let asked = 0;
  const client = new Client({ accessToken: () => answers[asked++], organizationId: ORG, fetch: w.sandbox.fetch, apiDomain: w.sandbox.url });
  for (const kind of ["unauthorized", "unauthorized", "unauthorized", "config", "config"]) {
    const e = await rejection(client.listCurrencies());
    assert.equal(e.kind, kind, e.message);
  }
  await client.listCurrencies();
  assert.equal(asked, 6, "asked again by every call");
});

test("a store that lies: a poisoned API domain is not used, a state that is not JSON is replaced in one step", { timeout: 60_000 }, async () => {
  const w = world();
  const poisoned = (domain) => JSON.stringify({
    version: 3, limits: { perMinute: 100, maxConcurrent: 5, daily: 1000 }, window: { answered: [], day: 0, dayCount: 0, blockedUntil: 0 },
    leases: [], token: { value: "1000.poisoned.token", domain }, nextId: 9,
  });
  for (const domain of ["http://evil.example", "javascript:alert(1)", "https://evil.example/path?x=1", "https://evil.example"]) {
    const store = memoryStore();
    const load = store.load;
    store.load = async (key) => {
      if (key.startsWith("token/") && !store.states.has(key)) store.states.set(key, { version: 3, text: poisoned(domain) });
      return load(key);
    };
    const { all, logger } = records();
    const urls = [];
    const fetch = (input, init) => (urls.push(String(input)), w.through("A")(input, init));
    const client = new Client({ oauth: { ...A, accountsUrl: w.sandbox.url }, organizationId: ORG, fetch, rateLimit: { store }, logger });
    await client.listCurrencies();
    const sentTo = urls.filter((u) => !u.endsWith("/oauth/v2/token"));
    if (domain === "https://evil.example") {
      // A well-formed https origin is a domain a grant may name: it is taken, so it is sent there.
      continue;
    }
    assert.ok(sentTo.every((u) => u.startsWith(w.sandbox.url)), `${domain}: ${sentTo}`);
    assert.ok(!w.calls.some((c) => c.token === "1000.poisoned.token"));
    assert.ok(all.some((r) => r.event === "store_repaired" && r.level === "warn"), JSON.stringify(all));
  }
  // Not JSON at all, under every key, with a version beside it: one step replaces it.
  const store = memoryStore(new Map([[ORG, { version: 17, text: "}{ not json" }]]));
  const load = store.load;
  store.load = async (key) => {
    if (!store.states.has(key)) store.states.set(key, { version: 4, text: "\u0000garbage" });
    return load(key);
  };
  const { all, logger } = records();
  const client = new Client({
    oauth: { ...A, accountsUrl: w.sandbox.url }, organizationId: ORG, fetch: w.through("A"), rateLimit: { store, storeTimeoutMs: 60_000 }, logger,
  });
  const started = Date.now();
  await client.listCurrencies();
  assert.ok(Date.now() - started < 10_000, "not waited on until storeTimeoutMs");
  assert.ok(all.some((r) => r.event === "store_repaired" && /not valid.*replaced/.test(r.message)), JSON.stringify(all));
  assert.equal(JSON.parse(store.states.get(ORG).text).version > 17, true);
});

test("a spent refresh budget fails a call at once as rate_limited with its wait, not after the deadline", { timeout: 60_000 }, async () => {
  const w = world({ tokenLifetimeMs: 1000 });
  const client = new Client({ oauth: { ...A, accountsUrl: w.sandbox.url, maxRefreshes: 1 }, organizationId: ORG, fetch: w.through("A") });
  await client.listCurrencies();
  await new Promise((r) => setTimeout(r, 1_100));
  const started = Date.now();
  const e = await rejection(client.listCurrencies());
  assert.equal(e.kind, "rate_limited", e.message);
  assert.ok(e.retryAfterMs > 60_000, String(e.retryAfterMs));
  assert.ok(Date.now() - started < 5_000, "at once");
});
