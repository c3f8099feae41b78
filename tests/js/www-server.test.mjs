// The demo app's server (www/server.mjs), copied into the consumer project (so "svc-sdk" is the installed
// package) and started on 127.0.0.1 against a sandbox, without the app's build or a browser: its proxy at
// /api streams the bodies (toNodeHandler) with its headers, and a body over maxBodyBytes is answered 413
// while it is still being sent, never held whole. Its /svc/* routes (www/connect.mjs) start a connection
// at the sandbox's consent page with an HttpOnly cookie, and refuse a disconnect from another origin.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { MOST, overflow } from "./support/overflow.mjs";
import { startSandbox } from "./support/sandbox.mjs";

const h = await import(pathToFileURL(path.join(process.env.SVC_ROOT, "tests/runtimes/harness.mjs")));

const consumer = path.dirname(fileURLToPath(import.meta.url));
let sandbox;
let server;
let connecting;
const calls = [];
before(async () => {
  const dir = path.join(consumer, "www-server");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, "dist"), { recursive: true });
  for (const file of ["server.mjs", "connect.mjs"]) cpSync(path.join(h.root, "www", file), path.join(dir, file));
  sandbox = await startSandbox(["--no-rate-limit"]);
  const { startServer } = await import(pathToFileURL(path.join(dir, "server.mjs")));
  server = await startServer({ dist: path.join(dir, "dist"), apiDomain: sandbox.url, accessToken: "dev-token", organizationId: h.ORG, onApi: (c) => calls.push(c) });
  const { clientId, clientSecret, accountsUrl } = sandbox.oauth;
  connecting = await startServer({ dist: path.join(dir, "dist"), apiDomain: sandbox.url, accessToken: "dev-token", organizationId: h.ORG, connect: { clientId, clientSecret, accountsUrl } });
}, { timeout: 20_000 });
after(async () => {
  await server?.close();
  await connecting?.close();
  await sandbox?.close();
});

test("the proxy at /api answers through the stream with the page's headers, and tells onApi", { timeout: 15_000 }, async () => {
  const res = await fetch(`${server.url}/api/books/v3/chartofaccounts`, { signal: AbortSignal.timeout(10_000) });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.ok(body.chartofaccounts.length >= 1);
  assert.equal(res.headers.get("cache-control"), "private, no-cache");
  assert.equal(res.headers.get("x-frame-options"), "DENY");
  assert.match(res.headers.get("content-security-policy"), /default-src 'self'/);
  const bad = await fetch(`${server.url}/api/books/v3/fixedassets`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ asset_name: "x" }) });
  assert.equal(bad.status, 400, "a streamed body reaches the proxy's validation");
  assert.deepEqual(calls.slice(0, 2).map((c) => [c.method, c.path, c.status]), [["GET", "/api/books/v3/chartofaccounts", 200], ["POST", "/api/books/v3/fixedassets", 400]]);
});

test("a body over maxBodyBytes (1 MiB) is answered 413: from its Content-Length, or while a chunked one is still being sent; nothing reaches the service", { timeout: 30_000 }, async () => {
  const before = (await sandbox.counters()).operations.createFixedAsset?.received ?? 0;
  for (const declared of [true, false]) {
    const res = await overflow(`${server.url}/api/books/v3/fixedassets`, declared);
    assert.equal(res.status, 413, `${declared ? "declared" : "chunked"}: ${res.text}`);
    assert.ok(res.sent < MOST, `${res.sent} bytes sent`);
  }
  assert.equal((await sandbox.counters()).operations.createFixedAsset?.received ?? 0, before);
});

test("/svc/connect names the browser's connection in an HttpOnly cookie and sends it to the consent page; the secret is not in the URL", { timeout: 15_000 }, async () => {
  const res = await fetch(`${connecting.url}/svc/connect`, { redirect: "manual" });
  assert.equal(res.status, 302);
  const to = new URL(res.headers.get("location"));
  assert.equal(`${to.origin}${to.pathname}`, `${sandbox.url}/oauth/v2/auth`);
  assert.equal(to.searchParams.get("redirect_uri"), `${connecting.url}/svc/callback`);
  assert.equal(to.searchParams.get("client_id"), sandbox.oauth.clientId);
  assert.ok(!res.headers.get("location").includes(sandbox.oauth.clientSecret));
  assert.match(res.headers.get("set-cookie"), /^demo-connection=[\w-]+; Path=\/svc; HttpOnly; SameSite=Lax$/);
  const page = await fetch(to);
  assert.equal(page.status, 200, "the sandbox's consent page takes the authorization");
  assert.match(await page.text(), /Authorize an application/);
});

test("/svc/connection without a connection says so; a disconnect from another origin is refused; without connect, /svc/* is 404", { timeout: 15_000 }, async () => {
  assert.deepEqual(await (await fetch(`${connecting.url}/svc/connection`)).json(), { connected: false });
  const foreign = await fetch(`${connecting.url}/svc/disconnect`, { method: "POST", headers: { origin: "https://elsewhere.example" } });
  assert.equal(foreign.status, 403);
  const callback = await fetch(`${connecting.url}/svc/callback?state=${"A".repeat(43)}&code=1000.x`, { redirect: "manual" });
  assert.equal(callback.status, 303);
  assert.equal(callback.headers.get("location"), "/?connect=expired#connect", "a state it never gave connects nothing");
  assert.equal((await fetch(`${server.url}/svc/connect`, { redirect: "manual" })).status, 404);
});
