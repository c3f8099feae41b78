// The README's Express example of "Serving many organizations", run as written against the sandbox
// binary's accounts server and a real redis-server: four lines changed to run here (a session that
// reads the tenant from a header, the sandbox as the accounts server, a free port, the store exported
// to be closed). The consent page's
// form is posted as a browser posts it; the callback, the reconnect, the decline, a replayed redirect and
// a consent in another tenant's session answer as the README says; Redis holds the refresh token sealed.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createClient } from "redis";
import { startRedis } from "./support/redis-server.mjs";
import { startSandbox } from "./support/sandbox.mjs";

const readme = readFileSync(path.join(process.env.SVC_ROOT, "README.md"), "utf8");
const section = readme.split("\n## Serving many organizations\n")[1].split("\n## ")[0];
const blocks = [...section.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
const REDIRECT = "https://app.example.com/svc/callback";

let sandbox;
let redis;
let app;
let example;

/** `text` with `from` replaced by `to`, which must be there once. */
function swap(text, from, to) {
  assert.equal(text.split(from).length, 2, `the README's example no longer holds: ${from}`);
  return text.replace(from, () => to);
}

before(async () => {
  [sandbox, redis] = await Promise.all([startSandbox(["--no-rate-limit"]), startRedis()]);
  let code = blocks.find((b) => b.includes("redisConnectionStore") && b.includes("express()"));
  assert.ok(code, "the README has the Express example");
  code = swap(code, "// ... your session middleware, which sets req.tenant", 'app.use((req, _res, next) => { req.tenant = req.get("x-tenant"); next(); });');
  code = swap(code, "  store,\n", "  store,\n  accountsServers: { us: process.env.SVC_ACCOUNTS_URL },\n");
  code = swap(code, "const store = ", "export const store = ");
  code = swap(code, 'app.listen(8000, "127.0.0.1");', 'export const server = app.listen(0, "127.0.0.1");');
  Object.assign(process.env, {
    SVC_CLIENT_ID: sandbox.oauth.clientId,
    SVC_CLIENT_SECRET: sandbox.oauth.clientSecret,
    SVC_ENCRYPTION_KEY: Buffer.alloc(32, 5).toString("base64"),
    REDIS_URL: redis.url,
    SVC_ACCOUNTS_URL: sandbox.url,
  });
  const file = path.join(process.cwd(), "readme-express-example.mjs");
  writeFileSync(file, code);
  example = await import(pathToFileURL(file));
  rmSync(file);
  if (!example.server.listening) await once(example.server, "listening");
  app = `http://127.0.0.1:${example.server.address().port}`;
}, { timeout: 30_000 });

after(async () => {
  example?.server.closeAllConnections();
  await new Promise((resolve) => (example ? example.server.close(resolve) : resolve()));
  await example?.store.close();
  await sandbox?.close();
  await redis?.stop();
});

/** A request to the example app in the session of `tenant`. */
const visit = (tenant, pathAndQuery) => fetch(`${app}${pathAndQuery}`, { headers: { "x-tenant": tenant }, redirect: "manual" });

/** The consent page's form, posted as a browser posts it: where it sends the browser back (the redirect URI's path and query). */
async function consent(authorizeUrl, fields) {
  const page = await fetch(authorizeUrl);
  assert.equal(page.status, 200, await page.text());
  const form = new URLSearchParams(new URL(authorizeUrl).search);
  for (const [k, v] of Object.entries({ location: "us", email: "", ...fields })) form.set(k, v);
  const res = await fetch(`${sandbox.url}/oauth/v2/auth`, { method: "POST", body: form, redirect: "manual" });
  assert.equal(res.status, 302);
  const back = res.headers.get("location");
  assert.ok(back.startsWith(`${REDIRECT}?`), back);
  return back.slice("https://app.example.com".length);
}

async function authorize(tenant) {
  const res = await visit(tenant, "/svc/connect");
  assert.equal(res.status, 302);
  return res.headers.get("location");
}

const accounts = async () => (await fetch(`${sandbox.url}/__sandbox/accounts`)).json();

test("connect, callback, a client per request: the tenant's contacts, and Redis holds the refresh token sealed", { timeout: 20_000 }, async () => {
  const back = await consent(await authorize("acme"), { user: "ann@acme.example", decision: "approve" });
  const done = await visit("acme", back);
  assert.equal(done.status, 302);
  assert.equal(done.headers.get("location"), "/settings/svc");
  const [org] = await orgsOf("ann@acme.example");
  const contacts = await visit("acme", `/contacts?organization=${org}`);
  assert.equal(contacts.status, 200);
  assert.deepEqual(await contacts.json(), [], "a new user's organization has no contacts yet");

  const store = createClient({ url: redis.url });
  await store.connect();
  const keys = await store.keys("svc-sdk:*");
  assert.deepEqual(keys, ["svc-sdk:svc-sdk/connection/acme"], "the state was taken; the connection kept");
  const record = await store.get(keys[0]);
  assert.equal(record.includes(sandbox.oauth.clientSecret), false);
  assert.ok(JSON.parse(record).refreshToken.length >= 40, "a sealed refresh token");
  await authorize("acme");
  const [state] = await store.keys("svc-sdk:svc-sdk/state/*");
  const ttl = await store.pTTL(state);
  assert.ok(ttl > 590_000 && ttl <= 600_000, `an authorization's state expires in 10 minutes (${ttl} ms)`);
  await store.quit();
});

test("declined, replayed, or given in another tenant's session: the README's answers, and nothing kept", { timeout: 20_000 }, async () => {
  const declined = await visit("globex", await consent(await authorize("globex"), { user: "gus@globex.example", decision: "decline" }));
  assert.equal(declined.status, 403);
  assert.equal(await declined.text(), "You declined: nothing was connected.");

  const back = await consent(await authorize("globex"), { user: "gus@globex.example", decision: "approve" });
  assert.equal((await visit("globex", back)).status, 302);
  const replayed = await visit("globex", back);
  assert.equal(replayed.status, 400);
  assert.equal(await replayed.text(), "This link expired or was already used: connect again.");

  const revoked = (await accounts()).revocations.by_request;
  const phished = await visit("initech", await consent(await authorize("umbrella"), { user: "ivy@initech.example", decision: "approve" }));
  assert.equal(phished.status, 403);
  assert.equal(await phished.text(), "This authorization was started by another account.");
  assert.equal((await accounts()).revocations.by_request, revoked + 1, "the grant made in the wrong session is revoked");
  assert.equal((await visit("umbrella", "/contacts?organization=1")).status, 500, "and the connection forgotten: its calls fail");
});

/** The organizations `email` reaches, as the sandbox's own user (dev-token) sees no user's list: from a consent of its own. */
async function orgsOf(email) {
  const { createConnections, memoryConnectionStore } = await import("svc-sdk");
  const probe = createConnections({ clientId: sandbox.oauth.clientId, clientSecret: sandbox.oauth.clientSecret, redirectUri: REDIRECT, operations: ["listOrganizations"], store: memoryConnectionStore(), accountsServers: { us: sandbox.url } });
  const back = await consent(await probe.authorizeUrl("probe"), { user: email, decision: "approve" });
  await probe.handleRedirect(back);
  return (await probe.organizations("probe")).map((o) => o.organization_id);
}
