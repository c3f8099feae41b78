// Security properties through the installed package: the token never shows in an error, a
// stack, a JSON dump, an inspected object, the console or the sandbox's request log; no header
// value can carry CR or LF; path values cannot change the path the server receives; plain http
// only for loopback hosts.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import util from "node:util";
import { Client, SvcError, createProxy, parseWatchNotification } from "svc-sdk";
import { firstRequest, startRecordingServer } from "./support/recording-server.mjs";
import { serveHandler } from "./support/node-handler.mjs";
import { startSandbox } from "./support/sandbox.mjs";

const TOKEN = "sec-tok-5e1f0a9b7c3d";
const READONLY = "sec-ro-8b2c4d6e1f0a";
const ORG = "10234695";

let sandbox;
let server;
before(async () => {
  sandbox = await startSandbox(["--token", `${TOKEN}=*`, "--token", `${READONLY}=SvcBooks.settings.READ`, "--no-rate-limit"], { quiet: false });
  server = await startRecordingServer();
});
after(async () => {
  await sandbox?.close();
  await server?.close();
});

/** Every view of a value a user or a logger might print. */
function views(x) {
  const out = [
    String(x),
    util.inspect(x, { depth: Infinity, showHidden: true, getters: true }),
    util.format("%o %O %j", x, x, x),
  ];
  try {
    out.push(JSON.stringify(x));
  } catch (e) {
    out.push(String(e));
  }
  if (x && typeof x === "object") {
    out.push(JSON.stringify({ ...x }));
    for (const k of Object.getOwnPropertyNames(x)) out.push(String(x[k]));
    if (x instanceof Error) out.push(x.message, x.stack ?? "", String(x.cause ?? ""));
  }
  return out.join("\n");
}

function assertNoSecret(x, what, secrets = [TOKEN, READONLY]) {
  const text = views(x);
  for (const s of secrets) assert.ok(!text.includes(s), `${what}: the token shows in\n${text}`);
}

/** Rejects with an SvcError of `kind`; returns the error. */
async function rejection(promise, kind) {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof SvcError, `not an SvcError: ${e}`);
    if (kind) assert.equal(e.kind, kind, e.message);
    return e;
  }
  assert.fail(`resolved, expected a ${kind} error`);
}

test("the token never shows in an error, a stack, a JSON dump, an inspected object, the console or the sandbox log", async () => {
  const printed = [];
  const saved = {};
  for (const m of ["log", "info", "warn", "error", "debug", "trace"]) {
    saved[m] = console[m];
    console[m] = (...args) => printed.push(util.format(...args));
  }
  const errors = [];
  const seen = [];
  try {
    const client = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: sandbox.url, maxRetries: 0 });
    const fnClient = new Client({ accessToken: async () => TOKEN, organizationId: ORG, apiDomain: sandbox.url, maxRetries: 0 });
    const page = await client.listOrganizations();
    seen.push(client, fnClient, page, await fnClient.listOrganizations());
    errors.push(await rejection(client.createPlan({ name: 5, recurring_price: Infinity }), "validation"));
    errors.push(await rejection(client.getTask("no-such-project", "no-such-task"), "api"));
    errors.push(await rejection(fnClient.getCurrency("no-such-currency"), "api"));
    errors.push(await rejection(new Client({ accessToken: READONLY, organizationId: ORG, apiDomain: sandbox.url }).listPlans(), "unauthorized"));
    errors.push(await rejection(new Client({ accessToken: `${TOKEN}-wrong`, organizationId: ORG, apiDomain: sandbox.url }).listPlans(), "unauthorized"));
    errors.push(await rejection(new Client({ accessToken: TOKEN, apiDomain: sandbox.url }).listPlans(), "config"));
    errors.push(await rejection(client.request("GET", "books", "/%2e%2e/x"), "config"));
    for (const token of [
      () => { throw new Error(`bad ${TOKEN}`); },
      () => Promise.reject(new Error(`bad ${TOKEN}`)),
    ]) {
      errors.push(await rejection(new Client({ accessToken: token, organizationId: ORG, apiDomain: sandbox.url }).listPlans(), "unauthorized"));
    }
    errors.push(await rejection(new Client({ accessToken: () => `${TOKEN}\r\nX-Evil: 1`, organizationId: ORG, apiDomain: sandbox.url }).listPlans(), "config"));
    try {
      new Client({ accessToken: `${TOKEN}\nX-Evil: 1` });
      assert.fail("a token with a line break was taken");
    } catch (e) {
      assert.equal(e.kind, "config");
      errors.push(e);
    }
    // Transport failures, from a loopback server of our own.
    const rec = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: server.url, maxRetries: 0 });
    server.reset();
    server.reply(
      { status: 200, body: { code: 0, message: "ok", plans: [] }, delayMs: 500 },
      { status: 429, headers: { "retry-after": "1" }, body: { code: 44, message: "slow down" } },
      { status: 200, body: "not json" },
      { status: 500, body: { code: 1, message: "boom" } },
      { status: 401, body: { code: 57, message: `invalid token Svc-oauthtoken ${TOKEN}` } },
      { status: 400, body: { code: 2, message: `bad request from ${TOKEN}` } },
    );
    errors.push(await rejection(rec.listPlans({}, { timeoutMs: 50 }), "timeout"));
    errors.push(await rejection(rec.listPlans(), "rate_limited"));
    errors.push(await rejection(rec.listPlans(), "decode"));
    errors.push(await rejection(rec.listPlans(), "api"));
    const echoed = [await rejection(rec.listPlans(), "unauthorized"), await rejection(rec.listPlans(), "api")];
    for (const e of echoed) assert.match(e.message, /\[redacted\]/, "a server's echo of the token is redacted");
    errors.push(...echoed);
    errors.push(await rejection(rec.listPlans({}, { signal: AbortSignal.abort() }), "aborted"));
    const down = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: "http://127.0.0.1:9", maxRetries: 0 });
    errors.push(await rejection(down.listPlans(), "network"));
    seen.push(rec, down);
    assert.ok(server.requests.some((r) => r.headers.authorization === `Svc-oauthtoken ${TOKEN}`), "the token went to the server");
  } finally {
    Object.assign(console, saved);
  }
  const kinds = new Set(errors.map((e) => e.kind));
  for (const k of ["validation", "api", "unauthorized", "config", "timeout", "rate_limited", "decode", "aborted", "network"]) {
    assert.ok(kinds.has(k), `no ${k} error was checked`);
  }
  errors.forEach((e, i) => assertNoSecret(e, `error ${i} (${e.kind}: ${e.message})`));
  seen.forEach((x, i) => assertNoSecret(x, `object ${i}`));
  assertNoSecret(printed.join("\n"), "the console");
  const log = sandbox.log();
  assert.match(log, /GET \/books\/v3\/organizations -> 200/, "the sandbox logged its requests");
  assert.match(log, /-> 401/);
  assert.ok(!log.includes(TOKEN) && !log.includes(READONLY), `the token shows in the sandbox log:\n${log}`);
});

test("CR or LF in any header value is refused before anything is sent", async () => {
  server.reset();
  for (const bad of ["\r\n", "\n", "\r", "\0"]) {
    const evil = `v${bad}X-Evil: 1`;
    assert.throws(() => new Client({ accessToken: evil, apiDomain: server.url }), (e) => e instanceof SvcError && e.kind === "config");
    assert.throws(() => new Client({ accessToken: TOKEN, organizationId: evil, apiDomain: server.url }), (e) => e instanceof SvcError && e.kind === "config");
    const fn = new Client({ accessToken: () => evil, organizationId: ORG, apiDomain: server.url, maxRetries: 0 });
    await rejection(fn.listPlans(), "config");
    const client = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: server.url, maxRetries: 0 });
    for (const field of ["x_unique_identifier_key", "x_unique_identifier_value"]) {
      const params = { x_unique_identifier_key: "cf_k", x_unique_identifier_value: "v", [field]: evil, amount: 1 };
      const e = await rejection(client.updateExpenseByUniqueField(params), "validation");
      assert.ok(e.issues.some((i) => i.path[0] === field), JSON.stringify(e.issues));
    }
    await rejection(client.updateExpenseByUniqueField({ x_unique_identifier_key: "cf_k", x_unique_identifier_value: "v", x_upsert: evil }), "validation");
  }
  assert.equal(server.requests.length, 0, "nothing was sent");
  // A good call sends the values as they are, and no header of its own making.
  const client = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: server.url, maxRetries: 0 });
  server.reply({ status: 200, body: { code: 0, message: "ok", expense: { expense_id: 1 } } });
  await client.updateExpenseByUniqueField({ x_unique_identifier_key: "cf_k", x_unique_identifier_value: "a b:c", x_upsert: true, amount: 1 });
  const h = server.requests[0].headers;
  assert.equal(h["x-unique-identifier-key"], "cf_k");
  assert.equal(h["x-unique-identifier-value"], "a b:c");
  assert.equal(h["x-evil"], undefined);
});

test("path values with /, .., ?, #, % cannot change the path the server receives", async () => {
  const client = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: server.url, maxRetries: 0 });
  const values = ["a/b", "../x", "../../../admin", "..%2F..", "?q=1", "#frag", "%", "%2F", "%2e%2e", ".%2e", "...", "a\\..\\b", "a\r\nb", "é 😀", "+&=;"];
  server.reset();
  server.handle(() => ({ status: 200, body: { code: 0, message: "ok", task: { task_id: 1 } } }));
  for (const v of values) {
    await client.getTask("p/../..", v);
    const got = server.requests.at(-1).url;
    const [pathname, query] = got.split("?");
    assert.equal(query, undefined, `${v}: a query in ${got}`);
    const segs = pathname.split("/");
    assert.equal(segs.length, 7, `${v}: ${got}`);
    assert.deepEqual(segs.slice(0, 4), ["", "billing", "v1", "projects"], got);
    assert.equal(segs[5], "tasks", got);
    assert.equal(decodeURIComponent(segs[4]), "p/../..");
    assert.equal(decodeURIComponent(segs[6]), v, got);
  }
  const sent = server.requests.length;
  for (const v of [".", ".."]) await rejection(client.getTask("p", v), "validation");
  for (const p of ["/..", "/%2e%2e/%2e%2e/books/v3/journals", "/a/.%2E/b", "/%2E", "/a?b=1", "/a#b"]) {
    await rejection(client.request("GET", "billing", p), "config");
  }
  assert.equal(server.requests.length, sent, "nothing was sent for dot segments");
  // Against the sandbox: "../currencies" is one currency id (not found), never the list.
  const sb = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: sandbox.url, maxRetries: 0 });
  const e = await rejection(sb.getCurrency("../currencies"), "api");
  assert.equal(e.status, 404);
  const e2 = await rejection(sb.getCurrency("..%2F..%2Fcurrencies"), "api");
  assert.equal(e2.status, 404);
  assert.ok(sandbox.log().includes("/invoice/v3/settings/currencies/..%2Fcurrencies"), "the sandbox got one encoded segment");
});

test("the proxy forwards nothing outside its allow list, and never hands the token back, even when the service echoes it", async () => {
  const proxy = await serveHandler(createProxy({ accessToken: TOKEN, organizationId: ORG, apiDomain: server.url, allow: ["listPlans"], maxRetries: 0 }));
  try {
    server.reset();
    for (const [path, init] of [
      ["/billing/v1/plans/p1", { method: "PUT", body: "{}" }],
      ["/billing/v1/events", {}],
      ["/billing/v1/plans", { method: "POST", body: "{}" }],
      ["/books/v3/fixedassets", {}],
      ["/crm/v8/actions/watch", { method: "PATCH", body: "{}" }],
    ]) {
      const res = await fetch(proxy.url + path, init);
      assert.equal(res.status, 403, path);
      assert.ok(!(await res.text()).includes(TOKEN));
    }
    assert.equal(server.requests.length, 0, "nothing outside the allow list reached the service");
    server.reply(
      { status: 200, body: { code: 0, message: `hello ${TOKEN}`, plans: [{ plan_code: TOKEN }] } },
      { status: 400, body: { code: 2, message: `Svc-oauthtoken ${TOKEN} is not allowed here` } },
    );
    for (const status of [200, 400]) {
      const res = await fetch(`${proxy.url}/billing/v1/plans`);
      assert.equal(res.status, status);
      const text = await res.text();
      assert.ok(!text.includes(TOKEN), text);
      assert.match(text, /\[redacted\]/);
    }
    assert.equal(server.requests.length, 2);
    assert.equal(server.requests[0].headers.authorization, `Svc-oauthtoken ${TOKEN}`);
  } finally {
    await proxy.close();
  }
});

test("the proxy streams the answer and redacts the token even when it is split across chunks", async () => {
  const body = `{"code":0,"message":"ok","plans":[{"name":"${TOKEN} and ${TOKEN}"}],"tail":"${"x".repeat(70_000)}"}`;
  const upstream = http.createServer(async (req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    for (let i = 0; i < body.length; i += 7) {
      res.write(body.slice(i, i + 7));
      if (i < 200) await new Promise((r) => setTimeout(r, 1));
    }
    res.end();
  });
  await new Promise((r) => upstream.listen(0, "127.0.0.1", r));
  const proxy = await serveHandler(createProxy({ accessToken: TOKEN, organizationId: ORG, apiDomain: `http://127.0.0.1:${upstream.address().port}`, allow: ["listPlans"] }));
  try {
    const text = await (await fetch(`${proxy.url}/billing/v1/plans`)).text();
    assert.ok(!text.includes(TOKEN));
    assert.equal(text, body.replaceAll(TOKEN, "[redacted]"), "everything else arrives as it was sent");
  } finally {
    await proxy.close();
    await new Promise((r) => upstream.close(r));
  }
});

/** The request went to `apiDomain`: its origin, under its path. */
function sentUnder(sent, apiDomain) {
  const [url, base] = [new URL(sent.url), new URL(apiDomain)];
  assert.equal(url.origin, base.origin, `${apiDomain}: sent to ${sent.url}`);
  assert.ok(url.pathname.startsWith(base.pathname.replace(/\/$/, "") + "/"), `${apiDomain}: sent to ${sent.url}`);
}

test("http:// to a host that is not loopback is refused for a client with a token, allowed for one pointed at a proxy", async () => {
  const refused = (options) =>
    assert.throws(() => new Client(options), (e) => e instanceof SvcError && e.kind === "config" && !views(e).includes(TOKEN), options.apiDomain);
  for (const apiDomain of [
    "http://example.com",
    "HTTP://EXAMPLE.COM/api",
    "http://10.0.0.1:8787",
    "http://192.168.0.2",
    "http://127.0.0.1.evil.com",
    "http://localhost.evil.com",
    "http://0.0.0.0",
    "http://[::2]",
  ]) {
    refused({ accessToken: TOKEN, apiDomain });
    refused({ accessToken: () => TOKEN, apiDomain });
    const proxied = await firstRequest({ apiDomain, viaProxy: true });
    sentUnder(proxied, apiDomain);
    assert.equal(proxied.authorization, null, `${apiDomain}: a client with no token sends none`);
  }
  for (const apiDomain of ["http://127.0.0.1@evil.com", "http://evil.com#@127.0.0.1", "ws://127.0.0.1", "/api"]) {
    refused({ accessToken: TOKEN, apiDomain });
    refused({ apiDomain, viaProxy: true });
  }
  for (const apiDomain of ["http://127.0.0.1:1", "http://localhost:1/api", "http://[::1]:1", "http://app.localhost", "https://example.com"]) {
    const sent = await firstRequest({ accessToken: TOKEN, apiDomain });
    sentUnder(sent, apiDomain);
    assert.equal(sent.authorization, `Svc-oauthtoken ${TOKEN}`);
  }
});

test("a notification with a wrong token is a verification error that names neither token", () => {
  const body = (token) => JSON.stringify({ module: "Deals", operation: "update", channel_id: 1, token });
  assert.equal(parseWatchNotification(body(TOKEN), { token: TOKEN }).channel_id, "1");
  for (const wrong of [`x${TOKEN.slice(1)}`, `${TOKEN.slice(0, -1)}x`, TOKEN.slice(0, -1), `${TOKEN}x`, ""]) {
    assert.throws(
      () => parseWatchNotification(body(wrong), { token: TOKEN }),
      (e) => e instanceof SvcError && e.kind === "verification" && !views(e).includes(TOKEN) && (wrong === "" || !views(e).includes(wrong)),
    );
  }
});

