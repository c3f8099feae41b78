// Issue 36: list members checked to the item, per-call headers that fetch would refuse or drop
// refused before anything is sent, and messages that say what happened (tokens too short or too
// long, a page_context in an array, the last page, a `+` in a webhook URL, the stack's first frame).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Client, parseEvent } from "svc-sdk";
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
