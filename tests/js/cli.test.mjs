// Issue 50: the bin `svc-sdk`, run as a user runs it from a project that installed the packed tarball
// (node_modules/.bin/svc-sdk, and once through npx), against `svc-sdk sandbox` started here (the
// package's own wasm over node:http), loopback servers that answer as the service or a receiver would,
// and a hostile accounts server that echoes every secret and refuses the code.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:http";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseEvent, parseWatchNotification } from "svc-sdk";

const consumer = process.env.SVC_CONSUMER;
const BIN = path.join(consumer, "node_modules/.bin/svc-sdk");
const CLIENT_ID = "1000.SANDBOXDEMOCLIENT";
const SECRET = "sandbox-demo-client-secret";
/** A working directory without a .env file, and an environment without the caller's SVC_* variables. */
const cwd = mkdtempSync(path.join(tmpdir(), "svc-cli-"));
const BASE = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1" };

/** Runs the bin to its end: `{ code, stdout, stderr }`. */
function run(args, { env = {}, input, dir = cwd, command = BIN, onStderr } = {}) {
  const all = Object.fromEntries(Object.entries({ ...BASE, ...env }).filter(([, v]) => v !== undefined));
  const child = spawn(command, args, { cwd: dir, env: all, stdio: ["pipe", "pipe", "pipe"] });
  const got = { stdout: "", stderr: "" };
  child.stdout.on("data", (d) => (got.stdout += d));
  child.stderr.on("data", (d) => {
    got.stderr += d;
    onStderr?.(got.stderr, child);
  });
  child.stdin.end(input ?? "");
  return new Promise((resolve) => child.on("close", (code, signal) => resolve({ ...got, code, signal, child })));
}

/** `svc-sdk sandbox --port 0 ...` as a child process, its URL from its first line. */
async function cliSandbox(...flags) {
  const child = spawn(BIN, ["sandbox", "--port", "0", "--exit-on-stdin-eof", "--quiet", ...flags], { cwd, env: BASE, stdio: ["pipe", "pipe", "inherit"] });
  let text = "";
  for await (const chunk of child.stdout) {
    text += chunk;
    if (text.includes("\n")) break;
  }
  const url = text.match(/^sandbox listening on (http:\/\/127\.0\.0\.1:\d+)\n/)?.[1];
  assert.ok(url, `the sandbox's first line: ${text}`);
  return { url, stop: () => child.stdin.end() };
}

/** A loopback server answering with `answer(req, body, res)`; its URL and what it received. */
async function serve(answer) {
  const received = [];
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    received.push({ method: req.method, url: req.url, body });
    answer(req, body, res);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `http://127.0.0.1:${server.address().port}`, received, close: () => (server.closeAllConnections(), server.close()) };
}

let sb;
let quota;
before(async () => {
  sb = await cliSandbox("--oauth-device-interval-ms", "100");
  quota = await cliSandbox("--daily-quota", "50", "--others-spent", "3");
});
after(() => {
  sb.stop();
  quota.stop();
  rmSync(cwd, { recursive: true, force: true });
});
const token = (url = sb.url) => ({ SVC_TOKEN: "dev-token", SVC_API_DOMAIN: url, SVC_ORGANIZATION_ID: "10234695" });

test("--help on every command, with an example; unknown commands and flags are usage errors (2)", async () => {
  const all = await run(["--help"]);
  assert.equal(all.code, 0);
  for (const name of ["login", "token", "call", "ops", "sandbox", "notify", "quota"]) {
    assert.match(all.stdout, new RegExp(`^  ${name}`, "m"));
    const one = await run([name, "--help"]);
    assert.equal(one.code, 0, name);
    assert.match(one.stdout, new RegExp(`Usage: svc-sdk ${name}`));
    assert.match(one.stdout, new RegExp(`Example:\\n  npx svc-sdk ${name}`));
  }
  const unknown = await run(["frobnicate"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /"frobnicate" is not a command/);
  const flag = await run(["ops", "--nope"]);
  assert.equal(flag.code, 2);
  assert.match(flag.stderr, /--nope/);
});

test("ops, through npx: the operations as JSON when piped, filtered", async () => {
  const { code, stdout } = await run(["--no", "svc-sdk", "ops", "contactperson"], { command: "npx", dir: consumer });
  assert.equal(code, 0);
  const ops = JSON.parse(stdout);
  assert.ok(ops.length > 0 && ops.every((o) => /contactperson/i.test(o.id + o.path + o.scope)));
  assert.deepEqual(Object.keys(ops[0]), ["id", "method", "path", "scope"]);
});

test("call: created, then read back by its path param, as JSON on stdout", async () => {
  const made = await run(["call", "createContact", "--data", '{"contact_name":"Acme CLI"}'], { env: token() });
  assert.equal(made.code, 0, made.stderr);
  const contact = JSON.parse(made.stdout);
  assert.equal(contact.contact_name, "Acme CLI");
  const read = await run(["call", "getContact", contact.contact_id, "--data", "-"], { env: token(), input: "{}" });
  assert.equal(read.code, 0, read.stderr);
  assert.equal(JSON.parse(read.stdout).contact_id, contact.contact_id);
  const file = path.join(cwd, "params.json");
  writeFileSync(file, '{"contact_name":"From a file"}');
  const fromFile = await run(["call", "createContact", "--data", `@${file}`], { env: token() });
  assert.equal(JSON.parse(fromFile.stdout).contact_name, "From a file");
});

test("on a terminal: indented JSON, in colour unless NO_COLOR (through script(1), a pseudo-terminal)", { skip: !existsSync("/usr/bin/script") && "no script(1)" }, async () => {
  const file = path.join(cwd, "tty.json");
  writeFileSync(file, '{"contact_name":"On a terminal"}');
  const line = `${BIN} call createContact --data @${file}`;
  const coloured = await run(["-qec", line, "/dev/null"], { command: "script", env: { ...token(), NO_COLOR: undefined, TERM: "xterm" } });
  assert.equal(coloured.code, 0, coloured.stdout);
  assert.match(coloured.stdout, /^\{\r?\n {2}\x1b\[36m"contact_id"\x1b\[0m: \x1b\[32m"\d+"\x1b\[0m,/);
  assert.ok(coloured.stdout.includes('\x1b[36m"contact_name"\x1b[0m: \x1b[32m"On a terminal"\x1b[0m'));
  const plain = await run(["-qec", line, "/dev/null"], { command: "script", env: token() });
  assert.equal(plain.code, 0, plain.stdout);
  assert.match(plain.stdout, /^\{\r?\n {2}"contact_id": "\d+",\r?\n {2}"contact_name": "On a terminal",/);
  assert.ok(!plain.stdout.includes("\x1b"));
});

test("call --all: every page, its progress on stderr", async () => {
  for (let i = 0; i < 5; i++) await run(["call", "createContact", "--data", `{"contact_name":"Paged ${i}"}`], { env: token() });
  const { code, stdout, stderr } = await run(["call", "listContacts", "--all", "--data", '{"per_page":2}'], { env: token() });
  assert.equal(code, 0, stderr);
  const items = JSON.parse(stdout);
  assert.ok(items.length >= 5);
  assert.match(stderr, /^page 1: 2 items$/m);
  assert.match(stderr, new RegExp(`^${items.length} items$`, "m"));
});

test("call --dry-run: the validated request, without a credential or its token, nothing sent", async () => {
  const { code, stdout } = await run(["call", "getContact", "12345678901234567891", "--dry-run", "--org", "7"]);
  assert.equal(code, 0);
  const request = JSON.parse(stdout);
  assert.equal(request.method, "GET");
  assert.equal(request.url, "https://www.svcapis.com/books/v3/contacts/12345678901234567891?organization_id=7");
  assert.ok(!JSON.stringify(request).includes("dry-run-sends-nothing"));
});

test("exact numbers: every id and number on stdout byte for byte as the service sent it", async () => {
  const ODD = '{"code":0,"message":"ok","fixed_asset":{"fixed_asset_id":12345678901234567891,"asset_name":"Laptop","asset_cost":9007199254740993,' +
    '"salvage_value":1000.00000000000000000000000001,"total_life":1e400,"tiny":1e-400,"meta":{"refs":[3.14159265358979323846264338327950288,2]}}}';
  const service = await serve((req, body, res) => res.writeHead(200, { "content-type": "application/json" }).end(ODD));
  try {
    const { code, stdout, stderr } = await run(["call", "getFixedAsset", "12345678901234567891"], { env: token(service.url) });
    assert.equal(code, 0, stderr);
    for (const kept of ['"fixed_asset_id":12345678901234567891', '"asset_cost":9007199254740993', '"salvage_value":1000.00000000000000000000000001',
      '"total_life":1e400', '"tiny":1e-400', '"refs":[3.14159265358979323846264338327950288,2]']) {
      assert.ok(stdout.includes(kept), `${kept} in ${stdout}`);
    }
    assert.match(service.received[0].url, /\/fixedassets\/12345678901234567891\?/);
  } finally {
    service.close();
  }
});

test("exact numbers in every spelling: piped, on a terminal and with --all, each number's and id's bytes as the service sent them", async () => {
  // The answer's values, spelled as a double would not keep them: JSON.stringify would print 1.5, 100, 0, 12345678901234567000.
  const VALUES = '{"fixed_asset_id":98765432109876543210,"asset_name":"Lathe","rate":1.50,"count":1e2,"zero":-0.0,' +
    '"big":12345678901234567891,"cost":"1.50","owner_id":"4150868000000123456"}';
  const ITEM = (n) => `{"contact_id":${n}98765432109876543210,"rate":1.50,"count":1e2,"zero":-0.0,"cost":"0.10"}`;
  const service = await serve((req, body, res) => {
    const url = new URL(req.url, "http://x");
    res.writeHead(200, { "content-type": "application/json" });
    if (url.pathname.endsWith("/fixedassets/98765432109876543210")) return res.end(`{"code":0,"message":"ok",\n  "fixed_asset": ${VALUES}}`);
    const page = Number(url.searchParams.get("page") ?? 1);
    res.end(`{"code":0,"message":"ok","contacts":[${ITEM(page)}, ${ITEM(page + 10)}],"page_context":{"page":${page},"per_page":2,"has_more_page":${page < 2}}}`);
  });
  try {
    const piped = await run(["call", "getFixedAsset", "98765432109876543210"], { env: token(service.url) });
    assert.equal(piped.code, 0, piped.stderr);
    assert.equal(piped.stdout, `${VALUES}\n`);
    const json = await run(["call", "getFixedAsset", "98765432109876543210", "--json"], { env: token(service.url) });
    assert.equal(json.stdout, `${VALUES}\n`);
    const all = await run(["call", "listContacts", "--all"], { env: token(service.url) });
    assert.equal(all.code, 0, all.stderr);
    assert.equal(all.stdout, `[${[ITEM(1), ITEM(11), ITEM(2), ITEM(12)].join(",")}]\n`);
    assert.match(all.stderr, /^page 1: 2 items$/m);
    assert.match(all.stderr, /^4 items$/m);
    const one = await run(["call", "listContacts"], { env: token(service.url) });
    assert.equal(one.stdout, `{"items":[${ITEM(1)},${ITEM(11)}],"page_context":{"page":1,"per_page":2,"has_more_page":true}}\n`);
    if (existsSync("/usr/bin/script")) {
      const line = `${BIN} call getFixedAsset 98765432109876543210`;
      const tty = await run(["-qec", line, "/dev/null"], { command: "script", env: { ...token(service.url), NO_COLOR: undefined, TERM: "xterm" } });
      assert.equal(tty.code, 0, tty.stdout);
      for (const [k, v] of [["fixed_asset_id", "98765432109876543210"], ["rate", "1.50"], ["count", "1e2"], ["zero", "-0.0"], ["big", "12345678901234567891"]]) {
        assert.ok(tty.stdout.includes(`\x1b[36m"${k}"\x1b[0m: \x1b[33m${v}\x1b[0m`), `${k}: ${v} in ${tty.stdout}`);
      }
      assert.ok(tty.stdout.includes('\x1b[36m"cost"\x1b[0m: \x1b[32m"1.50"\x1b[0m'));
      const plain = await run(["-qec", line, "/dev/null"], { command: "script", env: token(service.url) });
      assert.match(plain.stdout, /^\{\r?\n {2}"fixed_asset_id": 98765432109876543210,\r?\n {2}"asset_name": "Lathe",\r?\n {2}"rate": 1.50,\r?\n {2}"count": 1e2,\r?\n {2}"zero": -0.0,\r?\n {2}"big": 12345678901234567891,\r?\n {2}"cost": "1.50",/);
    }
  } finally {
    service.close();
  }
});

test("a file (a binary answer) goes to stdout as it came", async () => {
  const bytes = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x0a, 0x80]);
  const service = await serve((req, body, res) => res.writeHead(200, { "content-type": "application/pdf" }).end(bytes));
  try {
    const child = spawn(BIN, ["call", "getExpenseReceipt", "982000000030049"], { cwd, env: { ...BASE, ...token(service.url) } });
    const chunks = [];
    child.stdout.on("data", (d) => chunks.push(d));
    const [code] = await once(child, "close");
    assert.equal(code, 0);
    assert.deepEqual(Buffer.concat(chunks), bytes);
  } finally {
    service.close();
  }
});

test("exit statuses by kind: config 2, validation 3 (issues on stderr), api 4, unauthorized 5, rate_limited 6, network 7", async () => {
  const none = await run(["call", "listContacts"]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /config error: no credentials: set SVC_TOKEN/);
  const invalid = await run(["call", "createContact", "--data", '{"contact_name":""}'], { env: token() });
  assert.equal(invalid.code, 3);
  assert.equal(invalid.stdout, "");
  assert.match(invalid.stderr, /^svc-sdk: validation error: /);
  assert.match(invalid.stderr, /^ {2}- contact_name is required$/m);
  const missing = await run(["call", "getContact", "999"], { env: token() });
  assert.equal(missing.code, 4, missing.stderr);
  assert.match(missing.stderr, /api error/);
  const refused = await run(["call", "listContacts"], { env: { ...token(), SVC_TOKEN: "not-a-token" } });
  assert.equal(refused.code, 5, refused.stderr);
  assert.ok(!refused.stderr.includes("not-a-token"), "the token is never printed");
  const spent = await cliSandbox("--daily-quota", "0");
  try {
    const limited = await run(["call", "listContacts"], { env: token(spent.url) });
    assert.equal(limited.code, 6, limited.stderr);
  } finally {
    spent.stop();
  }
  const closed = await serve(() => {});
  closed.close();
  const down = await run(["call", "listContacts"], { env: token(closed.url) });
  assert.equal(down.code, 7, down.stderr);
  const args = await run(["call", "getContact"], { env: token() });
  assert.equal(args.code, 2);
  assert.match(args.stderr, /getContact takes 1 path parameter/);
});

test("credentials from a .env file in the working directory; the environment wins over it", async () => {
  const dir = path.join(cwd, "with-env");
  mkdirSync(dir);
  writeFileSync(path.join(dir, ".env"), `SVC_TOKEN=dev-token\nSVC_API_DOMAIN=${sb.url}\nSVC_ORGANIZATION_ID=10234695\n`);
  assert.equal((await run(["call", "listContacts"], { dir })).code, 0);
  const overridden = await run(["call", "listContacts"], { dir, env: { SVC_TOKEN: "revoked-token" } });
  assert.equal(overridden.code, 5);
  // A Node before 20.12 has no process.loadEnvFile: the core reads the file, and the environment still wins.
  const older = { NODE_OPTIONS: "--import=data:text/javascript,delete%20process.loadEnvFile" };
  assert.equal((await run(["call", "listContacts"], { dir, env: older })).code, 0);
  assert.equal((await run(["call", "listContacts"], { dir, env: { ...older, SVC_TOKEN: "revoked-token" } })).code, 5);
});

test("Ctrl-C ends a call through its signal: aborted, nothing on stdout", async () => {
  const held = await serve(() => {});
  try {
    const { code, stdout, stderr } = await interrupt(held);
    assert.equal(code, 130, stderr);
    assert.equal(stdout, "");
    assert.match(stderr, /aborted/);
  } finally {
    held.close();
  }
});

/** A call held by a server that never answers, interrupted once the server has it. */
async function interrupt(held) {
  const child = spawn(BIN, ["call", "listContacts"], { cwd, env: { ...BASE, ...token(held.url) } });
  const got = { stdout: "", stderr: "" };
  child.stdout.on("data", (d) => (got.stdout += d));
  child.stderr.on("data", (d) => (got.stderr += d));
  while (held.received.length === 0) await new Promise((r) => setTimeout(r, 20));
  child.kill("SIGINT");
  const [code] = await once(child, "close");
  return { ...got, code };
}

test("quota: the day's figures as the service states them", async () => {
  const { code, stdout, stderr } = await run(["quota"], { env: token(quota.url) });
  assert.equal(code, 0, stderr);
  const figures = JSON.parse(stdout);
  assert.equal(figures.dailyQuota, 50);
  assert.equal(figures.remainingToday, 46);
  assert.equal(typeof figures.resetAt, "number");
  const busy = await run(["call", "listContacts"], { env: token(quota.url) });
  assert.equal(busy.code, 0);
  assert.equal(JSON.parse((await run(["quota", "--json"], { env: token(quota.url) })).stdout).remainingToday, 44, "the organization's day, every call counted");
  const none = await run(["quota"], { env: { ...token(quota.url), SVC_ORGANIZATION_ID: undefined } });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /quota needs the organization/);
});

test("notify: a CRM notification and a billing event that the receivers verify", async () => {
  const receiver = await serve((req, body, res) => {
    try {
      if (req.url.startsWith("/crm")) parseWatchNotification(body, { token: "chan-secret-1" });
      else parseEvent(body, { token: "hook-secret", url: `http://127.0.0.1${req.url}` });
      res.writeHead(200).end();
    } catch (e) {
      res.writeHead(e.kind === "verification" ? 401 : 400).end(e.message);
    }
  });
  try {
    const crm = await run(["notify", `${receiver.url}/crm?tenant=acme`, "--event", "Deals.create", "--token", "chan-secret-1", "--id", "4150868000009"]);
    assert.equal(crm.code, 0, crm.stderr);
    const posted = parseWatchNotification(receiver.received[0].body, { token: "chan-secret-1" });
    assert.deepEqual([posted.module, posted.operation, posted.ids], ["Deals", "create", ["4150868000009"]]);
    const event = await run(["notify", `${receiver.url}/hooks`, "--event", "invoice_created", "--token", "hook-secret"]);
    assert.equal(event.code, 0, event.stderr);
    assert.equal(JSON.parse(event.stdout).event_type, "invoice_created");
    assert.ok(!event.stderr.includes("hook-secret"));
    const wrong = await run(["notify", `${receiver.url}/crm`, "--token", "not-the-channels"]);
    assert.equal(wrong.code, 4);
    assert.match(wrong.stderr, /HTTP 401/);
    const unknown = await run(["notify", receiver.url, "--event", "nothing"]);
    assert.equal(unknown.code, 2);
  } finally {
    receiver.close();
  }
});

const accounts = (url) => ({ SVC_CLIENT_ID: CLIENT_ID, SVC_CLIENT_SECRET: SECRET, SVC_ACCOUNTS_URL: url });

test("login: the device flow approved on the sandbox's device page, then the refresh token line that calls", async () => {
  let approving;
  const login = await run(["login", "--operations", "listContacts,listOrganizations"], {
    env: accounts(sb.url),
    onStderr(text) {
      const code = text.match(/enter the code (\S+)/)?.[1];
      if (code && !approving) {
        const form = new URLSearchParams({ user_code: code, user: "john.david@example.com", decision: "approve" });
        approving = fetch(`${sb.url}/oauth/v3/device`, { method: "POST", body: form });
      }
    },
  });
  assert.equal(login.code, 0, login.stderr);
  assert.equal((await approving).status, 200);
  assert.match(login.stderr, new RegExp(`Open ${sb.url}/oauth/v3/device and enter the code`));
  assert.match(login.stderr, new RegExp(`its API domain: ${sb.url} \\(SVC_API_DOMAIN\\)`));
  const refresh = login.stdout.match(/^SVC_REFRESH_TOKEN=(\S+)\n$/)?.[1];
  assert.ok(refresh, login.stdout);
  assert.ok(!login.stderr.includes(refresh) && !login.stderr.includes(SECRET));
  const called = await run(["call", "listContacts"], {
    env: { ...accounts(sb.url), SVC_REFRESH_TOKEN: refresh, SVC_API_DOMAIN: sb.url, SVC_ORGANIZATION_ID: "10234695" },
  });
  assert.equal(called.code, 0, called.stderr);
});

test("token: a grant code exchanged once; the same code again is refused (5) without being printed", async () => {
  const redirect = "http://127.0.0.1:9/cb";
  const form = new URLSearchParams({ response_type: "code", client_id: CLIENT_ID, scope: "SvcBooks.fullaccess.all", redirect_uri: redirect,
    access_type: "offline", prompt: "consent", state: "s", user: "john.david@example.com", decision: "approve" });
  const consent = await fetch(`${sb.url}/oauth/v2/auth`, { method: "POST", body: form, redirect: "manual" });
  const code = new URL(consent.headers.get("location")).searchParams.get("code");
  assert.ok(code);
  const first = await run(["token", code, "--redirect-uri", redirect], { env: accounts(sb.url) });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /^SVC_REFRESH_TOKEN=1000\.\S+\n$/);
  const again = await run(["token", code, "--redirect-uri", redirect, "--json"], { env: accounts(sb.url) });
  assert.equal(again.code, 5);
  assert.equal(again.stdout, "");
  assert.match(again.stderr, /invalid_code/);
  assert.ok(!again.stderr.includes(code) && !again.stderr.includes(SECRET));
  const noCode = await run(["token"], { env: accounts(sb.url) });
  assert.equal(noCode.code, 2);
  const region = await run(["token", code, "--region", "mars"], { env: accounts(sb.url) });
  assert.equal(region.code, 2);
  assert.match(region.stderr, /--region \(or SVC_REGION\) "mars" is not a region \(us, eu/);
  const anonymous = await run(["token", code]);
  assert.equal(anonymous.code, 2);
  assert.match(anonymous.stderr, /set SVC_CLIENT_ID and SVC_CLIENT_SECRET/);
});

test("a hostile accounts server echoing the secret and the code, refusing them: neither is ever printed", async () => {
  const code = "1000.grant-code-of-the-user";
  const echo = (body) => `${body} ${encodeURIComponent(body)} ${Buffer.from(body).toString("base64")}`;
  const hostile = await serve((req, body, res) => {
    const n = hostile.received.length;
    if (n % 3 === 1) res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ error: "invalid_code", error_description: echo(body), secret: SECRET, code }));
    else if (n % 3 === 2) res.writeHead(500).end(echo(body));
    else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ error: `${SECRET} ${code}` }));
  });
  try {
    for (const args of [["token", code], ["token", code], ["token", code], ["login"], ["login"], ["login"]]) {
      const { code: status, stdout, stderr } = await run(args, { env: accounts(hostile.url) });
      assert.notEqual(status, 0);
      assert.equal(stdout, "");
      for (const secret of [SECRET, code, encodeURIComponent(SECRET), Buffer.from(SECRET).toString("base64")]) {
        assert.ok(!stderr.includes(secret), `${args[0]}: ${stderr}`);
      }
    }
    assert.ok(hostile.received.some((r) => r.body.includes(SECRET)), "the secret went to the server it was given for");
  } finally {
    hostile.close();
  }
});

test("sandbox: its flags are the binary's, refused as the binary refuses them", async () => {
  const bad = await run(["sandbox", "--plan", "galactic"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--plan/);
  const org = await cliSandbox("--org", "555");
  try {
    const answer = await fetch(`${org.url}/books/v3/contacts?organization_id=555`, { headers: { authorization: "Svc-oauthtoken dev-token" } });
    assert.equal(answer.status, 200);
  } finally {
    org.stop();
  }
});
