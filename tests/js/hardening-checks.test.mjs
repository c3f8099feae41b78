// Issue 36: list members checked to the item, per-call headers that fetch would refuse or drop
// refused before anything is sent, and messages that say what happened (tokens too short or too
// long, a page_context in an array, the last page, a `+` in a webhook URL, the stack's first frame).
// Issue 46, item 2: params are read once, so a getter or a Proxy cannot send what was not checked;
// item 3: a param naming the organization where the query carries the client's is not_allowed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Client, parseEvent, schemaFor, validate } from "svc-sdk";
import { ORG, TOKEN, rejection, setUp, stillWorks, svcError, thrown } from "./support/hardening.mjs";

const env = setUp();
const client = (extra = {}) => new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.server.url, maxRetries: 0, ...extra });
const listed = (items, context) => ({ status: 200, body: { code: 0, message: "success", chartofaccounts: items, ...(context && { page_context: context }) } });

test("a list member that is not an object is a decode error naming its index, for the page and the iteration", async () => {
  env.server.reset();
  const c = client();
  for (const [items, at, got] of [[[null, 42, "x", [1]], 0, "null"], [[{ account_id: "1" }, 42], 1, "a number"], [[{}, {}, "x"], 2, "a string"], [[{}, [1]], 1, "an array"]]) {
    const message = `the response's \`chartofaccounts[${at}]\` is ${got}, where each member of \`chartofaccounts\` (an array) must be an object`;
    env.server.reply(listed(items));
    const e = await rejection(c.listAccounts(), svcError("decode"));
    assert.equal(e.message, message);
    assert.equal(e.operationId, "listAccounts");
    env.server.reply(listed(items));
    const yielded = [];
    const iterated = await rejection((async () => { for await (const a of c.listAccounts()) yielded.push(a); })(), svcError("decode"));
    assert.equal(iterated.message, message);
    assert.deepEqual(yielded, [], "no member was yielded as an account");
  }
  env.server.reply(listed([{ account_id: "1" }]));
  assert.deepEqual((await c.listAccounts()).items, [{ account_id: "1" }]);
  await stillWorks(env);
});

test("per-call headers that fetch refuses or drops are a config error naming the header, and nothing is sent", async () => {
  env.server.reset();
  const c = client({ maxRetries: 3 });
  const forbidden = [
    "transfer-encoding", "Upgrade", "expect", "content-length", "Host", "connection", "keep-alive", "te", "trailer",
    "cookie", "cookie2", "set-cookie", "origin", "referer", "date", "dnt", "via", "accept-charset", "accept-encoding",
    "access-control-request-headers", "access-control-request-method", "proxy-authorization", "Sec-Fetch-Mode",
  ];
  for (const name of forbidden) {
    const e = await rejection(c.listAccounts({}, { headers: { [name]: "1" } }), svcError("config"));
    assert.match(e.message, new RegExp(`^headers: "${name}" is a header that fetch does not let a program set`), name);
    assert.match(e.message, /forbidden request header/);
  }
  await rejection(c.listAccounts({}, { headers: { "X-HTTP-Method-Override": "TRACE" } }), svcError("config"));
  for (const [name, value, why] of [["X-Bad Name", "1", "is not a header name"], ["X-Ä", "1", "is not a header name"], ["X-A", "a\r\nb: 1", "printable ASCII"], ["X-A", "é", "printable ASCII"]]) {
    const e = await rejection(c.listAccounts({}, { headers: { [name]: value } }), svcError("config"));
    assert.ok(e.message.includes(why), e.message);
  }
  assert.equal(env.server.requests.length, 0, "nothing was sent");
  env.server.reply(listed([]));
  await c.listAccounts({}, { headers: { "X-Request-Id": "r-1", "X-HTTP-Method-Override": "PATCH" } });
  assert.equal(env.server.requests[0].headers["x-request-id"], "r-1");
  await stillWorks(env);
});

test("a token too short or too long is refused in words of its length, and no message is redacted letter by letter", async () => {
  env.server.reset();
  const short = thrown(() => client({ accessToken: "t" }), svcError("config", "[redacted]"));
  assert.equal(short.message, "the access token is 1 character long, too short to be a token the service issued (one has at least 8): is it a placeholder?");
  const fromFunction = await rejection(client({ accessToken: () => "t" }).listAccounts(), svcError("config", "[redacted]"));
  assert.equal(fromFunction.message, short.message);
  const long = "x".repeat(20_000);
  const tooLong = thrown(() => client({ accessToken: long }), svcError("config", long));
  assert.equal(tooLong.message, "the access token is 20000 characters long, more than the 16384 a request header can carry to the service");
  for (const token of [() => long, async () => ({ token: long })]) {
    const e = await rejection(client({ accessToken: token }).listAccounts(), svcError("config", long));
    assert.equal(e.message, "the access token the accessToken function returned is 20000 characters long, more than the 16384 a request header can carry to the service");
  }
  assert.equal(env.server.requests.length, 0, "nothing was sent");
  env.server.reply(listed([]));
  await client({ accessToken: "x".repeat(8_000) }).listAccounts();
  await stillWorks(env);
});

test("a page_context that is an array is said to be an array", async () => {
  env.server.reset();
  for (const context of [[1], [null], [], [{}, {}]]) {
    env.server.reply(listed([], context));
    const e = await rejection(client().listAccounts(), svcError("decode"));
    assert.equal(e.message, "the response's `page_context` is an array, not an object");
  }
  env.server.reply(listed([], [{ page: 1, has_more_page: false }]));
  assert.deepEqual((await client().listAccounts()).page_context, { page: 1, has_more_page: false });
  await stillWorks(env);
});

test("a BigInt page is the number it is: sent, paged on, and out of range said as a number", async () => {
  env.server.reset();
  const c = client();
  env.server.reply(listed([{ account_id: "1" }], { page: 5, has_more_page: true }), listed([], { page: 6, has_more_page: false }));
  const page = await c.listAccounts({ page: 5n });
  assert.equal(new URL(env.server.requests[0].url, "http://x").searchParams.get("page"), "5");
  assert.equal(page.hasNextPage(), true);
  await page.getNextPage();
  assert.equal(new URL(env.server.requests[1].url, "http://x").searchParams.get("page"), "6");
  const e = await rejection(c.listAccounts({ page: 2n ** 40n }), svcError("validation"));
  assert.equal(e.issues[0].code, "out_of_range");
  assert.doesNotMatch(e.message, /got string/);
  assert.equal(env.server.requests.length, 2);
  await stillWorks(env);
});

test("past the last page a call can ask for, no next page is offered: a decode error saying why", async () => {
  env.server.reset();
  const last = 2 ** 32 - 1;
  env.server.reply(listed([{ account_id: "1" }], { page: last, has_more_page: true }));
  const page = await client().listAccounts({ page: last });
  const why = `the service says more pages follow page ${last}, the last page a call can ask for (page is at most ${last}), so the iteration ends here`;
  assert.equal(thrown(() => page.hasNextPage(), svcError("decode")).message, why);
  assert.equal((await rejection(page.getNextPage(), svcError("decode"))).message, why);
  assert.equal(env.server.requests.length, 1, "page 2^32 was never asked for");
  await stillWorks(env);
});

test("a + in a webhook URL's token is a +: the query is percent-decoded, not form-decoded", async () => {
  const token = "a+b/c+d==";
  // Verified: the body is read, and "{}" is no event.
  for (const url of ["https://h/e?token=a+b/c+d==", "https://h/e?token=a%2Bb%2Fc%2Bd%3D%3D", new URL("https://h/e?token=a+b/c+d==")]) {
    thrown(() => parseEvent("{}", { token, url }), svcError("decode", token));
  }
  for (const url of ["https://h/e?token=a b/c d==", "https://h/e?token=a%20b/c%20d=="]) {
    thrown(() => parseEvent("{}", { token, url }), svcError("verification", token));
  }
  thrown(() => parseEvent("{}", { token: "hook s3cret", url: "https://h/e?token=hook+s3cret" }), svcError("verification", "s3cret"));
  thrown(() => parseEvent("{}", { token: "hook s3cret", url: "https://h/e?token=hook%20s3cret" }), svcError("decode", "s3cret"));
  await stillWorks(env);
});

test("an error's stack opens with the SDK's public method, then the caller's frames: no glue", async () => {
  env.server.reset();
  const glue = /__wbg_|wasm-function|__settle|viaCore|\binvoke\b|guarded|inCore/;
  async function sendsBadParams() {
    return client().listAccounts({ page: 0 });
  }
  async function getsAnApiError() {
    env.server.reply({ status: 404, body: { code: 1002, message: "gone" } });
    return client().getAccount("1");
  }
  async function asksTheNextPage() {
    env.server.reply(listed([{ account_id: "1" }], { page: 1, has_more_page: true }), { status: 404, body: { code: 1002, message: "gone" } });
    return (await client().listAccounts()).getNextPage();
  }
  for (const [fn, method] of [[sendsBadParams, "listAccounts"], [getsAnApiError, "getAccount"], [asksTheNextPage, undefined]]) {
    const e = await rejection(fn(), svcError());
    const [heading, first, ...rest] = e.stack.split("\n");
    assert.equal(heading, `SvcError: ${e.message.split("\n")[0]}`);
    assert.ok(!glue.test(e.stack), e.stack);
    assert.ok(first.includes(method ?? "svc-sdk"), `the SDK's public method opens the stack: ${e.stack}`);
    assert.ok(rest.some((f) => f.includes(fn.name) && f.includes("hardening-checks.test.mjs")), e.stack);
  }
  await stillWorks(env);
});

/** A value that counts its reads and gives `first`, then `second`, then `first` again... */
function alternating(first, second) {
  const seen = { reads: 0 };
  seen.read = () => (++seen.reads % 2 ? first : second);
  return seen;
}

test("params are read once: a getter or a Proxy is asked once per call, and the value checked is the value sent", async () => {
  env.server.reset();
  const c = client();
  const query = (i) => new URL(env.server.requests[i].url, "http://x").searchParams;
  // Valid when read first, invalid when read again: what was checked is what is sent.
  const filtered = (first, second) => {
    const seen = alternating(first, second);
    return [{ get filter_by() { return seen.read(); } }, seen];
  };
  const [listed, filter] = filtered("AccountType.All", "bogus");
  const prepared = await c.prepare("listAccounts", listed);
  assert.equal(filter.reads, 1);
  assert.equal(new URL(prepared.url).searchParams.get("filter_by"), "AccountType.All");
  const [sentOnce, calledFilter] = filtered("AccountType.All", "bogus");
  env.server.reply({ status: 200, body: { code: 0, message: "success", chartofaccounts: [] } });
  await c.listAccounts(sentOnce);
  assert.equal(calledFilter.reads, 1);
  assert.equal(query(0).get("filter_by"), "AccountType.All");
  // Invalid when read first: refused, though a second read would have passed; nothing is sent.
  const [refused, bad] = filtered("bogus", "AccountType.All");
  const e = await rejection(c.listAccounts(refused), svcError("validation"));
  assert.deepEqual([e.issues[0].path, e.issues[0].code, bad.reads], [["filter_by"], "invalid_value", 1]);
  assert.equal(validate("listAccounts", refused).ok, true, "validate() reads it once more, and gets the valid value");
  assert.equal(schemaFor("listAccounts")["~standard"].validate(refused).issues?.[0].code, "invalid_value");
  assert.equal(bad.reads, 3);
  // A Standard Schema's value is what its rules read: a copy, the getter asked once.
  const [formed, formRead] = filtered("AccountType.All", "bogus");
  const out = schemaFor("listAccounts")["~standard"].validate(formed);
  assert.deepEqual([out.value?.filter_by, out.issues, formRead.reads], ["AccountType.All", undefined, 1]);
  assert.equal(out.value.filter_by, "AccountType.All");
  assert.equal(formRead.reads, 1);
  // A getter deep in a body, in an array, and a Proxy's get trap: each asked once, the body what was checked.
  const expense = () => {
    const seen = { amount: alternating(12.5, NaN), note: alternating("first", { not: "checked" }), reads: {} };
    seen.params = new Proxy({ account_id: "1", date: "2024-01-02", description: "kept" }, {
      get(target, key) {
        if (typeof key === "string") seen.reads[key] = (seen.reads[key] ?? 0) + 1;
        return key === "amount" ? seen.amount.read() : key === "meta" ? [{ get note() { return seen.note.read(); } }] : target[key];
      },
      ownKeys: () => ["account_id", "date", "amount", "description", "meta"],
      getOwnPropertyDescriptor: () => ({ enumerable: true, configurable: true }),
    });
    return seen;
  };
  const sent = '{"account_id":"1","date":"2024-01-02","amount":12.5,"description":"kept","meta":[{"note":"first"}]}';
  const once = expense();
  assert.equal((await c.prepare("createExpense", once.params)).body, sent);
  assert.deepEqual([once.amount.reads, once.note.reads], [1, 1]);
  // Each member asked once, and toJSON once: JSON's own look-up of how an object writes itself.
  assert.deepEqual(once.reads, { toJSON: 1, account_id: 1, date: 1, amount: 1, description: 1, meta: 1 });
  const called = expense();
  env.server.reply({ status: 201, body: { code: 0, message: "made", expense: { expense_id: "9" } } });
  await c.createExpense(called.params);
  assert.equal(env.server.requests[1].text, sent);
  assert.deepEqual([called.amount.reads, called.note.reads, called.reads.amount], [1, 1, 1]);
  assert.equal(env.server.requests.length, 2);
  await stillWorks(env);
});

test("params read once still write what JSON cannot hold as issues, exact numbers exactly, a cycle as a cycle and a shared object twice", async () => {
  const c = client();
  const shared = { a: 1 };
  const made = await c.prepare("createExpense", { account_id: "1", date: "2024-01-02", amount: 5, x: [shared, shared], n: new Number(2), s: new String("t") });
  assert.equal(made.body, '{"account_id":"1","date":"2024-01-02","amount":5,"x":[{"a":1},{"a":1}],"n":2,"s":"t"}');
  const own = JSON.parse('{"account_id":"1","date":"2024-01-02","amount":5,"__proto__":7}');
  assert.match((await c.prepare("createExpense", own)).body, /"__proto__":7/);
  const cyclic = { account_id: "1", date: "2024-01-02", amount: 5 };
  cyclic.self = { back: cyclic };
  const e = await rejection(c.prepare("createExpense", cyclic), svcError("validation"));
  assert.match(e.issues[0].message, /circular reference/);
  const r = validate("createExpense", { account_id: "1", date: "2024-01-02", amount: NaN, when: [undefined] });
  assert.deepEqual(r.issues.map((i) => i.path.join(".")).sort(), ["amount", "when.0"]);
});

test("a param naming the organization is not_allowed where the query carries the client's, and nothing is sent", async () => {
  env.server.reset();
  const c = client();
  for (const key of ["organization_id", "Organization_ID", "organization_id[]", "organization_id\0", "organization.id"]) {
    const e = await rejection(c.listAccounts({ [key]: "666", page: 1 }), svcError("validation"));
    assert.deepEqual(e.issues.map((i) => [i.path, i.code]), [[[key], "not_allowed"]]);
    assert.match(e.issues[0].message, /names the organization, which the client sends as the query parameter organization_id from its organizationId/);
    await rejection(c.prepare("listAccounts", { [key]: "666" }), svcError("validation"));
    assert.equal(validate("listAccounts", { [key]: "666" }).issues[0].code, "not_allowed");
  }
  // A page's client sends no organization, but the proxy adds one: the same rule.
  const paged = new Client({ apiDomain: env.server.url, viaProxy: true });
  await rejection(paged.prepare("listAccounts", { organization_id: "666" }), svcError("validation"));
  // In a JSON body it is a field as any other (what a read sends back), and the query has the client's once.
  const body = await c.prepare("createExpense", { account_id: "1", date: "2024-01-02", amount: 1, organization_id: "666" });
  assert.deepEqual(new URL(body.url).searchParams.getAll("organization_id"), [ORG]);
  assert.match(body.body, /"organization_id":"666"/);
  // A family that sends the organization in a header keeps its query as given.
  const invoice = await c.prepare("listCurrencies", { organization_id: "666" });
  assert.equal(new URL(invoice.url).searchParams.get("organization_id"), "666");
  assert.equal(env.server.requests.length, 0);
  await stillWorks(env);
});

test("call options are read once too: the timeout and retries checked are those the call keeps", async () => {
  env.server.reset();
  const c = client({ maxRetries: 2 });
  let reads = 0;
  env.server.reply({ hold: true });
  const started = Date.now();
  // A second read would give a timeout of 24 days.
  await rejection(c.listAccounts({}, { get timeoutMs() { return reads++ ? 2_000_000_000 : 50; }, maxRetries: 0 }), svcError("timeout"));
  assert.equal(reads, 1);
  assert.ok(Date.now() - started < 5_000, `${Date.now() - started} ms`);
  let retries = 0;
  env.server.reply({ status: 500, body: { code: 1, message: "down" } }, { status: 500, body: { code: 1, message: "down" } });
  const before = env.server.requests.length;
  await rejection(c.listAccounts({}, { get maxRetries() { return retries++ ? 1 : 0; } }), svcError("api"));
  assert.deepEqual([retries, env.server.requests.length - before], [1, 1]);
  await stillWorks(env);
});
