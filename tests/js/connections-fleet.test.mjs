// Connections in a fleet: 3 Node processes on one redis-server (the connection store and the fleet's
// tokens) serving 50 connections in two data centers (two sandbox binaries, "us" and its peer "eu",
// whose codes the other redeems), calls interleaved for a while with access tokens living 4 s: every
// call answered with its own tenant's data, each connection refreshed about once per token half-life
// across the fleet, none refused by the accounts server's budget.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createConnections } from "svc-sdk";
import { redisConnectionStore } from "svc-sdk/redis";
import { startSandbox } from "./support/sandbox.mjs";
import { startRedis } from "./support/redis-server.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const LIFE_MS = 4_000;
const DURATION_MS = 10_000;
const CLIENT = { clientId: "1000.SANDBOXDEMOCLIENT", clientSecret: "sandbox-demo-client-secret", redirectUri: "https://app.example.com/svc/callback", scopes: ["SvcBooks.contacts.ALL", "SvcBooks.settings.READ"] };

let redis;
before(async () => {
  redis = await startRedis();
});
after(async () => {
  await redis?.stop();
});

/** The consent page's form, approved for a new user `email` at `location`: the redirect a browser follows. */
async function consent(authorizeUrl, email, location) {
  const url = new URL(authorizeUrl);
  const form = new URLSearchParams(url.searchParams);
  for (const [k, v] of Object.entries({ user: "", email, location, decision: "approve" })) form.set(k, v);
  const answer = await fetch(`${url.origin}${url.pathname}`, { method: "POST", body: form, redirect: "manual" });
  assert.equal(answer.status, 302, await answer.text());
  return answer.headers.get("location");
}

/** A worker process (support/connections-worker.mjs) and the summary it prints. */
function worker(config) {
  const child = spawn(process.execPath, [path.join(here, "support/connections-worker.mjs"), JSON.stringify(config)], { cwd: here, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (c) => (out += c));
  child.stderr.on("data", (c) => (err += c));
  return new Promise((resolve, reject) => child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`worker exited ${code}: ${err}`)))));
}

test("3 processes on one redis serve 50 connections in two data centers: their own tenant's data, one refresh per token half-life, none past the budget", { timeout: 180_000 }, async () => {
  const flags = ["--no-rate-limit", "--oauth-token-lifetime-ms", String(LIFE_MS)];
  const eu = await startSandbox([...flags, "--oauth-location", "eu"]);
  const us = await startSandbox([...flags, "--oauth-location", "us", "--oauth-peer", `eu=${eu.url}`]);
  const store = redisConnectionStore({ url: redis.url });
  const encryptionKey = Buffer.alloc(32, 3).toString("base64");
  const accountsServers = { us: us.url, eu: eu.url };
  const connections = createConnections({ ...CLIENT, store, encryptionKey, accountsServers });
  try {
    const tenants = {};
    for (let i = 0; i < 50; i++) {
      const id = `tenant-${i}`;
      const location = i % 2 ? "eu" : "us";
      const c = await connections.handleRedirect(await consent(await connections.authorizeUrl(id), `${id}@fleet.example`, location));
      assert.equal(c.region, location);
      assert.equal(c.accountsUrl, accountsServers[location]);
      const [org] = await connections.organizations(id);
      tenants[id] = org.organization_id;
      await connections.client(id, { organizationId: org.organization_id }).createContact({ contact_name: id });
    }
    const accounts = async (server) => (await fetch(`${server.url}/__sandbox/accounts`)).json();
    const before = { us: await accounts(us), eu: await accounts(eu) };
    const config = { ...CLIENT, redisUrl: redis.url, encryptionKey, accountsServers, tenants, durationMs: DURATION_MS, concurrency: 4, pauseMs: 50 };
    const results = await Promise.all([0, 1, 2].map((index) => worker({ ...config, index })));
    for (const r of results) {
      assert.deepEqual(r.errors, [], `errors: ${r.errorCount}`);
      assert.equal(r.foreign, 0, "a call answered with another tenant's data");
      assert.ok(r.calls > 100, `only ${r.calls} calls`);
    }
    // Per refresh token: the grants in the run, at most one per half-life (the renewal point) plus the first.
    const bound = Math.ceil(DURATION_MS / (LIFE_MS / 2)) + 2;
    for (const [dc, server] of Object.entries({ us, eu })) {
      const after = (await accounts(server)).refresh_tokens;
      const mine = Object.entries(after).filter(([, t]) => t.client_id === CLIENT.clientId && !t.revoked);
      assert.equal(mine.filter(([token]) => token !== "1000.sandbox-demo.refresh-token").length, 25, `${dc}: 25 connections' grants`);
      for (const [token, t] of mine) {
        const was = before[dc].refresh_tokens[token]?.granted ?? 0;
        assert.ok(t.granted - was <= bound, `${dc}: ${t.granted - was} refreshes of one connection in ${DURATION_MS} ms with tokens of ${LIFE_MS} ms`);
        assert.equal(t.access_denied, 0, `${dc}: a refresh past the budget`);
      }
    }
    console.log(JSON.stringify({ calls: results.map((r) => r.calls) }));
  } finally {
    await store.close();
    await Promise.all([us.close(), eu.close()]);
  }
});
