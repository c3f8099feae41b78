// Issue 28, items 1 to 3, through the installed package against the sandbox and loopback servers: an
// api error's code has a name (ErrorCode, from the Rust table) and its answer's headers (the token redacted), a failed
// call's stack shows the caller's frame and readable code, a list's promise is itself async-iterable
// and its page has hasNextPage()/getNextPage(), and a Client with no token must say that a proxy adds it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { Client, ErrorCode, SvcError, createProxy } from "svc-sdk";
import { startSandbox } from "./support/sandbox.mjs";

const TOKEN = "surface-tok-5e1f";
const ORG = "10234695";
let sandbox;
let client;
before(async () => {
  sandbox = await startSandbox(["--token", `${TOKEN}=*`, "--no-rate-limit"]);
  client = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: sandbox.url, maxRetries: 0 });
});
after(() => sandbox.close());

const svcError = (kind, check = () => {}) => (e) => {
  assert.ok(e instanceof SvcError, `not an SvcError: ${e && e.stack}`);
  assert.equal(e.kind, kind, e.message);
  assert.ok(!`${e.stack}${JSON.stringify(e)}`.includes(TOKEN), "the token shows");
  check(e);
  return true;
};

/** The frames of a stack that name `fn` in this file. */
const framesOf = (stack, fn) => stack.split("\n").filter((l) => l.includes(fn) && l.includes("surface.test.mjs"));

test("ErrorCode names the service's documented codes, frozen, and the sandbox answers a missing record with NOT_FOUND", async () => {
  assert.deepEqual({ ...ErrorCode }, { INTERNAL: 1000, NOT_FOUND: 1002, RECURRING_INVOICE_NAME_MISSING: 4031, NEGATIVE_AMOUNT: 20004, PROJECT_HAS_EXPENSES: 20077 });
  assert.ok(Object.isFrozen(ErrorCode));
  const e = await client.getAccount("1", undefined, { headers: { "x-request-id": "surface-404" } }).catch((e) => e);
  svcError("api", (e) => {
    assert.equal(e.status, 404);
    assert.equal(e.code, ErrorCode.NOT_FOUND);
    assert.equal(e.headers["x-request-id"], "surface-404");
    assert.match(e.headers["content-type"], /json/);
  })(e);
  // A server that echoes the token in a header of its error: the error's headers carry it redacted.
  const echo = http.createServer((req, res) => {
    res.writeHead(403, { "content-type": "application/json", "x-echo": `got ${req.headers.authorization}` });
    res.end(JSON.stringify({ code: 57, message: "not for you" }));
  });
  await new Promise((r) => echo.listen(0, "127.0.0.1", r));
  try {
    const c = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: `http://127.0.0.1:${echo.address().port}`, maxRetries: 0 });
    const refused = await c.getAccount("1").catch((e) => e);
    svcError("api", (e) => {
      assert.equal(e.code, 57);
      assert.equal(e.headers["x-echo"], "got Svc-oauthtoken [redacted]");
    })(refused);
  } finally {
    await new Promise((r) => echo.close(r));
  }
});

test("the error of a call carries the frame of the code that made the call: api, validation, network, a page after the first", async () => {
  async function findsNoAccount() {
    return client.getAccount("1");
  }
  const api = await findsNoAccount().catch((e) => e);
  svcError("api")(api);
  assert.ok(framesOf(api.stack, "findsNoAccount").length >= 1, api.stack);
  // The error's own first line stays first.
  assert.ok(api.stack.startsWith(`SvcError: ${api.message}`), api.stack);

  async function sendsBadParams() {
    return client.createAccount({ account_name: 7 });
  }
  const invalid = await sendsBadParams().catch((e) => e);
  svcError("validation")(invalid);
  assert.ok(framesOf(invalid.stack, "sendsBadParams").length >= 1, invalid.stack);

  const closed = http.createServer();
  await new Promise((r) => closed.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${closed.address().port}`;
  await new Promise((r) => closed.close(r));
  const gone = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: url, maxRetries: 0 });
  async function reachesNoOne() {
    return gone.listCurrencies();
  }
  const network = await reachesNoOne().catch((e) => e);
  svcError("network")(network);
  assert.ok(framesOf(network.stack, "reachesNoOne").length >= 1, network.stack);

  // A list whose second page is a 404: the loop's and getNextPage()'s callers show.
  const pager = http.createServer((req, res) => {
    const page = Number(new URL(req.url, "http://x").searchParams.get("page") ?? 1);
    const body = page === 1 ? { code: 0, currencies: [{ currency_id: "1" }], page_context: { page: 1, per_page: 1, has_more_page: true } } : { code: 1002, message: "gone" };
    res.writeHead(page === 1 ? 200 : 404, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  });
  await new Promise((r) => pager.listen(0, "127.0.0.1", r));
  try {
    const paging = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: `http://127.0.0.1:${pager.address().port}`, maxRetries: 0 });
    async function walksEveryPage() {
      for await (const c of paging.listCurrencies()) void c;
    }
    const walked = await walksEveryPage().catch((e) => e);
    svcError("api", (e) => assert.equal(e.code, ErrorCode.NOT_FOUND))(walked);
    assert.ok(framesOf(walked.stack, "walksEveryPage").length >= 1, walked.stack);
    async function asksTheSecondPage() {
      return (await paging.listCurrencies()).getNextPage();
    }
    const second = await asksTheSecondPage().catch((e) => e);
    svcError("api")(second);
    assert.ok(framesOf(second.stack, "asksTheSecondPage").length >= 1, second.stack);
  } finally {
    await new Promise((r) => pager.close(r));
  }
});

test("an uncaught api error prints the caller's frame and readable lines of the package's code", () => {
  const script = `import { Client } from "svc-sdk";
const client = new Client({ accessToken: ${JSON.stringify(TOKEN)}, organizationId: "${ORG}", apiDomain: "${sandbox.url}", maxRetries: 0 });
async function loadTheAccount() { await client.getAccount("1"); }
await loadTheAccount();
`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: process.cwd(), encoding: "utf8", timeout: 60_000 });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /SvcError: /, r.stderr);
  assert.match(r.stderr, /at loadTheAccount /, r.stderr);
  const longest = Math.max(...r.stderr.split("\n").map((l) => l.length));
  assert.ok(longest <= 200, `a line of ${longest} characters:\n${r.stderr}`);
  assert.ok(!r.stderr.includes(TOKEN));
});

test("the package's JS is readable: no line of an entry is longer than 240 characters (a message's text)", () => {
  const pkg = path.join(process.cwd(), "node_modules/svc-sdk/pkg");
  for (const file of ["node.js", "node.cjs", "web.js", "deno.js", "workerd.js", "validate/node.js"]) {
    const lines = readFileSync(path.join(pkg, file), "utf8").split("\n");
    const long = lines.filter((l) => l.length > 240);
    assert.ok(lines.length > 500 && long.length === 0, `${file}: ${long.length} of ${lines.length} lines longer than 240 characters`);
  }
});

/** Three fixed assets in the sandbox, so that a list of one per page has at least three pages. */
async function threeAssets() {
  const types = (await client.listFixedAssetTypes()).items;
  const t = types[0];
  for (const name of ["Desk", "Chair", "Lamp"]) {
    await client.createFixedAsset({ asset_name: name, fixed_asset_type_id: t.fixed_asset_type_id, asset_account_id: t.expense_account_id, asset_cost: 100, asset_purchase_date: "2024-12-17" });
  }
}

test("a list's promise is itself async-iterable over every item of every page", async () => {
  await threeAssets();
  const everyOne = (await client.listFixedAssets({ per_page: 200 })).items.map((a) => a.fixed_asset_id);
  const seen = [];
  for await (const a of client.listFixedAssets({ per_page: 1 })) seen.push(a.fixed_asset_id);
  assert.ok(seen.length >= 3);
  assert.deepEqual(seen, everyOne);
  // A failed first page ends the loop with its error.
  const bad = new Client({ accessToken: "not-the-token", organizationId: ORG, apiDomain: sandbox.url, maxRetries: 0 });
  await assert.rejects(async () => {
    for await (const a of bad.listFixedAssets()) assert.fail(`no item expected: ${a}`);
  }, svcError("unauthorized"));
});

test("a page says whether another follows (hasNextPage) and fetches it (getNextPage); past the last, a config error", async () => {
  await threeAssets();
  let page = await client.listFixedAssets({ per_page: 1 });
  assert.deepEqual(Object.keys(page).sort(), ["items", "page_context"], "the page's own members are the answer's");
  const numbers = [page.page_context.page];
  while (page.hasNextPage()) {
    page = await page.getNextPage();
    numbers.push(page.page_context.page);
    assert.equal(page.items.length, 1);
  }
  assert.ok(numbers.length >= 3);
  assert.deepEqual(numbers, numbers.map((_, i) => i + 1));
  assert.equal(page.page_context.has_more_page, false);
  await assert.rejects(page.getNextPage(), svcError("config", (e) => assert.match(e.message, /hasNextPage/)));
  // A page later than the first iterates from itself on.
  const second = await (await client.listFixedAssets({ per_page: 1 })).getNextPage();
  const rest = [];
  for await (const a of second) rest.push(a);
  assert.equal(rest.length, numbers.length - 1);
});

test("a Client with no accessToken is a config error unless viaProxy says that a proxy adds it", async () => {
  const tokenless = [
    { apiDomain: sandbox.url, organizationId: ORG },
    { apiDomain: sandbox.url, organizationId: ORG, accessToken: undefined },
    { apiDomain: sandbox.url, organizationId: ORG, viaProxy: false },
  ];
  for (const options of tokenless) {
    assert.throws(() => new Client(options), svcError("config", (e) => assert.match(e.message, /accessToken.*viaProxy: true/s)), JSON.stringify(options));
  }
  const mixed = [
    [{ apiDomain: sandbox.url, accessToken: TOKEN, viaProxy: true }, /viaProxy/],
    [{ region: "eu", viaProxy: true }, /apiDomain/],
    [{ apiDomain: sandbox.url, viaProxy: "yes" }, /viaProxy must be a boolean/],
  ];
  for (const [options, says] of mixed) {
    assert.throws(() => new Client(options), svcError("config", (e) => assert.match(e.message, says)), JSON.stringify(options));
  }
  // The client behind a proxy: the proxy adds the token and the organization.
  const proxy = createProxy({ accessToken: TOKEN, organizationId: ORG, apiDomain: sandbox.url, allow: ["listCurrencies"] });
  const browser = new Client({ apiDomain: "http://127.0.0.1/api", viaProxy: true, fetch: (url, init) => proxy(new Request(url, init)) });
  assert.ok(Array.isArray((await browser.listCurrencies()).items));
  assert.throws(() => createProxy({ apiDomain: sandbox.url, organizationId: ORG, allow: ["listCurrencies"], viaProxy: true }), svcError("config"));
});
