// The edge examples (examples/<runtime>/) under test: each is copied into the consumer project,
// started in its real runtime against a sandbox, and driven from outside by a token-less Client, by
// the sandbox's own callbacks and by hand-made callbacks. Used by tests/js/edge-*.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Client, SvcError } from "svc-sdk";
import { MOST, overflow } from "./overflow.mjs";
import { startSandbox } from "./sandbox.mjs";

export const h = await import(pathToFileURL(path.join(process.env.SVC_ROOT, "tests/runtimes/harness.mjs")));

/** The secrets the example holds: neither may reach a browser. */
export const TOKEN = "edge-access-token-5f1c9a";
export const CHANNEL_TOKEN = "edge-channel-token-77e2";
export const EVENTS_TOKEN = "edge-events-token-3b90";
const CHANNEL = "1000000068001";
const FORGED_CHANNEL = "1000000068002";
const RECORD = "5000000000000000001";

/** Copies examples/<name>/ into <consumer>/edge-<name>/ (fresh) and returns that directory. */
export function installExample(consumer, name) {
  const dir = path.join(consumer, `edge-${name}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(path.join(h.root, "examples", name), dir, { recursive: true });
  return dir;
}

/** A sandbox that accepts only our token (with every scope): a call the example forwards without it fails. */
export function startEdgeSandbox() {
  return startSandbox(["--token", `${TOKEN}=*`, "--no-dev-token"]);
}

/** What the example reads from its environment (process env, Deno.env, or wrangler's .dev.vars). */
export function exampleEnv(sandbox) {
  return { SVC_TOKEN: TOKEN, SVC_CHANNEL_TOKEN: CHANNEL_TOKEN, SVC_EVENTS_TOKEN: EVENTS_TOKEN, SVC_ORGANIZATION_ID: h.ORG, SVC_API_DOMAIN: sandbox.url };
}

/** Waits for the child's "listening on http://127.0.0.1:PORT" line and returns that URL. */
export async function waitForListening(child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.exited.then(() => (exited = true));
  while (Date.now() < deadline) {
    const m = child.stdout.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    if (m) return m[1];
    if (exited) throw new Error(`the example exited before listening\n${child.output()}`);
    await h.sleep(50);
  }
  throw new Error(`the example did not listen within ${timeoutMs} ms\n${child.output()}`);
}

/**
 * Registers the edge tests. `ctx()` gives { url, sandbox, child } once before() has run: url is the
 * example's origin, child its process (from h.startChild), for its output in failure messages.
 * The oversized body without a Content-Length: `chunked: "endless"` is sent until the answer comes (one
 * that reads the body whole fails), `"ended"` ends at 4 MiB and may be answered after its end (see
 * edge-deno.test.mjs), `false` is left out (see edge-workerd.test.mjs).
 */
export function edgeTests(ctx, { chunked = "endless" } = {}) {
  const seen = []; // every answer the example gave the test: [what, status, headers, body]
  const limit = () => AbortSignal.timeout(10_000);
  async function call(p, init = {}) {
    const res = await fetch(ctx().url + p, { ...init, signal: limit() });
    const text = await res.text();
    seen.push([`${init.method ?? "GET"} ${p}`, res.status, [...res.headers], text]);
    return { status: res.status, text, json: () => JSON.parse(text) };
  }
  const post = (p, body, headers = { "content-type": "application/json" }) => call(p, { method: "POST", headers, body });
  let browser;
  const client = () =>
    (browser ??= new Client({
      apiDomain: `${ctx().url}/api`,
      viaProxy: true,
      maxRetries: 0,
      timeoutMs: 10_000,
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        seen.push([`client ${init?.method ?? "GET"} ${input}`, res.status, [...res.headers], await res.clone().text()]);
        return res;
      },
    }));
  const why = () => ctx().child.output();

  test("proxy: a token-less Client gets the sandbox's data for the allowed operations", { timeout: 15_000 }, async () => {
    const types = (await client().listFixedAssetTypes()).items;
    assert.deepEqual(types.map((t) => t.fixed_asset_type_name).sort(), ["Furniture", "Machines"], why());
    const accounts = (await client().listAccounts()).items;
    assert.ok(accounts.length >= 10, "the seeded accounts");
    const asset = await client().createFixedAsset({
      asset_name: "Edge desk",
      fixed_asset_type_id: types[0].fixed_asset_type_id,
      asset_account_id: accounts[0].account_id,
      asset_cost: 300,
      asset_purchase_date: "2024-05-01",
    });
    assert.match(asset.fixed_asset_id, /^\d+$/, "ids are strings");
    const names = [];
    for await (const a of await client().listFixedAssets({ per_page: 1 })) names.push(a.asset_name);
    assert.ok(names.includes("Edge desk"), names.join());
  });

  test("proxy: an operation outside the allow list gets 403, a path that is no operation 404", { timeout: 15_000 }, async () => {
    await assert.rejects(client().listPlans(), (e) => e instanceof SvcError && e.kind === "api" && e.status === 403);
    assert.equal((await call("/api/books/v3/fixedassettypes/1", { method: "DELETE" })).status, 403);
    assert.equal((await call("/api/books/v3/organizations", { method: "POST", body: "{}" })).status, 403);
    assert.equal((await call("/api/nothing/here")).status, 404);
    assert.equal((await call("/elsewhere")).status, 404, "outside /api/ and /hooks/");
    const counters = await ctx().sandbox.counters();
    for (const op of ["listPlans", "deleteFixedAssetType", "createOrganization"]) {
      assert.equal(counters.operations[op]?.received ?? 0, 0, `${op} never reached the service`);
    }
  });

  test("proxy: an invalid body gets 400 with every issue, and is not forwarded", { timeout: 15_000 }, async () => {
    const before = (await ctx().sandbox.counters()).operations.createFixedAsset?.received ?? 0;
    const bad = await post("/api/books/v3/fixedassets", JSON.stringify({ asset_name: "x", asset_cost: "a lot" }));
    assert.equal(bad.status, 400, bad.text);
    const issues = bad.json().issues;
    assert.ok(issues.some((i) => i.code === "required"), bad.text);
    assert.ok(issues.some((i) => i.code === "invalid_type" && i.path[0] === "asset_cost"), bad.text);
    assert.equal((await post("/api/books/v3/fixedassets", "not json")).status, 400);
    assert.equal((await ctx().sandbox.counters()).operations.createFixedAsset?.received ?? 0, before, "nothing forwarded");
  });

  test("receiver: a channel registered through the proxy gets the sandbox's callback, verified", { timeout: 20_000 }, async () => {
    const watch = await client().updateNotificationChannels({
      watch: [
        { channel_id: CHANNEL, events: ["Deals.edit"], notify_url: `${ctx().url}/hooks/svc?tenant=acme`, token: CHANNEL_TOKEN },
        // A channel whose token is not the example's: its callbacks must be refused.
        { channel_id: FORGED_CHANNEL, events: ["Deals.all"], notify_url: `${ctx().url}/hooks/svc`, token: "someone-elses-token" },
      ],
    });
    assert.deepEqual(watch.map((w) => w.status), ["success", "success"]);
    const fired = await ctx().sandbox.crm("Deals", "edit", [{ id: RECORD, values: { Stage: "Closed Won" } }]);
    const status = Object.fromEntries(fired.deliveries.map((d) => [d.channel_id, d.status]));
    assert.deepEqual(status, { [CHANNEL]: 200, [FORGED_CHANNEL]: 401 }, `${JSON.stringify(fired)}\n${why()}`);
    const last = (await call("/hooks/last")).json();
    assert.equal(last.notifications.length, 1, JSON.stringify(last));
    const n = last.notifications[0];
    assert.deepEqual([n.module, n.operation, n.channel_id, n.ids, n.query_params], ["Deals", "edit", CHANNEL, [RECORD], { tenant: "acme" }]);
    assert.deepEqual(n.affected_values, [{ record_id: RECORD, values: { Stage: "Closed Won" } }]);
    assert.equal(n.token, undefined, "the example keeps no channel token");
  });

  test("receiver: a callback with a wrong or no token, or no callback at all, is refused", { timeout: 15_000 }, async () => {
    const callback = (token) =>
      JSON.stringify({
        server_time: Date.now(), module: "Deals", operation: "delete", channel_id: CHANNEL, ids: [RECORD],
        resource_uri: "http://127.0.0.1/crm/v8/Deals", query_params: {}, affected_values: [], affected_fields: [], ...(token === undefined ? {} : { token }),
      });
    for (const token of ["forged-token", CHANNEL_TOKEN.slice(0, -1), ""]) {
      const res = await post("/hooks/svc", callback(token));
      assert.equal(res.status, 401, `token ${JSON.stringify(token)}: ${res.text}`);
      assert.equal(res.json().error, "verification");
    }
    assert.equal((await post("/hooks/svc", callback(undefined))).status, 401, "no token");
    assert.equal((await post("/hooks/svc", "{not json")).status, 400);
    assert.equal((await call("/hooks/svc")).status, 404, "GET is no callback");
    const last = (await call("/hooks/last")).json();
    assert.deepEqual(last.notifications.map((n) => n.operation), ["edit"], "nothing refused was remembered");
    // The same body with the right token is accepted: the refusals above were about the token alone.
    const ok = await post("/hooks/svc", callback(CHANNEL_TOKEN));
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(ok.json().received, { module: "Deals", operation: "delete", ids: [RECORD] });
  });

  test("receiver: a billing event of the sandbox posted to the webhook URL with its token is parsed; a forged one is refused", { timeout: 15_000 }, async () => {
    const events = (await client().listEvents()).items;
    assert.ok(events.length >= 1, "the seeded plans have events");
    const raw = await call(`/api/billing/v1/events/${events[0].event_id}`);
    assert.equal(raw.status, 200, raw.text);
    const { event } = raw.json();
    const hook = `/hooks/events?token=${EVENTS_TOKEN}`;
    for (const forged of ["/hooks/events", "/hooks/events?token=", `/hooks/events?token=${EVENTS_TOKEN.slice(0, -1)}`, "/hooks/events?token=someone-elses-token", `/hooks/events?tokens=${EVENTS_TOKEN}`]) {
      const res = await post(forged, JSON.stringify(event));
      assert.equal(res.status, 401, `${forged}: ${res.text}`);
      assert.equal(res.json().error, "verification");
    }
    assert.deepEqual((await call("/hooks/last")).json().events, [], "nothing forged was remembered");
    const res = await post(hook, JSON.stringify(event));
    assert.equal(res.status, 200, `${res.text}\n${why()}`);
    assert.deepEqual(res.json().received, { event_id: event.event_id, event_type: event.event_type });
    assert.ok(["subscription_activation", "subscription_upgraded", "subscription_downgraded", "billing_date_changed"].includes(event.event_type));
    const last = (await call("/hooks/last")).json();
    assert.equal(last.events[0].event_id, event.event_id);
    assert.equal(last.events[0].payload, event.payload, "the payload is kept as sent");
    assert.equal((await post(hook, JSON.stringify({ event_type: "subscription_created" }))).status, 400, "no event_id");
    assert.equal((await post(hook, "")).status, 400);
  });

  const how = { endless: ", or while a chunked one is still being sent", ended: ", or a chunked one that ends past it" }[chunked] ?? "";
  test(`receiver: a body over 1 MiB is answered 413: from its Content-Length${how}; nothing is remembered`, { timeout: 30_000 }, async () => {
    const before = (await call("/hooks/last")).json();
    for (const hook of ["/hooks/svc", `/hooks/events?token=${EVENTS_TOKEN}`]) {
      for (const declared of chunked ? [true, false] : [true]) {
        const res = await overflow(ctx().url + hook, declared, chunked === "ended" ? { end: 4 * 1024 * 1024 } : {});
        seen.push([`POST ${hook} (${declared ? "declared" : "chunked"}, ${res.sent} bytes sent)`, res.status, res.headers, res.text]);
        assert.equal(res.status, 413, `${hook}, ${declared ? "declared" : "chunked"}: ${res.text}\n${why()}`);
        assert.equal(JSON.parse(res.text).error, "too_large");
        assert.ok(res.sent < MOST, `${res.sent} bytes sent`);
        console.log(`${hook.split("?")[0]}, ${declared ? "declared" : "chunked"}: 413 after ${res.sent} bytes sent`);
      }
    }
    assert.deepEqual((await call("/hooks/last")).json(), before, "nothing oversized was remembered");
  });

  test("no answer of the example carries the access token, the channel token or the events token", { timeout: 5_000 }, () => {
    assert.ok(seen.length >= 25, `the tests above ran to their end (${seen.length} answers seen)`);
    for (const [what, , headers, body] of seen) {
      for (const secret of [TOKEN, CHANNEL_TOKEN, EVENTS_TOKEN]) {
        assert.ok(!body.includes(secret), `${what}: body`);
        assert.ok(!headers.some(([k, v]) => `${k}: ${v}`.includes(secret)), `${what}: headers`);
      }
    }
    const out = ctx().child.stdout + ctx().child.stderr;
    assert.ok(!out.includes(TOKEN) && !out.includes(CHANNEL_TOKEN), "nor does the runtime's output");
  });
}
