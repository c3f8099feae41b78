// Connections (createConnections): one app serving many organizations against the sandbox's accounts
// server in-process (svc-sdk/testing): consent, the redirect taken once and its code exchanged at the
// user's data center, refresh tokens sealed in the store, a client per connection carrying its own
// token and no other's under interleaving, a reconnect that revokes the grant it replaces, a revoked
// grant marked "reauthorize" once, revoke, the device flow; and the attacks: a forged or replayed
// state, a redirect naming a foreign accounts server, a code for another client, a store that lies,
// an accounts server that echoes every secret back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { inspect } from "node:util";
import { createConnections, memoryConnectionStore, SvcError } from "svc-sdk";
import { Sandbox } from "svc-sdk/testing";

const DEMO = { clientId: "1000.SANDBOXDEMOCLIENT", clientSecret: "sandbox-demo-client-secret" };
const REDIRECT = "https://app.example.com/svc/callback";

/** A sandbox, the connections of the demo client on it, and every request they sent. */
function setup({ accounts = {}, store = memoryConnectionStore(), options = {} } = {}) {
  const sandbox = new Sandbox({ rateLimit: false, accounts });
  const sent = [];
  const answers = [];
  const recording = async (input, init) => {
    const request = new Request(input, init);
    const body = await request.clone().text();
    sent.push({ url: request.url, authorization: request.headers.get("authorization"), body });
    const response = await sandbox.fetch(request);
    if (request.url.includes("/oauth/")) answers.push(await response.clone().text());
    return response;
  };
  const reauthorized = [];
  const connections = createConnections({
    ...DEMO,
    redirectUri: REDIRECT,
    operations: ["listOrganizations", "listContacts", "createContact"],
    store,
    accountsServers: { us: sandbox.url },
    onReauthorize: (id) => reauthorized.push(id),
    fetch: recording,
    maxRetries: 0,
    ...options,
  });
  /** Consent of `user` to connection `id`, and the connection made from the redirect. */
  const connect = async (id, user) => connections.handleRedirect(sandbox.consent(await connections.authorizeUrl(id), { user }));
  const counters = async () => (await sandbox.fetch(`${sandbox.url}/__sandbox/accounts`)).json();
  return { sandbox, connections, connect, sent, answers, reauthorized, store, counters };
}

/** The refresh tokens the accounts server gave, from its answers. */
const refreshTokens = (answers) => answers.map((a) => { try { return JSON.parse(a).refresh_token; } catch { return undefined; } }).filter(Boolean);

test("consent, redirect and a call: the connection is kept, its calls reach its user's organizations", async () => {
  const { connections, connect, sent } = setup();
  const url = new URL(await connections.authorizeUrl("acme"));
  assert.equal(url.pathname, "/oauth/v2/auth");
  for (const [k, v] of Object.entries({ response_type: "code", client_id: DEMO.clientId, redirect_uri: REDIRECT, access_type: "offline", prompt: "consent" })) {
    assert.equal(url.searchParams.get(k), v, k);
  }
  assert.match(url.searchParams.get("scope"), /^Svc[\w.]+(,Svc[\w.]+)+$/, "scopes comma-separated");
  assert.match(url.searchParams.get("state"), /^[\w-]{43}$/);
  const c = await connect("acme", "ann@acme.example");
  assert.equal(c.connectionId, "acme");
  assert.equal(c.status, "active");
  assert.equal(c.region, "us");
  assert.ok(c.scopes.length >= 2);
  assert.equal(typeof c.connectedAt, "number");
  assert.equal(Object.keys(c).includes("refreshToken"), false);
  assert.deepEqual(await connections.get("acme"), c);
  const exchange = sent.find((s) => s.body.includes("grant_type=authorization_code"));
  const form = new URLSearchParams(exchange.body);
  assert.equal(form.get("redirect_uri"), REDIRECT);
  assert.equal(form.get("client_secret"), DEMO.clientSecret);
  const orgs = await connections.organizations("acme");
  assert.equal(orgs.length, 1, "a new user sees the one organization made for it");
  assert.match(orgs[0].name, /ann/i);
  assert.equal(await connections.get("nobody"), null);
});

test("the store holds refresh tokens sealed, bound to their connection, and never the client secret", async () => {
  const map = new Map();
  const store = { get: async (k) => map.get(k) ?? null, set: async (k, v) => void map.set(k, v), delete: async (k) => void map.delete(k) };
  const encryptionKey = Buffer.alloc(32, 7).toString("base64");
  const { connect, answers, connections } = setup({ store, options: { encryptionKey } });
  await connect("a", "a@x.example");
  await connect("b", "b@x.example");
  const texts = [...map.values()].join("\n");
  const [ra, rb] = refreshTokens(answers);
  for (const secret of [ra, rb, DEMO.clientSecret]) {
    for (const spelling of [secret, encodeURIComponent(secret), Buffer.from(secret).toString("base64"), JSON.stringify(secret)]) {
      assert.equal(texts.includes(spelling), false, "no spelling of a secret is in the store");
    }
  }
  // A sealed token moved to another connection does not open.
  const [ka, kb] = ["svc-sdk/connection/a", "svc-sdk/connection/b"];
  const moved = JSON.parse(map.get(kb));
  moved.refreshToken = JSON.parse(map.get(ka)).refreshToken;
  map.set(kb, JSON.stringify(moved));
  const elsewhere = createConnections({ ...DEMO, redirectUri: REDIRECT, scopes: ["SvcBooks.contacts.ALL"], store, encryptionKey });
  await assert.rejects(elsewhere.client("b").listOrganizations(), (e) => e instanceof SvcError && /cannot be opened/.test(e.message));
  assert.equal((await connections.client("a").listOrganizations()).items.length, 1, "the process that read b's record before keeps it a while");
  const other = createConnections({ ...DEMO, redirectUri: REDIRECT, scopes: ["SvcBooks.contacts.ALL"], store, encryptionKey: Buffer.alloc(32, 8).toString("base64") });
  await assert.rejects(other.client("a").listOrganizations(), /another encryptionKey/);
});

test("a forged, replayed or expired state is verification and nothing is sent", async () => {
  const { connections, sandbox, sent } = setup();
  const redirect = sandbox.consent(await connections.authorizeUrl("acme"), { user: "ann@acme.example" });
  const forged = redirect.replace(/state=[^&]+/, "state=" + "A".repeat(43));
  const before = sent.length;
  await assert.rejects(connections.handleRedirect(forged), (e) => e.kind === "verification");
  await assert.rejects(connections.handleRedirect(redirect.replace(/[?&]state=[^&]+/, "")), (e) => e.kind === "verification");
  assert.equal(sent.length, before, "nothing was sent");
  await connections.handleRedirect(redirect);
  const after = sent.length;
  await assert.rejects(connections.handleRedirect(redirect), (e) => e.kind === "verification" && /already used/.test(e.message));
  assert.equal(sent.length, after, "a replayed state sends nothing");
  // Two redirects with one state at once: one connection, one refusal.
  const again = sandbox.consent(await connections.authorizeUrl("twice"), { user: "t@x.example" });
  const results = await Promise.allSettled([connections.handleRedirect(again), connections.handleRedirect(again)]);
  assert.deepEqual(results.map((r) => r.status).sort(), ["fulfilled", "rejected"]);
});

test("a redirect naming a foreign accounts server is verification: it is sent no code and no secret", async () => {
  const { connections, sandbox, sent } = setup();
  const redirect = new URL(sandbox.consent(await connections.authorizeUrl("acme"), { user: "ann@acme.example" }));
  for (const host of ["https://accounts.evil.example", "https://accounts.svc.com.evil.example", "http://127.0.0.1:1"]) {
    const forged = new URL(sandbox.consent(await connections.authorizeUrl("acme"), { user: "ann@acme.example" }));
    forged.searchParams.set("accounts-server", host);
    const before = sent.length;
    await assert.rejects(connections.handleRedirect(forged), (e) => e.kind === "verification" && !e.message.includes("evil"));
    assert.equal(sent.length, before, `nothing sent to ${host}`);
  }
  assert.equal(redirect.searchParams.get("accounts-server"), sandbox.url, "the sandbox names itself");
});

test("the user declined: unauthorized, no connection", async () => {
  const { connections, sandbox } = setup();
  const redirect = sandbox.consent(await connections.authorizeUrl("acme"), { deny: true });
  await assert.rejects(connections.handleRedirect(redirect), (e) => e.kind === "unauthorized" && /declined/.test(e.message));
  assert.equal(await connections.get("acme"), null);
});

test("a code for another client, or used twice, is refused and its secrets never shown, even when the accounts server echoes them", async () => {
  const { connections, sandbox } = setup({ accounts: { echoSecrets: true, clients: [{ clientId: "1000.OTHER", clientSecret: "other-secret", refreshTokens: ["1000.other.r"] }] } });
  const other = createConnections({ clientId: "1000.OTHER", clientSecret: "other-secret", redirectUri: REDIRECT, scopes: ["SvcBooks.contacts.ALL"], store: memoryConnectionStore(), accountsServers: { us: sandbox.url }, fetch: sandbox.fetch });
  const theirs = sandbox.consent(await other.authorizeUrl("x"), { user: "o@x.example" });
  const code = new URL(theirs).searchParams.get("code");
  const ours = new URL(sandbox.consent(await connections.authorizeUrl("acme"), { user: "ann@acme.example" }));
  ours.searchParams.set("code", code);
  const e = await connections.handleRedirect(ours).then(() => assert.fail("accepted"), (e) => e);
  assert.equal(e.kind, "unauthorized");
  for (const secret of [code, DEMO.clientSecret]) {
    for (const shown of [e.message, JSON.stringify(e), inspect(e, { depth: 5 }), String(e.stack)]) {
      assert.equal(shown.includes(secret), false, "no secret in the error");
      assert.equal(shown.includes(encodeURIComponent(secret)), false);
    }
  }
});

test("a reconnect replaces the grant and revokes the old refresh token; revoke forgets", async () => {
  const { connections, connect, answers, counters, sandbox } = setup();
  await connect("acme", "ann@acme.example");
  await connections.organizations("acme");
  await connect("acme", "ann@acme.example");
  const [first, second] = refreshTokens(answers);
  assert.notEqual(first, second);
  assert.equal((await counters()).revocations.by_request, 1, "the replaced grant was revoked");
  const refresh = (token) => sandbox.fetch(`${sandbox.url}/oauth/v2/token`, { method: "POST", body: new URLSearchParams({ grant_type: "refresh_token", ...Object.fromEntries([["client_id", DEMO.clientId], ["client_secret", DEMO.clientSecret]]), refresh_token: token }) }).then((r) => r.json());
  assert.equal((await refresh(first)).error, "invalid_code", "the old refresh token is revoked");
  assert.equal(typeof (await connections.organizations("acme")).length, "number", "the new grant works");
  await connections.revoke("acme");
  assert.equal(await connections.get("acme"), null);
  assert.equal((await refresh(second)).error, "invalid_code", "revoked at the accounts server");
  await assert.rejects(connections.organizations("acme"), (e) => e.kind === "unauthorized" && /not known/.test(e.message));
});

test("a grant revoked by the user: the record says reauthorize, onReauthorize is told once, and nothing more is asked until a new grant", async () => {
  const { connections, connect, answers, reauthorized, sent, sandbox } = setup();
  await connect("acme", "ann@acme.example");
  const client = connections.client("acme");
  await client.listOrganizations();
  const [refresh] = refreshTokens(answers);
  await sandbox.fetch(`${sandbox.url}/__sandbox/accounts/refresh-tokens/${encodeURIComponent(refresh)}/revoke`, { method: "POST" });
  for (let i = 0; i < 3; i++) {
    const e = await client.listOrganizations().then(() => assert.fail("answered"), (e) => e);
    assert.equal(e.kind, "unauthorized");
    assert.equal(e.reauthorize, true);
  }
  const fresh = await connections.client("acme").listOrganizations().then(() => assert.fail("answered"), (e) => e);
  assert.equal(fresh.reauthorize, true);
  assert.deepEqual(reauthorized, ["acme"], "told once");
  assert.equal((await connections.get("acme")).status, "reauthorize");
  const grants = sent.filter((s) => s.body.includes("grant_type=refresh_token")).length;
  await connections.client("acme").listOrganizations().catch(() => {});
  assert.equal(sent.filter((s) => s.body.includes("grant_type=refresh_token")).length, grants, "no refresh asked of a revoked grant");
  await connect("acme", "ann@acme.example");
  assert.equal((await connections.get("acme")).status, "active");
  assert.equal((await connections.client("acme").listOrganizations()).items.length, 1, "a new grant works again");
});

test("interleaved calls of many connections each carry their own connection's token", async () => {
  const { connections, connect, sent } = setup();
  const ids = Array.from({ length: 8 }, (_, i) => `tenant-${i}`);
  for (const id of ids) await connect(id, `${id}@x.example`);
  const orgOf = new Map();
  for (const id of ids) orgOf.set(id, (await connections.organizations(id))[0].organization_id);
  const tokenOf = new Map();
  const calls = [];
  for (let round = 0; round < 5; round++) {
    for (const id of ids) {
      calls.push(connections.client(id, { organizationId: orgOf.get(id) }).listContacts().then(() => id));
    }
  }
  const done = await Promise.all(calls);
  assert.equal(done.length, 40);
  for (const s of sent.filter((s) => s.authorization && s.url.includes("organization_id="))) {
    const org = new URL(s.url).searchParams.get("organization_id");
    const id = [...orgOf].find(([, o]) => o === org)[0];
    const seen = tokenOf.get(s.authorization);
    assert.ok(seen === undefined || seen === id, "a token is never sent with another connection's call");
    tokenOf.set(s.authorization, id);
  }
  assert.equal(new Set(tokenOf.values()).size, ids.length);
  // A connection's client cannot reach another tenant's organization.
  await assert.rejects(connections.client(ids[0], { organizationId: orgOf.get(ids[1]) }).listContacts(), (e) => e instanceof SvcError);
});

test("the device flow: a code to show, polled no faster than allowed, then the connection", async () => {
  const { connections, sandbox, sent } = setup({ accounts: { deviceIntervalMs: 200 } });
  const login = await connections.deviceLogin("cli");
  assert.match(login.userCode, /\S+/);
  assert.ok(login.verificationUrl.startsWith(sandbox.url));
  assert.ok(login.expiresAt > Date.now());
  setTimeout(() => sandbox.approveDevice(login.userCode, { user: "dev@x.example" }), 700);
  const c = await login.done;
  assert.equal(c.connectionId, "cli");
  assert.equal(c.status, "active");
  const polls = sent.filter((s) => s.url.endsWith("/oauth/v3/device/token"));
  assert.ok(polls.length >= 2, "it polled until approved");
  assert.equal((await connections.organizations("cli")).length, 1);
  const declined = await connections.deviceLogin("cli2");
  setTimeout(() => sandbox.approveDevice(declined.userCode, { deny: true }), 300);
  await assert.rejects(declined.done, (e) => e.kind === "unauthorized");
});

test("a store that throws, lies or gives no text fails the call with a clear SvcError", async () => {
  const cases = [
    [{ get: async () => { throw new Error("disk on fire"); }, set: async () => {}, delete: async () => {} }, /store's get\(\) failed: disk on fire/],
    [{ get: async () => "{not a record", set: async () => {}, delete: async () => {} }, /not one/],
    [{ get: async () => 42, set: async () => {}, delete: async () => {} }, /other than a string or null/],
  ];
  for (const [store, message] of cases) {
    const { connections } = setup({ store, options: { encryptionKey: Buffer.alloc(32, 1).toString("base64") } });
    await assert.rejects(connections.client("x").listOrganizations(), (e) => e instanceof SvcError && message.test(e.message));
  }
  const { connections } = setup({ store: { get: async () => null, set: async () => { throw new Error("read-only"); }, delete: async () => {} }, options: { encryptionKey: Buffer.alloc(32, 1).toString("base64") } });
  await assert.rejects(connections.authorizeUrl("x"), /read-only/);
});

test("createConnections' options are checked, and nothing secret shows in inspect", () => {
  const store = memoryConnectionStore();
  const base = { ...DEMO, redirectUri: REDIRECT, scopes: ["SvcBooks.contacts.ALL"], store };
  for (const [bad, message] of [
    [{ store: {} }, /store/],
    [{ store: { get() {}, set() {}, delete() {} } }, /encryptionKey/],
    [{ encryptionKey: "c2hvcnQ=" }, /32 bytes/],
    [{ scopes: [] }, /scopes/],
    [{ operations: ["noSuchOperation"] }, /unknown operation/],
    [{ redirectUri: "ftp://x" }, /redirectUri/],
    [{ accountsServers: { mars: "https://x" } }, /not a region/],
    [{ clientSecret: "" }, /clientSecret/],
    [{ maxRetries: -1 }, /maxRetries/],
  ]) {
    assert.throws(() => createConnections({ ...base, ...bad }), (e) => e instanceof SvcError && e.kind === "config" && message.test(e.message), JSON.stringify(bad));
  }
  const c = createConnections(base);
  for (const shown of [inspect(c, { depth: 5, showHidden: true }), JSON.stringify(c)]) assert.equal(shown.includes(DEMO.clientSecret), false);
  assert.throws(() => c.client("x", { accessToken: "t" }), /leave accessToken out/);
  assert.throws(() => c.client(""), /connectionId/);
});

test("a hostile accounts server that echoes every secret, fails, or names a foreign API domain: clear errors, no secret in any", async () => {
  const http = await import("node:http");
  const received = [];
  let answer = () => [200, "{}"];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ url: req.url, body });
      const [status, text] = answer(req.url, body);
      res.writeHead(status, { "content-type": "application/json" }).end(text);
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${server.address().port}`;
  const secret = "hostile-client-secret";
  const connections = createConnections({ clientId: "1000.H", clientSecret: secret, redirectUri: REDIRECT, scopes: ["SvcBooks.contacts.ALL"], store: memoryConnectionStore(), accountsServers: { us: url }, maxRetries: 0 });
  const redirectWith = async (code) => `${REDIRECT}?code=${encodeURIComponent(code)}&state=${new URL(await connections.authorizeUrl("h")).searchParams.get("state")}`;
  const noSecret = (e, ...secrets) => {
    assert.ok(e instanceof SvcError, String(e));
    for (const s of [secret, ...secrets]) {
      for (const shown of [e.message, JSON.stringify(e), inspect(e, { depth: 5 }), String(e.stack)]) {
        for (const spelling of [s, encodeURIComponent(s), Buffer.from(s).toString("base64")]) assert.equal(shown.includes(spelling), false, `${spelling} in ${shown}`);
      }
    }
    return true;
  };
  try {
    const code = "1000.hostile-code";
    answer = (_, body) => [200, JSON.stringify({ error: "invalid_code", echo: body })];
    await assert.rejects(connections.handleRedirect(await redirectWith(code)), (e) => e.kind === "unauthorized" && noSecret(e, code));
    answer = (_, body) => [500, body];
    await assert.rejects(connections.handleRedirect(await redirectWith(code)), (e) => e.status === 500 && noSecret(e, code));
    answer = () => [200, JSON.stringify({ access_token: "1000.hostile-access", refresh_token: "1000.hostile-refresh", api_domain: "https://api.evil.example", expires_in: 3600 })];
    await assert.rejects(connections.handleRedirect(await redirectWith(code)), (e) => e.kind === "decode" && /api_domain/.test(e.message) && noSecret(e, code, "1000.hostile-refresh"));
    answer = () => [200, JSON.stringify({ access_token: "1000.hostile-access", refresh_token: "1000.hostile-refresh", api_domain: url, expires_in: 3600 })];
    await connections.handleRedirect(await redirectWith(code));
    answer = (path) => [500, JSON.stringify({ echo: path })];
    await assert.rejects(connections.revoke("h"), (e) => e.status === 500 && noSecret(e, "1000.hostile-refresh"));
    assert.notEqual(await connections.get("h"), null, "a revocation that failed keeps the connection, to be revoked again");
    assert.ok(received.every((r) => r.url.startsWith("/oauth/")), "the hostile server was asked nothing but the OAuth endpoints");
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

test("a store that never answers: a connection's call settles by its deadline or its signal, and the next call still does", async () => {
  const hung = { get: () => new Promise(() => {}), set: async () => {}, delete: async () => {} };
  const { connections } = setup({ store: hung, options: { encryptionKey: Buffer.alloc(32, 2).toString("base64") } });
  let started = Date.now();
  await assert.rejects(connections.client("x", { deadlineMs: 300 }).listOrganizations(), (e) => e.kind === "timeout" && /deadlineMs/.test(e.message));
  assert.ok(Date.now() - started < 5_000, `settled after ${Date.now() - started} ms`);
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 200);
  started = Date.now();
  await assert.rejects(connections.client("x").listOrganizations({}, { signal: controller.signal }), (e) => e.kind === "aborted");
  assert.ok(Date.now() - started < 5_000, `settled after ${Date.now() - started} ms`);
  await assert.rejects(connections.client("x").listOrganizations({}, { signal: AbortSignal.abort() }), (e) => e.kind === "aborted");
});
