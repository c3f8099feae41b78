// Connections in real workerd (Miniflare): two workers, each its own isolate and wasm instance, share
// connection records in Durable Object storage (durableObjectConnectionStore) and each connection's
// token through the same objects (durableObjectStore): the consent started in one worker is finished
// in the other, then both call every connection at once with tokens living 4 s: each call answered
// with its own tenant's data, refreshes bounded by the token's half-life, none past the budget.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startSandbox } from "./support/sandbox.mjs";
import { bundle, modules } from "./support/workerd-bundle.mjs";

const consumer = path.dirname(fileURLToPath(import.meta.url));
const h = await import(pathToFileURL(path.join(process.env.SVC_ROOT, "tests/runtimes/harness.mjs")));
const miniflare = await import(pathToFileURL(path.join(h.root, "node_modules/miniflare/dist/src/index.js")));
const { Miniflare, Log, LogLevel } = miniflare.Miniflare ? miniflare : miniflare.default;
const COMPAT = "2024-09-23";
const LIFE_MS = 4_000;

async function post(url, body) {
  const res = await fetch(url, { method: "POST", body: JSON.stringify(body), signal: AbortSignal.timeout(60_000) });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return JSON.parse(text);
}

/** The consent page's form, approved for a new user `email`: the redirect a browser follows. */
async function consent(authorizeUrl, email) {
  const url = new URL(authorizeUrl);
  const form = new URLSearchParams(url.searchParams);
  for (const [k, v] of Object.entries({ user: "", email, location: "us", decision: "approve" })) form.set(k, v);
  const answer = await fetch(`${url.origin}${url.pathname}`, { method: "POST", body: form, redirect: "manual" });
  assert.equal(answer.status, 302, await answer.text());
  return answer.headers.get("location");
}

test("two workerd isolates share connections on Durable Objects: each call its own tenant's data, refreshes bounded", { timeout: 180_000 }, async () => {
  const dir = h.installRuntime(consumer, "fleet");
  const limiter = await bundle(dir, "connections-limiter.mjs", "dist-connections");
  const worker = await bundle(dir, "connections.mjs", "dist-connections");
  const modulesRoot = path.join(dir, "dist-connections");
  const socket = [{ host: "127.0.0.1", port: 0 }];
  const binding = { SVC_LIMITER: { className: "SvcLimiter", scriptName: "limiter" } };
  const mf = new Miniflare({
    host: "127.0.0.1",
    port: 0,
    cf: false,
    log: new Log(LogLevel.WARN),
    workers: [
      { name: "limiter", modules: modules(limiter), modulesRoot, compatibilityDate: COMPAT, durableObjects: { SVC_LIMITER: "SvcLimiter" } },
      ...[0, 1].map((i) => ({ name: `worker-${i}`, modules: modules(worker), modulesRoot, compatibilityDate: COMPAT, durableObjects: binding, unsafeDirectSockets: socket })),
    ],
  });
  const sandbox = await startSandbox(["--no-rate-limit", "--oauth-token-lifetime-ms", String(LIFE_MS)]);
  try {
    await mf.ready;
    const [a, b] = await Promise.all([0, 1].map(async (i) => String(await mf.unsafeGetDirectURL(`worker-${i}`)).replace(/\/$/, "")));
    const options = {
      clientId: "1000.SANDBOXDEMOCLIENT",
      clientSecret: "sandbox-demo-client-secret",
      redirectUri: "https://app.example.com/svc/callback",
      scopes: ["SvcBooks.contacts.ALL", "SvcBooks.settings.READ"],
      encryptionKey: Buffer.alloc(32, 5).toString("base64"),
      accountsServers: { us: sandbox.url },
    };
    const tenants = {};
    for (let i = 0; i < 4; i++) {
      const id = `edge-${i}`;
      const { url } = await post(`${a}/authorize`, { options, id });
      const c = await post(`${b}/redirect`, { options, url: await consent(url, `${id}@edge.example`) });
      assert.equal(c.connectionId, id);
      assert.equal(c.status, "active");
      tenants[id] = (await post(`${i % 2 ? a : b}/seed`, { options, id })).org;
    }
    const before = (await (await fetch(`${sandbox.url}/__sandbox/accounts`)).json()).refresh_tokens;
    const started = Date.now();
    const rounds = [];
    while (Date.now() - started < 9_000) {
      const calls = Object.entries(tenants).map(([id, org]) => ({ id, org }));
      const [ra, rb] = await Promise.all([post(`${a}/calls`, { options, calls }), post(`${b}/calls`, { options, calls })]);
      rounds.push(...ra, ...rb);
      await new Promise((r) => setTimeout(r, 300));
    }
    const failed = rounds.filter((r) => r.error);
    assert.deepEqual(failed, []);
    for (const r of rounds) assert.deepEqual(r.names, [r.id], "its own tenant's data");
    const after = (await (await fetch(`${sandbox.url}/__sandbox/accounts`)).json()).refresh_tokens;
    const bound = Math.ceil((Date.now() - started) / (LIFE_MS / 2)) + 2;
    const grants = Object.entries(after).filter(([t]) => t !== "1000.sandbox-demo.refresh-token");
    assert.equal(grants.length, 4);
    for (const [token, t] of grants) {
      assert.ok(t.granted - (before[token]?.granted ?? 0) <= bound, `${t.granted} refreshes`);
      assert.equal(t.access_denied, 0);
    }
    console.log(JSON.stringify({ calls: rounds.length, refreshes: grants.map(([, t]) => t.granted) }));
  } finally {
    await mf.dispose();
    await sandbox.close();
  }
});
