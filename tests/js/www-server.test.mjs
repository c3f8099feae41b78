// The demo app's server (www/server.mjs), copied into the consumer project (so "svc-sdk" is the installed
// package) and started on 127.0.0.1 against a sandbox, without the app's build or a browser: its proxy at
// /api streams the bodies (toNodeHandler) with its headers, and a body over maxBodyBytes is answered 413
// while it is still being sent, never held whole.
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
const calls = [];
before(async () => {
  const dir = path.join(consumer, "www-server");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, "dist"), { recursive: true });
  cpSync(path.join(h.root, "www/server.mjs"), path.join(dir, "server.mjs"));
  sandbox = await startSandbox(["--no-rate-limit"]);
  const { startServer } = await import(pathToFileURL(path.join(dir, "server.mjs")));
  server = await startServer({ dist: path.join(dir, "dist"), apiDomain: sandbox.url, accessToken: "dev-token", organizationId: h.ORG, onApi: (c) => calls.push(c) });
}, { timeout: 20_000 });
after(async () => {
  await server?.close();
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
