// The Client's contract beyond single operations: options, bad input of every JS type, errors,
// the token (never leaked), and that the module keeps working after anything.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client, SvcError, operations, regions, requiredScopes, validate, schemaFor } from "svc-sdk";
import { firstRequest, startRecordingServer } from "./support/recording-server.mjs";

const TOKEN = "sekret-token-9f8e7d";
let server;
let client;
before(async () => {
  server = await startRecordingServer();
  client = new Client({ accessToken: TOKEN, organizationId: "10234695", apiDomain: server.url, maxRetries: 0 });
});
after(() => server.close());

function isSvcError(kind) {
  return (e) => {
    assert.ok(e instanceof SvcError, `not an SvcError: ${e}`);
    assert.equal(e.kind, kind, e.message);
    assert.ok(!JSON.stringify({ ...e, message: e.message, stack: e.stack }).includes(TOKEN), "token leaked");
    return true;
  };
}

test("regions, operations and requiredScopes", () => {
  assert.equal(regions.us, "https://www.svcapis.com");
  assert.equal(regions.sa, "https://www.svcapis.sa");
  assert.equal(Object.keys(regions).length, 8);
  const op = operations().find((o) => o.id === "getVendorCreditRefund");
  assert.deepEqual(op, {
    id: "getVendorCreditRefund",
    family: "books",
    method: "GET",
    path: "/vendorcredits/{vendor_credit_id}/refunds/{vendor_credit_refund_id}",
    scope: "SvcBooks.debitnotes.READ",
    pathParams: ["vendor_credit_id", "vendor_credit_refund_id"],
    source: "spec",
  });
  assert.equal(operations().find((o) => o.id === "getJournal").source, "vendor");
  const sources = new Set(operations().map((o) => o.source));
  assert.deepEqual([...sources].sort(), ["published", "spec", "vendor"]);
  assert.deepEqual(requiredScopes(["listTasks", "createTask", "listTasks"]), [
    "SvcSubscriptions.projects.CREATE",
    "SvcSubscriptions.projects.READ",
  ]);
  assert.throws(() => requiredScopes(["nope"]), isSvcError("config"));
  assert.throws(() => requiredScopes("listTasks"), isSvcError("config"));
});

test("constructor options are checked with clear messages", async () => {
  const bad = [
    undefined, null, 42, "token", [],
    {}, { accessToken: "" }, { accessToken: 5 },
    { accessToken: "tok-1234", region: "mars" },
    { accessToken: "tok-1234", apiDomain: "http://example.com" },
    { accessToken: "tok-1234", apiDomain: "not a url" },
    { accessToken: "tok-1234", organisationId: "1" },
    { accessToken: "tok-1234", plan: "gold" },
    { accessToken: "tok-1234", maxRetries: -1 },
    { accessToken: "tok-1234", timeoutMs: 1.5 },
    { accessToken: "tok-1234", fetch: "fetch" },
    { accessToken: "tok-1234", rateLimit: true },
    { accessToken: "t\r\nX-Evil: 1" }, { accessToken: "t" }, { accessToken: "x".repeat(16_385) },
    { accessToken: "tok-1234", organizationId: 2 ** 60 },
  ];
  for (const options of bad) assert.throws(() => new Client(options), isSvcError("config"), JSON.stringify(options));
  // Accepted options take effect: the region's domain, no limiter, a plan's limits, a function token and a proxy's path.
  const eu = { accessToken: "tok-1234", region: "eu", plan: "premium", rateLimit: false };
  assert.equal(new Client(eu).rateLimitState(), null);
  assert.deepEqual(await firstRequest(eu), { url: `${regions.eu}/billing/v1/plans`, method: "GET", authorization: "Svc-oauthtoken tok-1234" });
  assert.equal(new Client({ accessToken: "tok-1234", plan: "premium" }).rateLimitState().maxConcurrent, 10);
  const proxied = { accessToken: () => "tok-1234", apiDomain: "https://proxy.example.com/svc/" };
  assert.deepEqual(await firstRequest(proxied), { url: "https://proxy.example.com/svc/billing/v1/plans", method: "GET", authorization: "Svc-oauthtoken tok-1234" });
});

test("the organization is required for every family but crm", async () => {
  const c = new Client({ accessToken: TOKEN, apiDomain: server.url });
  await assert.rejects(c.listPlans(), (e) => isSvcError("config")(e) && /organizationId is required/.test(e.message));
  server.reset();
  server.reply({ status: 200, body: { watch: [] } });
  await c.updateNotificationChannels({ watch: [{ channel_id: 1, events: ["Deals.all"], notify_url: "https://x.example/cb" }] });
  assert.equal(server.requests[0].url, "/crm/v8/actions/watch");
});

const garbage = [
  0, 1e309, -1e309, NaN, "string", true, [], [1, 2], () => 1, Symbol("s"), 10n,
  new Date(0), new Map(), new Uint8Array(3), { a: { b: { c: [Infinity] } } }, "x".repeat(1_000_000),
];

test("garbage of every JS type into every method rejects with SvcError, never a trap", async () => {
  server.reset();
  for (const op of operations()) {
    for (const g of garbage) {
      const args = [...op.pathParams.map(() => g), g, g];
      let result;
      try {
        result = await client[op.id](...args);
      } catch (e) {
        assert.ok(e instanceof SvcError, `${op.id}(${String(typeof g)}): ${e}`);
        continue;
      }
      assert.fail(`${op.id} accepted garbage ${String(typeof g)}: ${JSON.stringify(result)}`);
    }
  }
  assert.equal(server.requests.length, 0, "nothing was sent");
  server.handle(() => ({ status: 200, body: { code: 0, message: "ok", plans: [] } }));
  assert.deepEqual((await client.listPlans(null)).items, [], "null params are no params");
  server.reply({ status: 200, body: { code: 0, message: "ok", task: { task_id: 1 } } });
  assert.deepEqual(await client.getTask("p", "t"), { task_id: "1" }, "the module keeps working");
});

test("params that JSON cannot hold are issues at their path", async () => {
  await assert.rejects(
    client.createPlan({ name: "x", recurring_price: Infinity, addons: [{ addon_code: () => 1 }] }),
    (e) => {
      isSvcError("validation")(e);
      const paths = e.issues.map((i) => JSON.stringify(i.path));
      assert.ok(paths.includes('["recurring_price"]'), paths.join(" "));
      assert.ok(paths.includes('["addons",0,"addon_code"]'), paths.join(" "));
      assert.equal(e.operationId, "createPlan");
      return true;
    },
  );
  const cyclic = { a: 1 };
  cyclic.self = cyclic;
  await assert.rejects(client.createPlan(cyclic), isSvcError("validation"));
  const r = validate("createPlan", { recurring_price: NaN });
  assert.equal(r.ok, false);
  assert.throws(() => validate("noSuchOperation", {}), isSvcError("config"));
});

test("path parameters: ids as strings or BigInts (a JS number beyond 2^53 is a validation error, as in a body), never . or .., and always encoded", async () => {
  await assert.rejects(client.getTask(2 ** 53 + 2, "t"), isSvcError("validation"));
  await assert.rejects(client.getTask({ id: 1 }, "t"), isSvcError("validation"));
  await assert.rejects(client.getTask("p"), isSvcError("config"));
  await assert.rejects(client.getTask("p", ".."), isSvcError("validation"));
  await assert.rejects(client.getTask("p", "t", {}, {}, "extra"), isSvcError("config"));
  const p = await client.prepare("getTask", "a/b?c#d", "../x");
  assert.equal(p.url, `${server.url}/billing/v1/projects/a%2Fb%3Fc%23d/tasks/..%2Fx`);
  assert.equal(p.headers.Authorization, undefined, "prepare leaves the token out");
});

test("header values with CR or LF are refused before anything is sent", async () => {
  server.reset();
  await assert.rejects(
    client.updateExpenseByUniqueField({ x_unique_identifier_key: "cf", x_unique_identifier_value: "v\r\nX-Evil: 1", amount: 1 }),
    isSvcError("validation"),
  );
  assert.equal(server.requests.length, 0);
});

test("a token function's token is kept, the function told why it is asked; a failing one is unauthorized without the token", async () => {
  const reasons = [];
  const c = new Client({
    accessToken: async (ctx) => (reasons.push(ctx.reason), `${TOKEN}-${reasons.length}`),
    organizationId: "1",
    apiDomain: server.url,
  });
  server.reset();
  server.handle(() => ({ status: 200, body: { code: 0, message: "ok", plans: [] } }));
  await Promise.all([c.listPlans(), c.listPlans(), c.listPlans()]);
  await c.listPlans();
  assert.deepEqual(server.requests.map((r) => r.headers.authorization), Array(4).fill(`Svc-oauthtoken ${TOKEN}-1`));
  assert.deepEqual(reasons, ["initial"], "one call for a cold start of three calls, and its token kept");
  let now = Date.now();
  const expiring = [];
  const e = new Client({
    accessToken: (ctx) => (expiring.push(ctx.reason), { token: `${TOKEN}-x${expiring.length}`, expiresAt: (now += 1_000) }),
    organizationId: "1",
    apiDomain: server.url,
  });
  server.reset();
  server.handle(() => ({ status: 200, body: { code: 0, message: "ok", plans: [] } }));
  await e.listPlans();
  await new Promise((r) => setTimeout(r, 1_100));
  await e.listPlans();
  assert.deepEqual(expiring, ["initial", "expired"], "expiresAt honoured without a store");
  for (const token of [() => { throw new Error(TOKEN); }, () => Promise.reject(new Error(TOKEN)), () => 5, () => ""]) {
    const bad = new Client({ accessToken: token, organizationId: "1", apiDomain: server.url });
    await assert.rejects(bad.listPlans(), isSvcError("unauthorized"));
  }
});

test("a 401 refreshes a token function once and re-sends once, then surfaces", async () => {
  let calls = 0;
  const reasons = [];
  const c = new Client({ accessToken: (ctx) => (reasons.push(ctx.reason), `tok-one-${++calls}`), organizationId: "1", apiDomain: server.url });
  server.reset();
  server.reply({ status: 401, body: { code: 14, message: "Invalid OAuth token" } }, { status: 200, body: { code: 0, message: "ok", plans: [] } });
  const page = await c.listPlans();
  assert.deepEqual(page.items, []);
  assert.deepEqual(server.requests.map((r) => r.headers.authorization), ["Svc-oauthtoken tok-one-1", "Svc-oauthtoken tok-one-2"]);
  assert.deepEqual(reasons, ["initial", "rejected"]);
  server.reset();
  server.reply({ status: 401, body: { code: 14, message: "Invalid OAuth token" } }, { status: 401, body: { code: 14, message: "Invalid OAuth token" } });
  await assert.rejects(c.listPlans(), (e) => isSvcError("unauthorized")(e) && e.status === 401 && e.code === 14);
  assert.equal(server.requests.length, 2);
  server.reset();
  server.reply({ status: 401, body: { code: 14, message: "Invalid OAuth token" } });
  await assert.rejects(client.listPlans(), isSvcError("unauthorized"));
  assert.equal(server.requests.length, 1, "a string token is not retried");
});

test("prepare, request and schemaFor", async () => {
  const p = await client.prepare("createPackage", { salesorder_id: "5", date: "2024-01-02" });
  assert.equal(p.method, "POST");
  assert.equal(p.url, `${server.url}/inventory/v1/packages?organization_id=10234695&salesorder_id=5`);
  assert.deepEqual(JSON.parse(p.body), { date: "2024-01-02" });
  server.reset();
  server.reply({ status: 200, body: '{"code":0,"message":"ok","journals":[{"journal_id":9007199254740993}]}' });
  const r = await client.request("GET", "books", "/journals", { query: { page: 2 } });
  assert.equal(server.requests[0].url, "/books/v3/journals?organization_id=10234695&page=2");
  assert.equal(r.journals[0].journal_id, "9007199254740993");
  await assert.rejects(client.request("TRACE", "books", "/x"), isSvcError("config"));
  await assert.rejects(client.request("GET", "books", "/../x"), isSvcError("config"));
  const schema = schemaFor("createTask");
  assert.equal(schema["~standard"].version, 1);
  assert.equal(schema["~standard"].vendor, "svc-sdk");
  assert.throws(() => schemaFor("nope"), isSvcError("config"));
});

test("a timeout and an abort reject with their kind", async () => {
  server.reset();
  server.reply({ hold: true });
  await assert.rejects(client.listPlans({}, { timeoutMs: 50 }), isSvcError("timeout"));
  // Aborted once the server has the request, before it answers: the abort is an event, not a race.
  const controller = new AbortController();
  server.handle(() => (controller.abort(), { status: 200, body: { code: 0, message: "ok", plans: [] } }));
  await assert.rejects(client.listPlans({}, { signal: controller.signal }), isSvcError("aborted"));
  assert.equal(server.requests.length, 2);
  await assert.rejects(client.listPlans({}, { signal: AbortSignal.abort() }), isSvcError("aborted"));
});

test("network failures are typed", async () => {
  const c = new Client({ accessToken: TOKEN, organizationId: "1", apiDomain: "http://127.0.0.1:9", maxRetries: 0 });
  await assert.rejects(c.listPlans(), isSvcError("network"));
});

test("a custom fetch is used", async () => {
  const seen = [];
  const c = new Client({
    accessToken: TOKEN,
    organizationId: "1",
    fetch: async (url, init) => {
      seen.push([url, init.method]);
      return new Response('{"code":0,"message":"ok","plans":[{"plan_code":"p"}]}', { headers: { "content-type": "application/json" } });
    },
  });
  const page = await c.listPlans();
  assert.equal(page.items[0].plan_code, "p");
  assert.deepEqual(seen, [["https://www.svcapis.com/billing/v1/plans", "GET"]]);
});

test("a custom fetch that resolves to no Response, or throws, rejects with an SvcError", async () => {
  for (const answer of [undefined, null, 42, "ok", {}, { status: 200 }, { status: 200, headers: {} }]) {
    const c = new Client({ accessToken: TOKEN, organizationId: "1", maxRetries: 0, fetch: async () => answer });
    const e = await c.listPlans().then(() => assert.fail("resolved"), (e) => e);
    assert.ok(e instanceof SvcError, String(e));
    assert.doesNotMatch(e.message, new RegExp(TOKEN));
  }
  const thrower = new Client({ accessToken: TOKEN, organizationId: "1", maxRetries: 0, fetch: () => { throw new TypeError("boom"); } });
  await assert.rejects(thrower.listPlans(), isSvcError("network"));
  const headers = new Client({ accessToken: TOKEN, organizationId: "1", fetch: async (url, init) => {
    assert.equal(new Headers(init.headers).get("authorization"), `Svc-oauthtoken ${TOKEN}`);
    return Response.json({ code: 0, message: "ok", plans: [] });
  } });
  assert.deepEqual((await headers.listPlans()).items, []);
});
