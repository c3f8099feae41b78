// The README's worker example of "Serving many organizations", as written, under `wrangler dev` (local
// workerd, offline as in edge-workerd-fleet.test.mjs) against the sandbox binary's accounts server: the
// example's block is the worker, with one line added (the sandbox as the accounts server) and the
// session the example leaves to you (`tenantOf`: the tenant from a header) defined after it. Connect,
// the consent form posted as a browser posts it, the callback, a call for the tenant; the connection
// lives in the SvcLimiter Durable Object's storage.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createConnections, memoryConnectionStore } from "svc-sdk";
import { h } from "./support/edge.mjs";
import { startSandbox } from "./support/sandbox.mjs";

const consumer = path.dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(path.join(process.env.SVC_ROOT, "README.md"), "utf8");
const section = readme.split("\n## Serving many organizations\n")[1].split("\n## ")[0];
const APP = "https://app.example.com";
const NAME = "svc-sdk-readme-connections";

let sandbox;
let wrangler;
let url;
let dir;

/** `text` with `from` replaced by `to`, which must be there once. */
function swap(text, from, to) {
  assert.equal(text.split(from).length, 2, `the README's worker example no longer holds: ${from}`);
  return text.replace(from, () => to);
}

function writeWorker(dir) {
  const block = [...section.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((m) => m[1]).find((b) => b.includes("durableObjectConnectionStore"));
  assert.ok(block, "the README has the worker example");
  const worker = swap(block, "    store: durableObjectConnectionStore(env.SVC_LIMITER),\n", "    store: durableObjectConnectionStore(env.SVC_LIMITER),\n    accountsServers: { us: env.SVC_ACCOUNTS_URL },\n");
  writeFileSync(path.join(dir, "worker.mjs"), `${worker}\nasync function tenantOf(request) {\n  return request.headers.get("x-tenant");\n}\n`);
  writeFileSync(
    path.join(dir, "wrangler.toml"),
    `name = "${NAME}"\nmain = "worker.mjs"\ncompatibility_date = "2024-09-23"\n\n[vars]\nAPP_ORIGIN = "${APP}"\n\n` +
      `[[durable_objects.bindings]]\nname = "SVC_LIMITER"\nclass_name = "SvcLimiter"\n\n[[migrations]]\ntag = "v1"\nnew_sqlite_classes = ["SvcLimiter"]\n`,
  );
  const vars = { SVC_CLIENT_ID: sandbox.oauth.clientId, SVC_CLIENT_SECRET: sandbox.oauth.clientSecret, SVC_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString("base64"), SVC_ACCOUNTS_URL: sandbox.url };
  writeFileSync(path.join(dir, ".dev.vars"), Object.entries(vars).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join("\n") + "\n");
}

before(async () => {
  sandbox = await startSandbox(["--no-rate-limit"]);
  dir = path.join(consumer, "edge-readme-connections");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeWorker(dir);
  const dev = await h.startWranglerDev(dir, "/ready", 45_000);
  ({ child: wrangler, url } = dev);
  console.log(`wrangler dev: the README's worker ready in ${dev.ms} ms`);
}, { timeout: 60_000 });

after(async () => {
  await wrangler?.stop();
  await sandbox?.close();
});

/** The consent page's form, posted as a browser posts it: the redirect URI's path and query it sends the browser back to. */
async function consent(authorizeUrl, fields) {
  assert.equal((await fetch(authorizeUrl)).status, 200);
  const form = new URLSearchParams(new URL(authorizeUrl).search);
  for (const [k, v] of Object.entries({ location: "us", email: "", ...fields })) form.set(k, v);
  const res = await fetch(`${sandbox.url}/oauth/v2/auth`, { method: "POST", body: form, redirect: "manual" });
  const back = res.headers.get("location");
  assert.ok(back?.startsWith(`${APP}/svc/callback?`), back);
  return back.slice(APP.length);
}

const visit = (tenant, pathAndQuery) => fetch(`${url}${pathAndQuery}`, { headers: { "x-tenant": tenant }, redirect: "manual", signal: AbortSignal.timeout(20_000) });

/** The organizations of a user of the sandbox, through a connection of this process. */
async function organizationsOf(email) {
  const probe = createConnections({ clientId: sandbox.oauth.clientId, clientSecret: sandbox.oauth.clientSecret, redirectUri: `${APP}/svc/callback`, operations: ["listOrganizations"], store: memoryConnectionStore(), accountsServers: { us: sandbox.url } });
  await probe.handleRedirect(await consent(await probe.authorizeUrl("probe"), { user: email, decision: "approve" }));
  return (await probe.organizations("probe")).map((o) => o.organization_id);
}

test("the README's worker connects a tenant through the consent page and calls for it; the connection is in Durable Object storage", { timeout: 60_000 }, async () => {
  const start = await visit("acme", "/svc/connect");
  assert.equal(start.status, 302, wrangler.output());
  const back = await consent(start.headers.get("location"), { user: "ann@acme.example", decision: "approve" });
  const done = await visit("acme", back);
  assert.equal(done.status, 303, `${await done.text()}\n${wrangler.output()}`);
  assert.equal(done.headers.get("location"), `${url}/settings/svc`);

  const [organization] = await organizationsOf("ann@acme.example");
  const contacts = await visit("acme", `/contacts?organization=${organization}`);
  assert.equal(contacts.status, 200, `${await contacts.clone().text()}\n${wrangler.output()}`);
  assert.deepEqual(await contacts.json(), [], "a new user's organization, read as that user");

  const phished = await visit("initech", await consent((await visit("umbrella", "/svc/connect")).headers.get("location"), { user: "ivy@initech.example", decision: "approve" }));
  assert.equal(phished.status, 403);
  assert.equal(await phished.text(), "This authorization was started by another account.");

  const objects = path.join(dir, `.wrangler/state/v3/do/${NAME}-SvcLimiter`);
  assert.ok(existsSync(objects) && readdirSync(objects).some((f) => f.endsWith(".sqlite")), `no Durable Object storage in ${objects}`);
  assert.doesNotMatch(wrangler.stdout + wrangler.stderr, /update available|Unable to fetch the `Request.cf`/, "wrangler stayed offline");
});
