// The sandbox's accounts server for connections through svc-sdk/testing: sandbox.consent() gives the
// redirect of the consent page's decision (approved, declined, for a peer's location, refused), the code
// is exchanged once for tokens acting as the user (its organizations only), and the device flow is
// approved with sandbox.approveDevice() (pending, slow_down, tokens).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Sandbox } from "svc-sdk/testing";

const CLIENT = { client_id: "1000.SANDBOXDEMOCLIENT", client_secret: "sandbox-demo-client-secret" };
const REDIRECT = "http://app.test/svc/callback";
const form = (fields) => ({ method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });

function authorizeUrl(sandbox, clientId = CLIENT.client_id) {
  const q = new URLSearchParams({ response_type: "code", client_id: clientId, scope: "SvcBooks.fullaccess.all", redirect_uri: REDIRECT, access_type: "offline", prompt: "consent", state: "s/1" });
  return `${sandbox.url}/oauth/v2/auth?${q}`;
}

test("consent gives the redirect of the page's decision, and its code acts as its user once", async () => {
  const s = new Sandbox({ accounts: { users: [{ email: "alice@acme.test" }], peers: { eu: "http://eu.sandbox.localhost" } } });
  const to = new URL(s.consent(authorizeUrl(s), { user: "alice@acme.test" }));
  assert.equal(`${to.origin}${to.pathname}`, REDIRECT);
  assert.deepEqual([to.searchParams.get("location"), to.searchParams.get("accounts-server"), to.searchParams.get("state")], ["us", s.url, "s/1"]);
  assert.equal(s.consent(new URL(authorizeUrl(s)), { deny: true }), `${REDIRECT}?error=access_denied&state=s%2F1`);
  const eu = new URL(s.consent(authorizeUrl(s), { location: "eu" }));
  assert.equal(eu.searchParams.get("accounts-server"), "http://eu.sandbox.localhost");
  assert.throws(() => s.consent(authorizeUrl(s, "1000.unknown")), /consent: The client_id is not a client registered/);
  assert.throws(() => s.consent("http://elsewhere.test/oauth/v2/auth?response_type=code"), /this sandbox's consent page/);

  const exchange = async (code) =>
    (await s.fetch(`${s.url}/oauth/v2/token`, form({ grant_type: "authorization_code", ...CLIENT, redirect_uri: REDIRECT, code }))).json();
  const tokens = await exchange(to.searchParams.get("code"));
  assert.equal(tokens.api_domain, s.url);
  assert.equal((await exchange(to.searchParams.get("code"))).error, "invalid_code");
  assert.equal((await exchange(eu.searchParams.get("code"))).error, "invalid_code", "redeemable at eu only");
  const listed = await (await s.fetch(`${s.url}/books/v3/organizations`, { headers: { authorization: `Svc-oauthtoken ${tokens.access_token}` } })).json();
  assert.equal(listed.organizations.length, 1);
  assert.notEqual(listed.organizations[0].organization_id, s.organizationId);
  const revoked = await s.fetch(`${s.url}/oauth/v2/token/revoke?token=${encodeURIComponent(tokens.refresh_token)}`, { method: "POST" });
  assert.deepEqual(await revoked.json(), { status: "success" });
});

test("approveDevice answers a user code as the device page does", async () => {
  const s = new Sandbox({ accounts: { deviceIntervalMs: 50 } });
  const issued = await (await s.fetch(`${s.url}/oauth/v3/device/code`, form({ grant_type: "device_request", client_id: CLIENT.client_id, scope: "SvcBooks.fullaccess.all", access_type: "offline" }))).json();
  assert.equal(issued.interval, 0.05);
  assert.equal(issued.verification_url, `${s.url}/oauth/v3/device`);
  const poll = async () =>
    (await s.fetch(`${s.url}/oauth/v3/device/token`, form({ grant_type: "device_token", ...CLIENT, code: issued.device_code }))).json();
  assert.equal((await poll()).error, "authorization_pending");
  assert.equal((await poll()).error, "slow_down");
  s.approveDevice(issued.user_code, { user: "dev@acme.test" });
  assert.throws(() => s.approveDevice(issued.user_code), /approveDevice: The code is not one waiting/);
  await new Promise((resolve) => setTimeout(resolve, 60));
  const tokens = await poll();
  assert.ok(tokens.access_token && tokens.refresh_token, JSON.stringify(tokens));
  const counters = await (await s.fetch(`${s.url}/__sandbox/accounts`)).json();
  assert.deepEqual(counters.device_codes, { issued: 1, approved: 1, declined: 0 });
});
