// The SDK keeps itself authenticated (oauth): the refresh-token grant against the sandbox's accounts
// server, as the binary serves it over loopback and svc-sdk/testing in-process: one refresh for a cold
// start of 50 calls, renewed before it expires (both expires_in shapes), a revoked token refreshed once,
// Access Denied and invalid_code without a storm, invalid_client, the secrets never shown even when the
// accounts server echoes them, the proxy with oauth, and oauth refused in a web page.
import { test } from "node:test";
import assert from "node:assert/strict";
import { inspect } from "node:util";
import { Client, SvcError, accountsServers, createProxy, regions } from "svc-sdk";
import { Sandbox } from "svc-sdk/testing";
import { startSandbox } from "./support/sandbox.mjs";

const ORG = "10234695";
const DEMO = { clientId: "1000.SANDBOXDEMOCLIENT", clientSecret: "sandbox-demo-client-secret", refreshToken: "1000.sandbox-demo.refresh-token" };

/** The two sandboxes of one configuration: the binary's flags, svc-sdk/testing's `accounts` option. */
const SERVERS = [
  ["binary", async ({ flags = [] }) => {
    const s = await startSandbox(["--no-rate-limit", ...flags]);
    return { url: s.url, fetch: undefined, close: s.close };
  }],
  ["svc-sdk/testing", async ({ accounts }) => {
    const s = new Sandbox({ rateLimit: false, ...(accounts ? { accounts } : {}) });
    return { url: s.url, fetch: s.fetch, close: async () => {} };
  }],
];

function both(name, config, body) {
  for (const [kind, start] of SERVERS) {
    test(`${kind}: ${name}`, { timeout: 60_000 }, async () => {
      const server = await start(config);
      try {
        await body(helpers(server));
      } finally {
        await server.close();
      }
    });
  }
}

function helpers({ url, fetch: sandboxFetch }) {
  const doFetch = sandboxFetch ?? fetch;
  /** Every Authorization the clients sent, and every grant, in order. */
  const sent = [];
  const recording = (input, init) => {
    const headers = new Headers(init?.headers);
    sent.push({ url: String(input), authorization: headers.get("authorization"), body: typeof init?.body === "string" ? init.body : "" });
    return doFetch(input, init);
  };
  const client = (oauth = {}, options = {}) =>
    new Client({ oauth: { ...DEMO, accountsUrl: url, ...oauth }, organizationId: ORG, fetch: recording, maxRetries: 0, ...options });
  const admin = async (method, path) => (await doFetch(`${url}/__sandbox${path}`, { method })).json();
  const counters = () => admin("GET", "/accounts");
  const tokens = () => sent.filter((s) => s.authorization).map((s) => s.authorization.replace(/^Svc-oauthtoken /, ""));
  const grants = () => sent.filter((s) => s.url.endsWith("/oauth/v2/token"));
  return { url, client, admin, counters, sent, tokens, grants };
}

both("a cold start of 50 concurrent calls makes one refresh, and calls go to the answer's api_domain", {}, async ({ url, client, counters, tokens, grants, sent }) => {
  const c = client();
  const pages = await Promise.all(Array.from({ length: 50 }, () => c.listCurrencies()));
  assert.equal(pages.length, 50);
  assert.equal((await counters()).refreshes.granted, 1);
  assert.equal(grants().length, 1);
  assert.equal(new Set(tokens()).size, 1, "every call carried the one token");
  assert.equal(grants()[0].body, new URLSearchParams({ grant_type: "refresh_token", client_id: DEMO.clientId, client_secret: DEMO.clientSecret, refresh_token: DEMO.refreshToken }).toString());
  await c.listCurrencies();
  assert.equal((await counters()).refreshes.granted, 1, "the token is kept");
  const calls = sent.filter((s) => !s.url.endsWith("/oauth/v2/token"));
  assert.ok(calls.every((s) => s.url.startsWith(`${url}/`)), "no apiDomain given: the calls went to the api_domain, the sandbox");
});

for (const legacy of [false, true]) {
  both(
    `a token is renewed before it expires, no call seeing a 401 (${legacy ? "expires_in in ms beside expires_in_sec" : "expires_in in seconds"})`,
    { flags: ["--oauth-token-lifetime-ms", "6000", ...(legacy ? ["--oauth-legacy-expires-in"] : [])], accounts: { tokenLifetimeMs: 6000, legacyExpiresIn: legacy } },
    async ({ client, counters }) => {
      const c = client();
      await c.listCurrencies();
      await new Promise((r) => setTimeout(r, 3_500));
      await Promise.all([c.listCurrencies(), c.listCurrencies()]);
      const after = await counters();
      assert.equal(after.refreshes.granted, 2, "renewed once, past half its life");
      assert.deepEqual(after.api_401, { expired: 0, revoked: 0 });
      assert.ok(after.refresh_tokens[DEMO.refreshToken].peak_live_tokens <= 2);
    },
  );
}

both("a revoked access token: one refresh and one resend, the call succeeds", {}, async ({ client, admin, counters, tokens }) => {
  const c = client();
  await c.listCurrencies();
  const [first] = tokens();
  assert.ok((await admin("POST", `/accounts/access-tokens/${encodeURIComponent(first)}/revoke`)).was_live);
  await Promise.all([c.listCurrencies(), c.listCurrencies(), c.listCurrencies()]);
  const after = await counters();
  assert.equal(after.refreshes.granted, 2);
  assert.equal(after.api_401.revoked, 3, "the three calls sent with the revoked token");
  assert.equal(new Set(tokens().slice(4)).size, 1, "the three resends share the one new token");
});

both(
  "Access Denied is rate_limited and no refresh is asked for the window (no storm)",
  { flags: ["--oauth-refresh-limit", "1"], accounts: { refreshLimit: 1 } },
  async ({ client, admin, counters, tokens }) => {
    const c = client();
    await c.listCurrencies();
    await admin("POST", `/accounts/access-tokens/${encodeURIComponent(tokens()[0])}/revoke`);
    const e = await c.listCurrencies().then(() => assert.fail("resolved"), (e) => e);
    assert.ok(e instanceof SvcError && e.kind === "rate_limited", String(e));
    assert.match(e.message, /Access Denied/);
    for (let i = 0; i < 5; i++) {
      const again = await c.listCurrencies({}, { deadlineMs: 5_000 }).then(() => assert.fail("resolved"), (e) => e);
      assert.equal(again.kind, "rate_limited");
      assert.ok(again.retryAfterMs > 500_000, `waits for the window: ${again.retryAfterMs}`);
    }
    const after = await counters();
    assert.deepEqual([after.refreshes.granted, after.refreshes.access_denied], [1, 1]);
  },
);

both("invalid_code and invalid_client are unauthorized at once, say what to do, and stop the refreshes", {}, async ({ client, admin, counters, sent }) => {
  const revoked = client();
  await admin("POST", `/accounts/refresh-tokens/${encodeURIComponent(DEMO.refreshToken)}/revoke`);
  for (let i = 0; i < 4; i++) {
    const e = await revoked.listCurrencies().then(() => assert.fail("resolved"), (e) => e);
    assert.equal(e.kind, "unauthorized");
    assert.match(e.message, /invalid_code.*authorize again/);
  }
  const wrong = client({ clientSecret: "not-the-secret" });
  for (let i = 0; i < 4; i++) {
    const e = await wrong.listCurrencies().then(() => assert.fail("resolved"), (e) => e);
    assert.equal(e.kind, "unauthorized");
    assert.match(e.message, /invalid_client.*data center/);
  }
  const c = await counters();
  assert.deepEqual([c.refreshes.invalid_code, c.refreshes.invalid_client], [1, 1], "one ask each, then none");
  assert.equal(sent.filter((s) => !s.url.endsWith("/oauth/v2/token")).length, 0, "no API call without a token");
});

/** Every spelling of `secret` a leak could take. */
function spellings(secret) {
  const unicode = [...secret].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
  return [secret, encodeURIComponent(secret), Buffer.from(secret).toString("base64"), unicode, JSON.stringify(secret).slice(1, -1)];
}

both(
  "the secrets never show, though the accounts server echoes them in every error it gives",
  {
    flags: ["--oauth-echo-secrets", "--oauth-client", "1000.echo:echo+secret/=%25:1000.echo.refresh+token/="],
    accounts: { echoSecrets: true, clients: [{ clientId: "1000.echo", clientSecret: "echo+secret/=%", refreshTokens: ["1000.echo.refresh+token/="] }] },
  },
  async ({ client, admin }) => {
    const secret = "echo+secret/=%";
    const refresh = "1000.echo.refresh+token/=";
    const records = [];
    const logger = Object.fromEntries(["debug", "info", "warn", "error"].map((m) => [m, (r) => records.push(r)]));
    const hooks = [];
    const watch = { logLevel: "debug", logger, onRequest: (i) => hooks.push(i), onResponse: (i) => hooks.push(i) };
    const seen = [];
    const keep = (e) => seen.push(e.message, e.stack, JSON.stringify(e), inspect(e, { depth: 9 }), String(e.cause ?? ""));
    const wrongSecret = client({ clientId: "1000.echo", clientSecret: `${secret}x`, refreshToken: refresh }, watch);
    const wrongRefresh = client({ clientId: "1000.echo", clientSecret: secret, refreshToken: `${refresh}x` }, watch);
    const good = client({ clientId: "1000.echo", clientSecret: secret, refreshToken: refresh }, watch);
    await wrongSecret.listCurrencies().catch(keep);
    await wrongRefresh.listCurrencies().catch(keep);
    await good.listCurrencies();
    await admin("POST", `/accounts/refresh-tokens/${encodeURIComponent(refresh)}/revoke`);
    const revoked = client({ clientId: "1000.echo", clientSecret: secret, refreshToken: refresh }, watch);
    await revoked.listCurrencies().catch(keep);
    assert.equal(seen.length, 15, "three errors kept");
    seen.push(inspect(good, { depth: 9, showHidden: true }), inspect(wrongSecret, { depth: 9 }), JSON.stringify(records), JSON.stringify(hooks));
    const all = seen.join("\n");
    for (const s of [secret, `${secret}x`, refresh, `${refresh}x`]) {
      for (const spelled of spellings(s)) assert.ok(!all.includes(spelled), `${spelled} shows:\n${all.slice(0, 2000)}`);
    }
  },
);

test("a proxy with oauth adds the token it got itself; the browser's client never sees a secret", { timeout: 60_000 }, async () => {
  const s = await startSandbox(["--no-rate-limit", "--oauth-echo-secrets"]);
  try {
    const proxy = createProxy({ oauth: { ...DEMO, accountsUrl: s.url }, organizationId: ORG, allow: ["listCurrencies"], maxRetries: 0 });
    const server = await import("node:http").then(({ createServer }) =>
      new Promise((resolve) => {
        const srv = createServer(async (req, res) => {
          const response = await proxy(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers: req.headers }));
          res.writeHead(response.status, Object.fromEntries(response.headers));
          res.end(Buffer.from(await response.arrayBuffer()));
        }).listen(0, "127.0.0.1", () => resolve(srv));
      }),
    );
    const base = `http://127.0.0.1:${server.address().port}`;
    const texts = [];
    const browser = new Client({ apiDomain: base, viaProxy: true, fetch: async (u, i) => {
      const r = await fetch(u, i);
      texts.push(JSON.stringify([...r.headers]), await r.clone().text());
      return r;
    } });
    await Promise.all([browser.listCurrencies(), browser.listCurrencies()]);
    const c = await (await fetch(`${s.url}/__sandbox/accounts`)).json();
    assert.equal(c.refreshes.granted, 1);
    for (const spelled of [...spellings(DEMO.clientSecret), ...spellings(DEMO.refreshToken)]) assert.ok(!texts.join("\n").includes(spelled));
    server.close();
  } finally {
    await s.close();
  }
});

test("oauth is checked: a web page refuses it, as accessToken beside it; accountsServers names each region's server", () => {
  const oauth = { ...DEMO };
  const config = (options, pattern) => assert.throws(() => new Client(options), (e) => e instanceof SvcError && e.kind === "config" && pattern.test(e.message));
  config({ oauth, accessToken: "dev-token-123" }, /accessToken or oauth, not both/);
  config({ oauth: { ...oauth, clientSecret: 5 } }, /oauth.clientSecret must be a string/);
  config({ oauth: { ...oauth, extra: 1 } }, /unknown option "extra" of oauth/);
  config({ oauth: { ...oauth, accountsUrl: "http://accounts.example.com" } }, /oauth.accountsUrl/);
  config({ oauth, viaProxy: true, apiDomain: "https://p.example.com" }, /leave accessToken and oauth out/);
  globalThis.document = {};
  try {
    config({ oauth, organizationId: ORG }, /createProxy/);
  } finally {
    delete globalThis.document;
  }
  assert.deepEqual(Object.keys(accountsServers), Object.keys(regions));
  assert.equal(accountsServers.ca, "https://accounts.svccloud.ca");
  assert.equal(accountsServers.eu, "https://accounts.svc.eu");
  assert.ok(Object.isFrozen(accountsServers));
});
