// The sandbox's accounts server (POST /oauth/v2/token, the refresh-token grant), as the binary serves it
// over loopback and svc-sdk/testing in-process, with plain fetch: the grant in both expires_in shapes,
// Access Denied past the refresh limit, the live-token cap revoking the oldest (then 401 from the API),
// invalid_code, invalid_client, unsupported_grant_type, revocation, the counters, and the secret echo.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Sandbox } from "svc-sdk/testing";
import { startSandbox } from "./support/sandbox.mjs";

const DEMO = { clientId: "1000.SANDBOXDEMOCLIENT", clientSecret: "sandbox-demo-client-secret", refreshToken: "1000.sandbox-demo.refresh-token" };
const OTHER = { clientId: "1000.other", clientSecret: "other-secret", refreshToken: "1000.other.r1" };
const OTHER_CLIENT = { clientId: OTHER.clientId, clientSecret: OTHER.clientSecret, refreshTokens: [OTHER.refreshToken, "1000.other.r2"] };
const OTHER_FLAG = `${OTHER.clientId}:${OTHER.clientSecret}:${OTHER.refreshToken},1000.other.r2`;
const ACCESS_DENIED = {
  error: "Access Denied",
  error_description: "You have made too many requests continuously. Please try again after some time.",
  status: "failure",
};

/** The two servers of one configuration: the binary's flags, svc-sdk/testing's `accounts` option. */
const SERVERS = [
  ["binary", async ({ flags = [] }) => {
    const s = await startSandbox(flags);
    return { url: s.url, fetch, close: s.close };
  }],
  ["svc-sdk/testing", async ({ accounts }) => {
    const s = new Sandbox(accounts ? { accounts } : {});
    return { url: s.url, fetch: s.fetch, close: async () => {} };
  }],
];

/** Runs `body` against each server of the configuration, as its own test. */
function both(name, config, body) {
  for (const [kind, start] of SERVERS) {
    test(`${kind}: ${name}`, async () => {
      const server = await start(config);
      try {
        await body(helpers(server));
      } finally {
        await server.close();
      }
    });
  }
}

function helpers({ url, fetch }) {
  const refresh = async (creds = DEMO, init = {}) => {
    const form = new URLSearchParams({ grant_type: "refresh_token", client_id: creds.clientId, client_secret: creds.clientSecret, refresh_token: creds.refreshToken });
    const res = await fetch(`${url}/oauth/v2/token`, { method: "POST", body: form, ...init });
    const text = await res.text();
    return { status: res.status, text, body: JSON.parse(text) };
  };
  const token = async (creds) => {
    const r = await refresh(creds);
    assert.equal(typeof r.body.access_token, "string", r.text);
    return r.body.access_token;
  };
  const api = async (token) => {
    const res = await fetch(`${url}/books/v3/chartofaccounts?organization_id=10234695`, { headers: { authorization: `Svc-oauthtoken ${token}` } });
    return { status: res.status, body: await res.json() };
  };
  const admin = async (method, path) => {
    const res = await fetch(`${url}/__sandbox${path}`, { method });
    return { status: res.status, body: await res.json() };
  };
  const counters = async () => (await admin("GET", "/accounts")).body;
  return { url, fetch, refresh, token, api, admin, counters };
}

both("a grant is a token the API takes, expires_in in seconds, api_domain the sandbox's URL", {}, async ({ url, fetch, refresh, api, counters }) => {
  const r = await refresh();
  assert.equal(r.status, 200);
  assert.deepEqual(Object.keys(r.body), ["access_token", "api_domain", "token_type", "expires_in"]);
  assert.deepEqual({ ...r.body, access_token: "-" }, { access_token: "-", api_domain: url, token_type: "Bearer", expires_in: 3600 });
  assert.equal((await api(r.body.access_token)).status, 200);
  const query = new URLSearchParams({ grant_type: "refresh_token", client_id: DEMO.clientId, client_secret: DEMO.clientSecret, refresh_token: DEMO.refreshToken });
  const viaQuery = await (await fetch(`${url}/oauth/v2/token?${query}`, { method: "POST" })).json();
  assert.equal(typeof viaQuery.access_token, "string", "the fields may come in the query, as the vendor takes them");
  assert.notEqual(viaQuery.access_token, r.body.access_token);
  assert.equal((await api("dev-token")).status, 200, "tokens it never minted are as before");
  const { client_id, client_secret, refresh_token } = (await counters()).demo_client;
  assert.deepEqual({ clientId: client_id, clientSecret: client_secret, refreshToken: refresh_token }, DEMO, "the demo client, as npm start prints it");
});

both(
  "the legacy shape: expires_in in milliseconds beside expires_in_sec",
  { flags: ["--oauth-legacy-expires-in", "--oauth-token-lifetime-ms", "1500"], accounts: { legacyExpiresIn: true, tokenLifetimeMs: 1500 } },
  async ({ refresh }) => {
    const r = await refresh();
    assert.deepEqual(Object.keys(r.body), ["access_token", "expires_in_sec", "api_domain", "token_type", "expires_in"]);
    assert.deepEqual([r.body.expires_in_sec, r.body.expires_in], [1, 1500]);
  },
);

both("the 11th refresh in the window and every one after it are Access Denied (HTTP 200)", { flags: ["--oauth-client", OTHER_FLAG], accounts: { clients: [OTHER_CLIENT] } }, async ({ refresh, counters }) => {
  const before = Date.now();
  for (let i = 0; i < 10; i++) assert.equal(typeof (await refresh()).body.access_token, "string", `refresh ${i + 1}`);
  for (let i = 0; i < 3; i++) {
    const denied = await refresh();
    assert.equal(denied.status, 200);
    assert.equal(denied.text, JSON.stringify(ACCESS_DENIED), "the vendor's body, member for member");
  }
  assert.equal(typeof (await refresh(OTHER)).body.access_token, "string", "the limit is per refresh token");
  const c = await counters();
  assert.deepEqual(c.refreshes, { granted: 11, access_denied: 3, invalid_code: 0, invalid_client: 0, unsupported_grant_type: 0 });
  const demo = c.refresh_tokens[DEMO.refreshToken];
  assert.deepEqual([demo.granted, demo.access_denied, demo.live_tokens], [10, 3, 10]);
  assert.ok(demo.blocked_until_ms >= before + 600_000, "blocked until ten minutes after the first of the ten");
  assert.equal(c.refresh_tokens[OTHER.refreshToken].blocked_until_ms, null);
});

both(
  "only the clients given, without the demo client",
  { flags: ["--oauth-no-demo-client", "--oauth-client", OTHER_FLAG], accounts: { demoClient: false, clients: [OTHER_CLIENT] } },
  async ({ refresh, counters }) => {
    assert.equal((await refresh()).text, '{"error":"invalid_client"}');
    assert.equal(typeof (await refresh({ ...OTHER, refreshToken: "1000.other.r2" })).body.access_token, "string");
    const c = await counters();
    assert.equal(c.demo_client, null);
    assert.deepEqual(Object.keys(c.refresh_tokens), [OTHER.refreshToken, "1000.other.r2"]);
  },
);

both(
  "one more than the live-token cap revokes the oldest, which the API then answers 401",
  { flags: ["--oauth-live-token-cap", "2"], accounts: { liveTokenCap: 2 } },
  async ({ token, api, counters }) => {
    const [t1, t2, t3] = [await token(), await token(), await token()];
    assert.deepEqual(await api(t1), { status: 401, body: { code: 1401, message: "The access token is not valid." } });
    assert.equal((await api(t2)).status, 200);
    assert.equal((await api(t3)).status, 200);
    const c = await counters();
    assert.deepEqual([c.revoked_by_cap, c.api_401.revoked, c.api_401.expired], [1, 1, 0]);
    assert.deepEqual([c.refresh_tokens[DEMO.refreshToken].live_tokens, c.refresh_tokens[DEMO.refreshToken].peak_live_tokens], [2, 2]);
  },
);

both("an expired token is answered 401", { flags: ["--oauth-token-lifetime-ms", "1"], accounts: { tokenLifetimeMs: 1 } }, async ({ token, api, counters }) => {
  const t = await token();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal((await api(t)).status, 401);
  const c = await counters();
  assert.deepEqual(c.api_401, { expired: 1, revoked: 0 });
  assert.equal(c.refresh_tokens[DEMO.refreshToken].live_tokens, 0);
});

both("invalid_code, invalid_client and unsupported_grant_type, each HTTP 200 in the vendor's shape", {}, async ({ url, fetch, refresh, counters }) => {
  const cases = [
    [{ ...DEMO, refreshToken: "1000.unknown" }, '{"error":"invalid_code"}'],
    [{ ...DEMO, clientSecret: "wrong" }, '{"error":"invalid_client"}'],
    [{ ...DEMO, clientId: "1000.unknown" }, '{"error":"invalid_client"}'],
  ];
  for (const [creds, body] of cases) assert.deepEqual(await refresh(creds).then((r) => [r.status, r.text]), [200, body]);
  const code = new URLSearchParams({ grant_type: "client_credentials", client_id: DEMO.clientId, client_secret: DEMO.clientSecret, refresh_token: DEMO.refreshToken });
  const wrongGrant = await fetch(`${url}/oauth/v2/token`, { method: "POST", body: code });
  assert.deepEqual([wrongGrant.status, await wrongGrant.text()], [200, '{"error":"unsupported_grant_type"}']);
  const json = await fetch(`${url}/oauth/v2/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ grant_type: "refresh_token" }) });
  assert.equal(await json.text(), '{"error":"unsupported_grant_type"}', "a JSON body is no form");
  assert.equal((await fetch(`${url}/oauth/v2/token`)).status, 405);
  assert.deepEqual((await counters()).refreshes, { granted: 0, access_denied: 0, invalid_code: 1, invalid_client: 2, unsupported_grant_type: 2 });
});

both("revocation: an access token, then a refresh token with its live access tokens", {}, async ({ refresh, token, api, admin, counters }) => {
  const [t1, t2] = [await token(), await token()];
  assert.deepEqual(await admin("POST", `/accounts/access-tokens/${encodeURIComponent(t1)}/revoke`), { status: 200, body: { code: 0, message: "The access token is revoked.", was_live: 1 } });
  assert.equal((await api(t1)).status, 401);
  assert.equal((await api(t2)).status, 200);
  const revoked = await admin("POST", `/accounts/refresh-tokens/${encodeURIComponent(DEMO.refreshToken)}/revoke`);
  assert.deepEqual([revoked.status, revoked.body.access_tokens_revoked], [200, 1]);
  assert.equal((await api(t2)).status, 401);
  assert.equal((await refresh()).text, '{"error":"invalid_code"}');
  assert.equal((await admin("POST", "/accounts/refresh-tokens/1000.unknown/revoke")).status, 404);
  assert.equal((await admin("POST", "/accounts/access-tokens/dev-token/revoke")).status, 404);
  const c = await counters();
  assert.deepEqual([c.revoked_by_admin, c.api_401.revoked, c.refresh_tokens[DEMO.refreshToken].revoked], [2, 2, true]);
  await admin("POST", "/reset-counters");
  assert.equal((await counters()).refreshes.granted, 0, "reset-counters zeroes the accounts server's counters too");
});

const SECRET = "s3cr&t+/=é %";
const ECHOED = { clientId: "1000.echo", clientSecret: SECRET, refreshToken: "1000.echo.r+1" };
const b64 = (s) => Buffer.from(s).toString("base64");
const unicode = (s) => [...s].flatMap((c) => [...Array(c.length).keys()].map((i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`)).join("");
const spellings = (s) => [s, encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`), unicode(s), b64(s)];

both(
  "with echoSecrets every error carries the received secrets, and the API's 401 the token, in every spelling",
  {
    flags: ["--oauth-echo-secrets", "--oauth-refresh-limit", "1", "--oauth-live-token-cap", "1", "--oauth-client", `1000.echo:${encodeURIComponent(SECRET)}:${encodeURIComponent(ECHOED.refreshToken)}`],
    accounts: { echoSecrets: true, refreshLimit: 1, liveTokenCap: 1, clients: [{ clientId: ECHOED.clientId, clientSecret: SECRET, refreshTokens: [ECHOED.refreshToken] }] },
  },
  async ({ refresh, token, api, admin }) => {
    const first = await token(ECHOED);
    const errors = [
      await refresh({ ...ECHOED, refreshToken: "1000.echo.unknown" }),
      await refresh({ ...ECHOED, clientSecret: `${SECRET}x` }),
      await refresh(ECHOED),
    ];
    assert.deepEqual(errors.map((e) => e.body.error), ["invalid_code", "invalid_client", "Access Denied"]);
    for (const { body, text } of errors) {
      for (const s of spellings(body.client_secret)) assert.ok(body.error_description.includes(s), `${s} in ${body.error_description}`);
      for (const s of spellings(body.refresh_token)) assert.ok(body.error_description.includes(s), `${s} in ${body.error_description}`);
      assert.ok(body.client_secret.startsWith(SECRET));
      assert.equal(body.client_secret_base64, b64(body.client_secret));
      assert.equal(body.client_secret_json_escaped, body.client_secret);
      assert.ok(text.includes(`"client_secret_json_escaped":"${unicode(body.client_secret)}"`), "spelled with \\u escapes in the text");
      assert.equal(body.refresh_token_percent_encoded, spellings(body.refresh_token)[1]);
      assert.equal(body.refresh_token_unicode_escaped, unicode(body.refresh_token));
    }
    const wrongGrant = await refresh(ECHOED, { body: new URLSearchParams({ client_secret: SECRET }) });
    assert.equal(wrongGrant.body.error, "unsupported_grant_type");
    assert.ok(wrongGrant.body.error_description.includes(b64(SECRET)));
    await admin("POST", `/accounts/access-tokens/${encodeURIComponent(first)}/revoke`);
    for (const t of [first, `${first}x`]) {
      const { status, body } = await api(t);
      assert.equal(status, 401);
      for (const s of spellings(t)) assert.ok(body.message.includes(s), `${s} in ${body.message}`);
    }
  },
);
