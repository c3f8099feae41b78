// Issue 25, items 6 and 7, through the installed package. An answer is checked against its row: a
// 200 whose resource is null, missing or of another JSON type, an empty body where a resource is due,
// a page_context that is not as documented, and pages that do not advance are decode errors (a real
// loopback server answers them). parseEvent verifies the token of the webhook URL an event was posted to.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { Client, parseEvent } from "svc-sdk";
import { ORG, TOKEN, rejection, setUp, stillWorks, svcError, thrown } from "./support/hardening.mjs";

const env = setUp();
const client = () => new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.server.url, maxRetries: 0, timeoutMs: 10_000 });

/** A decode SvcError (of `operationId`, when given) whose message holds every needle. */
const decoded = (operationId, ...needles) => (e) => {
  svcError("decode")(e);
  if (operationId !== undefined) assert.equal(e.operationId, operationId, e.message);
  for (const n of needles) assert.ok(e.message.includes(n), `${JSON.stringify(n)} not in: ${e.message}`);
  return true;
};

/** Every item a `for await` yields before it ends, and how it ended: undefined, or what it threw. */
async function iterate(page) {
  const items = [];
  try {
    for await (const item of page) items.push(item);
  } catch (e) {
    return { items, error: e };
  }
  return { items };
}

const currency = (id) => ({ currency_id: id, currency_code: "EUR" });

test("a 200 whose resource is null, missing, of another type, or an empty body, is a decode error naming the key", async () => {
  const c = client();
  const expected = "where `currency` (an object) was expected";
  const cases = [
    [{ code: 0, message: "ok", currency: null }, ["`currency` is null", expected]],
    [{ code: 0, message: "ok" }, ["has no `currency`", expected]],
    [{ code: 0, currency: "USD" }, ["`currency` is a string", expected]],
    [{ code: 0, currency: 7 }, ["`currency` is a number", expected]],
    [{ code: 0, currency: [currency("1")] }, ["`currency` is an array", expected]],
    [JSON.stringify("a currency"), ["not a JSON object"]],
    ["", ["the response is empty", expected]],
  ];
  for (const [body, needles] of cases) {
    env.server.reset();
    env.server.reply({ body });
    const e = await rejection(c.getCurrency("1"), decoded("getCurrency", ...needles));
    assert.equal(e.status, 200);
  }
  // One row of each other shape: a one-or-array key, an array key, fields at the top level, a list.
  const shaped = [
    [() => c.createCurrency({ currency_code: "EUR" }), "createCurrency", { code: 0, currency: [] }, "`currency` is an array"],
    [() => c.updateNotificationChannels({ watch: [{ channel_id: "1000000068001", events: ["Deals.edit"], notify_url: "https://app.example/hooks", token: "t" }] }), "updateNotificationChannels", { watch: { code: "SUCCESS" } }, "`watch` is an object, where `watch` (an array) was expected"],
    [() => c.getAccount("1"), "getAccount", { code: 0, message: "ok" }, "has only `code` and `message`"],
    [() => c.listCurrencies(), "listCurrencies", { code: 0, currencies: { currency_id: "1" } }, "`currencies` is an object, where `currencies` (an array) was expected"],
    [() => c.listCurrencies(), "listCurrencies", "", "the response is empty, where `currencies` (an array) was expected"],
  ];
  for (const [call, id, body, says] of shaped) {
    env.server.reset();
    env.server.reply({ body });
    await rejection(call(), decoded(id, says));
  }
  // An operation without a resource may answer empty (a DELETE answered 200 or 204 with no body).
  env.server.reset();
  env.server.reply({ body: "" }, { status: 204, body: "" });
  assert.deepEqual(await c.deleteCurrency("1"), { code: 0, message: "" });
  assert.deepEqual(await c.deleteCurrency("1"), { code: 0, message: "" });
  // The same client, and the witness made before, still complete a call.
  env.server.reset();
  env.server.reply({ body: { code: 0, message: "ok", currency: currency("1") } });
  assert.equal((await c.getCurrency("1")).currency_id, "1");
  await stillWorks(env);
});

test("a list whose server answers page 1 whatever is asked, with has_more_page true, ends with a decode error", async () => {
  const c = client();
  env.server.reset();
  env.server.handle(() => ({ body: { code: 0, currencies: [currency("1")], page_context: { page: 1, per_page: 1, has_more_page: true } } }));
  const { items, error } = await iterate(await c.listCurrencies({ per_page: 1 }));
  decoded(undefined, "page 2 was asked for and the service answered page 1", "the pages do not advance")(error);
  assert.deepEqual(items.map((x) => x.currency_id), ["1"], "page 1's items once, the repeated page's never");
  assert.deepEqual(env.server.requests.map((r) => new URL(r.url, env.server.url).searchParams.get("page")), [null, "2"], "two requests, not forever");

  // A page asked for by the caller is checked too: asked 3, answered 1.
  env.server.reset();
  env.server.handle(() => ({ body: { code: 0, currencies: [currency("1")], page_context: { page: 1, has_more_page: true } } }));
  const asked = await iterate(await c.listCurrencies({ page: 3 }));
  decoded(undefined, "page 3 was asked for and the service answered page 1")(asked.error);
  assert.equal(asked.items.length, 0);
  assert.equal(env.server.requests.length, 1);

  // More pages said to follow, but no page named: that they advance cannot be told.
  env.server.reset();
  env.server.handle(() => ({ body: { code: 0, currencies: [currency("1")], page_context: { has_more_page: true } } }));
  const unnamed = await iterate(await c.listCurrencies());
  decoded(undefined, "without saying which page")(unnamed.error);
  assert.equal(env.server.requests.length, 1);

  // A server whose pages advance is followed to the last one.
  env.server.reset();
  env.server.handle((r) => {
    const page = Number(new URL(r.url, env.server.url).searchParams.get("page") ?? 1);
    return { body: { code: 0, currencies: [currency(String(page))], page_context: { page, per_page: 1, has_more_page: page < 3 } } };
  });
  const all = await iterate(await c.listCurrencies({ per_page: 1 }));
  assert.equal(all.error, undefined);
  assert.deepEqual(all.items.map((x) => x.currency_id), ["1", "2", "3"]);
  await stillWorks(env);
});

test("a page_context that is not an object with a positive integer page and a boolean has_more_page is a decode error, not validation", async () => {
  const c = client();
  const cases = [
    ["not a context", "`page_context` is a string, not an object"],
    [[1, 2], "`page_context` is an array, not an object"],
    [null, "`page_context` is null, not an object"],
    [{ page: 0, has_more_page: true }, "`page_context.page` is 0, not a positive integer"],
    [{ page: "2", has_more_page: true }, "`page_context.page` is a string, not a positive integer"],
    [{ page: 1.5 }, "`page_context.page` is 1.5, not a positive integer"],
    [{ page: 1, has_more_page: "yes" }, "`page_context.has_more_page` is a string, not a boolean"],
  ];
  for (const [page_context, says] of cases) {
    env.server.reset();
    env.server.reply({ body: { code: 0, currencies: [currency("1")], page_context } });
    await rejection(c.listCurrencies(), decoded("listCurrencies", `the response's ${says}`));
  }
  // A page_context changed after the answer is checked again when the iteration reads it.
  env.server.reset();
  env.server.reply({ body: { code: 0, currencies: [currency("1")], page_context: { page: 1, has_more_page: true } } });
  const page = await c.listCurrencies();
  page.page_context.page = "one";
  const { items, error } = await iterate(page);
  decoded(undefined, "`page_context.page` is a string")(error);
  assert.equal(items.length, 0);
  assert.equal(env.server.requests.length, 1, "nothing more was asked for");
  await stillWorks(env);
});

/** A webhook receiver as the README writes one: the URL of the request and the body go to parseEvent. */
async function receiver(options) {
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    let status = 200;
    let answer;
    try {
      const event = parseEvent(Buffer.concat(chunks).toString("utf8"), { ...options, url: `http://${req.headers.host}${req.url}` });
      answer = { event_id: event.event_id, event_type: event.event_type };
    } catch (e) {
      status = e.kind === "verification" ? 401 : 400;
      answer = { error: e.kind, message: e.message };
    }
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(answer));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${server.address().port}`;
  const post = async (path, body) => {
    const res = await fetch(url + path, { method: "POST", body, headers: { "content-type": "application/json" }, signal: AbortSignal.timeout(10_000) });
    return { status: res.status, json: await res.json() };
  };
  return { url, post, close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
}

const HOOK_TOKEN = "hook-secret-9d2f41";

/** An event of the sandbox, as its webhook body. */
async function sandboxEvent() {
  const [first] = (await env.witness.listEvents()).items;
  assert.ok(first, "the seeded plans have events");
  const raw = await env.witness.request("GET", "billing", `/events/${first.event_id}`);
  return raw.event;
}

test("parseEvent: an event posted to the webhook URL with its token is read; a forged one is a verification error before its body is read", async () => {
  const event = await sandboxEvent();
  const body = JSON.stringify(event);
  const hook = await receiver({ token: HOOK_TOKEN });
  try {
    const ok = await hook.post(`/hooks/events?token=${HOOK_TOKEN}`, body);
    assert.equal(ok.status, 200, JSON.stringify(ok.json));
    assert.deepEqual(ok.json, { event_id: event.event_id, event_type: event.event_type });
    const forged = [
      "/hooks/events",
      "/hooks/events?token=",
      `/hooks/events?token=${HOOK_TOKEN.slice(0, -1)}`,
      `/hooks/events?token=${HOOK_TOKEN}x`,
      `/hooks/events?token=${HOOK_TOKEN.toUpperCase()}`,
      `/hooks/events?tokens=${HOOK_TOKEN}`,
      `/hooks/events?token=${HOOK_TOKEN}&token=forged`,
    ];
    for (const path of forged) {
      for (const b of [body, "not even JSON"]) {
        const res = await hook.post(path, b);
        assert.equal(res.status, 401, `${path}: ${JSON.stringify(res.json)}`);
        assert.equal(res.json.error, "verification");
        assert.ok(!res.json.message.includes(HOOK_TOKEN), res.json.message);
      }
    }
    const bad = await hook.post(`/hooks/events?token=${HOOK_TOKEN}`, "not even JSON");
    assert.deepEqual([bad.status, bad.json.error], [400, "decode"], "a verified body is then read");
  } finally {
    await hook.close();
  }
  const custom = await receiver({ token: HOOK_TOKEN, param: "key" });
  try {
    assert.equal((await custom.post(`/hooks/events?key=${HOOK_TOKEN}`, body)).status, 200);
    assert.equal((await custom.post(`/hooks/events?token=${HOOK_TOKEN}`, body)).status, 401, "param names the one parameter read");
  } finally {
    await custom.close();
  }
  const url = new URL(`https://app.example/hooks/events?token=${encodeURIComponent("a b/+&")}`);
  assert.equal(parseEvent(body, { token: "a b/+&", url }).event_id, event.event_id, "a URL object, its token percent-decoded");
  thrown(() => parseEvent(body, { token: "a b/+", url }), svcError("verification", "a b/+"));
  await stillWorks(env);
});

test("parseEvent without options, with a missing or empty token or without the URL is a config error; skipVerification reads unverified", async () => {
  const event = await sandboxEvent();
  const body = JSON.stringify(event);
  const url = `https://app.example/hooks/events?token=${HOOK_TOKEN}`;
  for (const options of [undefined, null]) {
    const e = thrown(() => parseEvent(body, options), svcError("config", HOOK_TOKEN));
    assert.match(e.message, /parseEvent\(body, \{ token, url \}\)/);
    assert.match(e.message, /skipVerification: true/);
  }
  const unset = process.env.SVC_SDK_TEST_UNSET_EVENTS_TOKEN;
  for (const options of [{}, { url }, { token: unset, url }, { token: null, url }, { token: "", url }, { token: 1, url }, { token: HOOK_TOKEN }, { token: HOOK_TOKEN, url: 5 }, { token: HOOK_TOKEN, url: {} }, { token: HOOK_TOKEN, url, param: "" }, { token: HOOK_TOKEN, url, verify: false }]) {
    thrown(() => parseEvent(body, options), svcError("config", HOOK_TOKEN));
  }
  assert.equal(parseEvent(body, { skipVerification: true }).event_id, event.event_id);
  for (const options of [{ skipVerification: true, token: HOOK_TOKEN }, { skipVerification: true, url }, { skipVerification: false }, { skipVerification: "true" }]) {
    thrown(() => parseEvent(body, options), svcError("config", HOOK_TOKEN));
  }
  assert.equal(parseEvent(body, { token: HOOK_TOKEN, url }).event_type, event.event_type);
  await stillWorks(env);
});
