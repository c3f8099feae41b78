// Seeing what the client does (issues 17 and 28), through the installed package against the sandbox on
// loopback: the debug log record by record, the hooks per attempt with their redacted headers and the
// request id, withResponse(), per-call headers, the cause and headers of errors, SVC_LOG in a child
// process. The token appears in none of it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import http from "node:http";
import { inspect } from "node:util";
import { Client, SvcError } from "svc-sdk";
import { startSandbox } from "./support/sandbox.mjs";

const ORG = "10234695";
const TOKEN = "dev-token";
/** A token the sandboxes accept, distinctive enough to find anywhere it might leak. */
const SECRET = "tok28-Secret-9f3a";
let sandbox;
before(async () => {
  sandbox = await startSandbox(["--faults", "slow=1", "--slow-ms", "50", "--token", `${SECRET}=*`]);
});
after(() => sandbox?.close());

/** A logger that keeps every record, and its line with the level of the method it came to. */
function recorder() {
  const lines = [];
  const records = [];
  const at = (level) => (...args) => {
    assert.equal(args.length, 1, "one argument: the record");
    records.push(args[0]);
    lines.push([level, args[0].message]);
  };
  return { lines, records, logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") } };
}

const client = (options = {}) => new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: sandbox.url, ...options });

/** A loopback port with nothing listening. */
async function closedPort() {
  const s = http.createServer();
  await new Promise((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

test("logLevel debug: one line per attempt with operation, method, URL, status, duration and attempt; a wait for the limiter says why; never the token", async () => {
  const { lines, logger } = recorder();
  const c = client({ logLevel: "debug", logger, rateLimit: { maxConcurrent: 1 } });
  await Promise.all([c.createAccount({ account_name: "Log A", account_type: "cash" }), c.createAccount({ account_name: "Log B", account_type: "cash" })]);
  const url = `${sandbox.url}/books/v3/chartofaccounts?organization_id=${ORG}`;
  const escaped = url.replace(/[.?]/g, "\\$&");
  assert.equal(lines.length, 3, JSON.stringify(lines));
  assert.deepEqual(lines[0], ["info", `svc-sdk createAccount POST ${url} waits for the rate limiter: 1 of 1 calls in flight`]);
  for (const [level, line] of lines.slice(1)) {
    assert.equal(level, "debug");
    assert.match(line, new RegExp(`^svc-sdk createAccount POST ${escaped}: 201 in \\d+ ms \\(attempt 1\\)$`));
  }
  assert.ok(lines.every(([, l]) => !l.includes(TOKEN)));
});

test("a call that gets no answer: each attempt, the backoff before the next, and the failure, at their levels; the error keeps its cause", async () => {
  const { lines, logger } = recorder();
  const port = await closedPort();
  const c = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: `http://127.0.0.1:${port}`, logLevel: "debug", logger, maxRetries: 1 });
  const e = await c.getAccount("1").catch((e) => e);
  assert.ok(e instanceof SvcError && e.kind === "network", String(e));
  assert.equal(e.cause.code, "ECONNREFUSED");
  assert.equal(e.cause.host, `127.0.0.1:${port}`);
  assert.match(e.message, new RegExp(`^the request to 127\\.0\\.0\\.1:${port} failed: .*\\(ECONNREFUSED\\)$`));
  const call = `svc-sdk getAccount GET http://127.0.0.1:${port}/books/v3/chartofaccounts/1?organization_id=${ORG}`;
  assert.deepEqual(lines.map(([level]) => level), ["debug", "warn", "debug", "error"], JSON.stringify(lines));
  assert.ok(lines[0][1].startsWith(`${call}: no answer after `) && lines[0][1].includes("(attempt 1)"), lines[0][1]);
  assert.match(lines[1][1], /: attempt 2 in \d+ ms: the attempt got no answer; backing off$/);
  assert.ok(lines[2][1].includes("(attempt 2)"));
  assert.equal(lines[3][1], `${call} failed: ${e.message}`);

  const quiet = recorder();
  const warnOnly = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: `http://127.0.0.1:${port}`, logLevel: "warn", logger: quiet.logger, maxRetries: 1 });
  await warnOnly.getAccount("1").catch(() => {});
  assert.deepEqual(quiet.lines.map(([level]) => level), ["warn", "error"]);
});

test("onRequest and onResponse: once per attempt, a frozen view without the token; a hook that throws does not break the call", async () => {
  const seen = [];
  const c = client({
    onRequest: (info) => seen.push(["request", info]),
    onResponse: (info) => {
      seen.push(["response", info]);
      throw new Error("a broken hook");
    },
  });
  const account = await c.createAccount({ account_name: "Hooked", account_type: "cash" });
  assert.equal(typeof account.account_id, "string");
  assert.deepEqual(seen.map(([k]) => k), ["request", "response"]);
  const url = `${sandbox.url}/books/v3/chartofaccounts?organization_id=${ORG}`;
  const { headers: sent, ...request } = seen[0][1];
  assert.deepEqual(request, { operationId: "createAccount", method: "POST", url, attempt: 1 });
  assert.equal(sent.authorization, "[redacted]");
  const { durationMs, headers: answer, ...rest } = seen[1][1];
  assert.deepEqual(rest, { operationId: "createAccount", method: "POST", url, attempt: 1, status: 201 });
  assert.match(answer["content-type"], /json/);
  assert.ok(Object.isFrozen(sent) && Object.isFrozen(answer));
  assert.ok(Number.isInteger(durationMs) && durationMs >= 0);
  assert.ok(Object.isFrozen(seen[0][1]) && Object.isFrozen(seen[1][1]));
  assert.ok(!JSON.stringify(seen).includes(TOKEN));
});

test("withResponse(): the data and the answer's status, headers and URL; a per-call header reaches the sandbox, which echoes it", async () => {
  const c = client();
  const headers = { "X-Request-Id": "req-17-withresponse" };
  const { data, response } = await c.createAccount({ account_name: "With response", account_type: "cash" }, { headers }).withResponse();
  assert.equal(typeof data.account_id, "string");
  assert.equal(response.status, 201);
  assert.equal(response.url, `${sandbox.url}/books/v3/chartofaccounts?organization_id=${ORG}`);
  assert.equal(response.headers["x-request-id"], "req-17-withresponse");
  assert.match(response.headers["content-type"], /json/);
  assert.ok(!JSON.stringify(response).includes(TOKEN));

  const plain = await c.getAccount(data.account_id, undefined, { headers: { "x-request-id": "r2" } });
  assert.equal(plain.account_id, data.account_id, "awaited directly, the promise gives the data");
  const page = await c.listAccounts().withResponse();
  assert.ok(Array.isArray(page.data.items) && page.data.items.length > 0);
  assert.equal(page.response.status, 200);
  assert.equal(typeof page.data[Symbol.asyncIterator], "function", "the page still iterates");
  const raw = await c.request("GET", "books", "/chartofaccounts").withResponse();
  assert.equal(raw.response.status, 200);
});

test("per-call headers: Authorization and the organization headers are refused before anything is sent, as are malformed ones", async () => {
  const c = client();
  await sandbox.resetCounters();
  for (const headers of [{ Authorization: "Svc-oauthtoken other" }, { "x-com-svc-invoice-organizationid": "2" }, { "X-Bad Name": "1" }, { "X-A": "line\r\nbreak" }, { "X-A": 1 }, "x"]) {
    const e = await c.getAccount("1", undefined, { headers }).catch((e) => e);
    assert.ok(e instanceof SvcError && e.kind === "config", `${JSON.stringify(headers)}: ${e}`);
    assert.equal(e.operationId, "getAccount");
  }
  const counters = await sandbox.counters();
  assert.equal(counters.operations.getAccount, undefined, "nothing was sent");
});

test("api errors carry the answer's status and headers; a 401 says where and what to do", async () => {
  const e = await client().getAccount("1", undefined, { headers: { "x-request-id": "r404" } }).catch((e) => e);
  assert.equal(e.kind, "api");
  assert.equal(e.status, 404);
  assert.equal(e.headers["x-request-id"], "r404");
  assert.match(e.headers["content-type"], /json/);
  const u = await new Client({ accessToken: "not-a-token", organizationId: ORG, apiDomain: sandbox.url }).getAccount("1").catch((e) => e);
  assert.equal(u.kind, "unauthorized");
  assert.match(u.message, new RegExp(`^the service at 127\\.0\\.0\\.1:\\d+ answered 401 \\(.+\\): is the token expired or revoked, without the scope SvcBooks\\.accountants\\.READ that getAccount needs, or the organization in another region\\?`));
  assert.ok(!u.message.includes("not-a-token") && !JSON.stringify(u.headers).includes("not-a-token"));
});

test("logLevel and logger are checked; SVC_LOG sets the level where there is an environment", async () => {
  for (const options of [{ logLevel: "verbose" }, { logLevel: 3 }, { logger: "console" }, { onRequest: {} }, { onResponse: "x" }]) {
    assert.throws(() => client(options), (e) => e instanceof SvcError && e.kind === "config", JSON.stringify(options));
  }
  const script = `
    import { Client } from "svc-sdk";
    const c = new Client({ accessToken: ${JSON.stringify(TOKEN)}, organizationId: ${JSON.stringify(ORG)}, apiDomain: ${JSON.stringify(sandbox.url)} });
    await c.listAccounts();
  `;
  const run = (env) =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (out += d));
      child.on("exit", (code) => resolve({ code, out }));
    });
  const debug = await run({ SVC_LOG: "debug" });
  assert.equal(debug.code, 0, debug.out);
  assert.match(debug.out, /^svc-sdk listAccounts GET http:\/\/127\.0\.0\.1:\d+\/books\/v3\/chartofaccounts\?organization_id=10234695: 200 in \d+ ms \(attempt 1\)$/m);
  assert.ok(!debug.out.includes(TOKEN));
  const off = await run({ SVC_LOG: "" });
  assert.equal(off.out, "", "off by default");
});

test("a custom logger gets records: a 429 retried then given up, with its status, attempt numbers, waits, durations and request id", async () => {
  const storm = await startSandbox(["--faults", "429=1"]);
  try {
    const { records, logger } = recorder();
    const infos = [];
    const c = new Client({
      accessToken: TOKEN, organizationId: ORG, apiDomain: storm.url, logLevel: "debug", logger, maxRetries: 1, rateLimit: false,
      onRequest: (info) => infos.push(info), onResponse: (info) => infos.push(info),
    });
    const e = await c.getAccount("1", undefined, { headers: { "X-Request-Id": "req-28-storm" } }).catch((e) => e);
    assert.equal(e.kind, "rate_limited", String(e));
    const url = `${storm.url}/books/v3/chartofaccounts/1?organization_id=${ORG}`;
    const call = { operationId: "getAccount", method: "GET", url };
    assert.deepEqual(records.map((r) => [r.level, r.event, r.attempt, r.status, r.requestId]), [
      ["debug", "answered", 1, 429, "req-28-storm"],
      ["warn", "retrying", 1, 429, "req-28-storm"],
      ["debug", "answered", 2, 429, "req-28-storm"],
      ["error", "failed", 2, 429, "req-28-storm"],
    ]);
    for (const r of records) {
      assert.ok(Object.isFrozen(r));
      assert.deepEqual({ operationId: r.operationId, method: r.method, url: r.url }, call);
      assert.ok(r.message.startsWith(`svc-sdk getAccount GET ${url}`), r.message);
    }
    assert.ok(records[0].durationMs >= 0 && records[2].durationMs >= 0);
    assert.equal(records[1].waitMs, 1000, "the Retry-After: 1 of the answer");
    assert.ok(records[3].durationMs >= 1000, "the whole call's, the wait included");
    assert.equal(records[3].errorKind, "rate_limited");
    assert.equal(records[3].message, `svc-sdk getAccount GET ${url} failed: ${e.message}`);
    assert.ok(inspect(records[1]).includes(records[1].message), "a console-like logger prints the line among the fields");
    assert.deepEqual(infos.map((i) => [i.attempt, i.status, i.requestId]), [[1, undefined, undefined], [1, 429, "req-28-storm"], [2, undefined, undefined], [2, 429, "req-28-storm"]]);
    assert.equal(infos[0].headers["x-request-id"], "req-28-storm", "the request's headers, as sent");
    assert.equal(infos[1].headers["retry-after"], "1", "the answer's headers");
  } finally {
    await storm.close();
  }
});

test("a real token through a real call: not in a record, a hook's info (headers, request id), an error or an inspected view, even where the answer echoes it", async () => {
  const { records, logger } = recorder();
  const infos = [];
  const c = new Client({
    accessToken: SECRET, organizationId: ORG, apiDomain: sandbox.url, logLevel: "debug", logger,
    onRequest: (info) => infos.push(info), onResponse: (info) => infos.push(info),
  });
  const headers = { "X-Request-Id": `id-${SECRET}` };
  const account = await c.createAccount({ account_name: "Secret kept", account_type: "cash" }, { headers });
  assert.equal(typeof account.account_id, "string", "the token is one the sandbox accepts");
  const e = await c.getAccount("1", undefined, { headers }).catch((e) => e);
  assert.equal(e.kind, "api");
  assert.equal(e.status, 404);
  assert.deepEqual(infos.map((i) => i.requestId), [undefined, "id-[redacted]", undefined, "id-[redacted]"]);
  assert.equal(infos[0].headers.authorization, "[redacted]");
  assert.equal(infos[0].headers["x-request-id"], "id-[redacted]");
  assert.equal(infos[1].headers["x-request-id"], "id-[redacted]");
  assert.equal(records.at(-1).event, "failed");
  assert.equal(records.at(-1).requestId, "id-[redacted]");
  assert.ok(records.length >= 3);
  for (const view of [records, infos, e, e.headers, { message: e.message, stack: e.stack }]) {
    for (const text of [JSON.stringify(view), inspect(view, { depth: 9, showHidden: true })]) {
      assert.ok(!text.includes(SECRET), text);
    }
  }
});
