// Issue 25, item 5 (secrets and origins): an error's headers hold no spelling of the token; no
// redirect is followed (a 3xx is an api error naming the target's origin only, and nothing reaches
// the target); the proxy forwards only its operations' media types (415 otherwise) and, with
// allowedOrigins, only listed origins (403); per-call headers cannot set any family's organization.
// Real loopback servers; after each case a Client made before it still completes a call.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import util from "node:util";
import { Client, createProxy } from "svc-sdk";
import { ORG, TOKEN, rejection, setUp, stillWorks, svcError, thrown, views } from "./support/hardening.mjs";

const env = setUp();

/** A loopback server answering with `answer(req)` (`{ status, headers, body }`), recording what arrived. */
async function serve(answer) {
  const arrived = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      arrived.push({ method: req.method, url: req.url, headers: req.headers, body });
      const { status = 200, headers = {}, body: out = { code: 0, message: "ok" } } = answer(req);
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(out));
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    arrived,
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }),
  };
}

/** JSON's \u spelling of every character of `s`. */
const escaped = (s) => [...s].map((c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")).join("");

const CURRENCIES = "http://127.0.0.1/api/invoice/v3/settings/currencies";
const currency = (code) => JSON.stringify({ currency_code: code, currency_symbol: code[0], price_precision: 2 });

test("an error's headers hold no spelling of the token, whatever the answer echoes (401 and 400, static token and token function)", async () => {
  const up = await serve((req) => ({
    status: req.url.includes("currencies") ? 401 : 400,
    headers: {
      "www-authenticate": req.headers.authorization,
      "x-echo-json": JSON.stringify({ auth: req.headers.authorization }).replace(TOKEN, escaped(TOKEN)),
      "x-echo-twice": `${req.headers.authorization}, ${req.headers.authorization}`,
    },
    body: { code: 57, message: "refused" },
  }));
  try {
    for (const accessToken of [TOKEN, () => TOKEN]) {
      const client = new Client({ accessToken, organizationId: ORG, apiDomain: up.url, maxRetries: 0 });
      for (const [call, kind, status] of [[() => client.listCurrencies(), "unauthorized", 401], [() => client.listAccounts(), "api", 400]]) {
        const arrivedBefore = up.arrived.length;
        const e = await rejection(call(), svcError(kind));
        assert.equal(e.status, status);
        assert.ok(up.arrived.length > arrivedBefore && up.arrived.at(-1).headers.authorization.includes(TOKEN), "the server did get the token to echo");
        assert.equal(e.headers["www-authenticate"], "Svc-oauthtoken [redacted]");
        assert.equal(e.headers["x-echo-json"], '{"auth":"Svc-oauthtoken [redacted]"}');
        assert.equal(e.headers["x-echo-twice"], "Svc-oauthtoken [redacted], Svc-oauthtoken [redacted]");
        for (const text of [util.inspect(e, { depth: Infinity, showHidden: true }), JSON.stringify(e.headers), views(e)]) {
          assert.ok(!text.includes(TOKEN) && !text.includes(escaped(TOKEN)), text);
        }
      }
    }
  } finally {
    await up.close();
  }
  await stillWorks(env);
});

test("a redirect is never followed: 301, 302, 303, 307 and 308 are api errors naming the target's origin, and nothing reaches it", async () => {
  const target = await serve(() => ({ body: { code: 0, currency: { currency_id: "666", currency_code: "EVL" } } }));
  const origin = target.url;
  const up = await serve((req) => ({ status: Number(req.headers["x-status"]), headers: { location: `${origin}/steal/${req.url}?token=ORG-SECRET#f` } }));
  try {
    for (const status of [301, 302, 303, 307, 308]) {
      const client = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: up.url, maxRetries: 2 });
      for (const call of [
        () => client.createCurrency({ currency_code: "EVL", currency_symbol: "E", price_precision: 2 }, { headers: { "x-status": String(status) } }),
        () => client.listCurrencies({}, { headers: { "x-status": String(status) } }),
      ]) {
        const e = await rejection(call(), svcError("api"));
        assert.equal(e.status, status);
        assert.equal(e.message, `the service answered ${status} (a redirect to ${origin}), which is not followed: point apiDomain at the host that answers without redirecting`);
        for (const text of [views(e), JSON.stringify(e.headers)]) assert.ok(!/steal|ORG-SECRET/.test(text), text);
        assert.equal(e.headers.location, undefined, "the Location is named by its origin only");
      }
    }
    assert.equal(up.arrived.length, 10, "each call was sent once, not retried");
    assert.deepEqual(target.arrived, [], "nothing reached the redirect's target");

    // A fetch option that follows redirects anyway: its answer is not taken as data.
    const following = new Client({
      accessToken: TOKEN, organizationId: ORG, apiDomain: up.url, maxRetries: 0,
      fetch: (url, init) => fetch(url, { ...init, redirect: "follow" }),
    });
    const e = await rejection(following.getCurrency("1", {}, { headers: { "x-status": "307" } }), svcError("api"));
    assert.match(e.message, new RegExp(`^the fetch option followed a redirect to ${origin}, which the SDK never does`));
    assert.ok(!/steal|ORG-SECRET/.test(views(e)));

    // What a browser gives for redirect: "manual" (an opaque redirect: status 0, no headers).
    const opaque = new Client({
      accessToken: TOKEN, organizationId: ORG, apiDomain: up.url, maxRetries: 2,
      fetch: async (url, init) => {
        assert.equal(init.redirect, "manual", "every request is sent with redirect: manual");
        const res = new Response(null);
        for (const [k, value] of [["type", "opaqueredirect"], ["status", 0], ["url", ""]]) Object.defineProperty(res, k, { value });
        return res;
      },
    });
    const o = await rejection(opaque.listCurrencies(), svcError("api"));
    assert.equal(o.status, undefined);
    assert.match(o.message, /^the service answered with a redirect, which is not followed/);
  } finally {
    await up.close();
    await target.close();
  }
  await stillWorks(env);
});

test("a proxy whose service redirects answers its browser 502, the origin named in the server's log only, and forwards nothing there", async () => {
  const target = await serve(() => ({ body: { code: 0, currencies: [{ currency_id: "666" }] } }));
  const up = await serve((req) => ({ status: 307, headers: { location: `${target.url}/x?token=${encodeURIComponent(req.headers.authorization)}` } }));
  try {
    const logged = [];
    const logger = { debug() {}, info() {}, warn() {}, error: (r) => logged.push(r.message) };
    const proxy = createProxy({ accessToken: TOKEN, organizationId: ORG, apiDomain: up.url, allow: ["listCurrencies", "createCurrency"], logger });
    for (const req of [
      new Request(CURRENCIES),
      new Request(CURRENCIES, { method: "POST", headers: { "content-type": "application/json" }, body: currency("EVL") }),
    ]) {
      const res = await proxy(req);
      assert.equal(res.status, 502);
      assert.equal(res.headers.get("location"), null);
      const body = await res.json();
      assert.equal(body.code, 1000);
      assert.equal(body.message, "the proxy could not forward the request to the service; its server's log says why");
      assert.ok(!JSON.stringify(body).includes(target.url), "the page is not told the host");
    }
    const why = `the service answered 307 (a redirect to ${target.url}), which is not followed: point apiDomain at the host that answers without redirecting`;
    assert.equal(logged.filter((m) => m.endsWith(why)).length, 2, logged.join("\n"));
    assert.equal(up.arrived.length, 2);
    assert.deepEqual(target.arrived, []);
  } finally {
    await up.close();
    await target.close();
  }
  await stillWorks(env);
});

/** How many createCurrency calls the sandbox received. */
const created = async () => (await env.sandbox.counters()).operations.createCurrency?.received ?? 0;

test("the proxy forwards a body only with its operation's media type: 415 for text/plain, a form or none, and nothing reaches the service", async () => {
  const proxy = createProxy({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.sandbox.url, allow: ["createCurrency", "listCurrencies", "addExpenseAttachment"] });
  const before = await created();
  const form = new FormData();
  form.append("currency_code", "FRM");
  for (const [headers, body, got] of [
    [{ "content-type": "text/plain;charset=UTF-8" }, currency("TXT"), '"text/plain;charset=UTF-8"'],
    [{ "content-type": "text/plain" }, currency("TXU"), '"text/plain"'],
    [{}, new TextEncoder().encode(currency("NON")), "none"],
    [{ "content-type": "application/x-www-form-urlencoded" }, "currency_code=URL", '"application/x-www-form-urlencoded"'],
    [{}, form, null],
    [{ "content-type": "application/jsonp" }, currency("JSP"), '"application/jsonp"'],
  ]) {
    const req = new Request(CURRENCIES, { method: "POST", headers, body });
    if (got === "none") assert.equal(req.headers.get("content-type"), null);
    const res = await proxy(req);
    assert.equal(res.status, 415, JSON.stringify(headers));
    assert.equal(res.headers.get("content-type"), "application/json");
    const answer = await res.json();
    assert.equal(answer.code, 1415);
    assert.match(answer.message, /^createCurrency takes a JSON object with Content-Type: application\/json \(this one has .+\); nothing else is forwarded$/);
    if (got) assert.ok(answer.message.includes(`(this one has ${got})`), answer.message);
  }
  assert.equal(await created(), before, "no refused body reached the service");

  // application/json, in any case and with parameters, is forwarded; a GET needs no content type.
  for (const [type, code] of [["application/json", "AJS"], ["Application/JSON; charset=utf-8", "AJT"]]) {
    const res = await proxy(new Request(CURRENCIES, { method: "POST", headers: { "content-type": type }, body: currency(code) }));
    assert.equal(res.status, 201, await res.clone().text());
    assert.equal([(await res.json()).currency].flat()[0].currency_code, code);
  }
  assert.equal(await created(), before + 2);
  assert.equal((await proxy(new Request(CURRENCIES, { headers: { "content-type": "text/plain" } }))).status, 200);

  // An upload takes multipart/form-data only.
  const upload = "http://127.0.0.1/api/books/v3/expenses/1/attachment";
  const json = await proxy(new Request(upload, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }));
  assert.equal(json.status, 415);
  assert.match((await json.json()).message, /^addExpenseAttachment takes its files as a FormData with Content-Type: multipart\/form-data/);
  const files = new FormData();
  files.append("attachment", new File(["%PDF-1.4"], "r.pdf"));
  const attached = async () => (await env.sandbox.counters()).operations.addExpenseAttachment?.received ?? 0;
  const attachedBefore = await attached();
  const sent = await proxy(new Request(upload, { method: "POST", body: files }));
  assert.notEqual(sent.status, 415, await sent.text());
  assert.equal(await attached(), attachedBefore + 1, "a FormData is forwarded");
  await stillWorks(env);
});

test("a browser Client behind the proxy sends the media type it forwards", async () => {
  const proxy = createProxy({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.sandbox.url, allow: ["createCurrency"] });
  const browser = new Client({ apiDomain: "http://127.0.0.1/api", viaProxy: true, fetch: (url, init) => proxy(new Request(url, init)) });
  assert.equal((await browser.createCurrency({ currency_code: "BRW", currency_symbol: "B", price_precision: 2 })).currency_code, "BRW");
  await stillWorks(env);
});

test("allowedOrigins: a request from another Origin gets 403 and is never forwarded; a listed one or none is forwarded", async () => {
  const allowedOrigins = ["https://app.example.com", "http://127.0.0.1:5173"];
  const proxy = createProxy({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.sandbox.url, allow: ["createCurrency", "listCurrencies"], allowedOrigins });
  const post = (origin, code) => {
    const headers = { "content-type": "application/json", ...(origin === undefined ? {} : { origin }) };
    return proxy(new Request(CURRENCIES, { method: "POST", headers, body: currency(code) }));
  };
  const before = await created();
  for (const origin of ["https://evil.example", "null", "https://app.example.com.evil.example", "http://app.example.com", "http://127.0.0.1:5174"]) {
    const res = await post(origin, "EVL");
    assert.equal(res.status, 403, origin);
    const body = await res.json();
    assert.equal(body.code, 1403);
    assert.equal(body.message, `this proxy does not take requests from the origin ${JSON.stringify(origin)} (allowedOrigins)`);
    const get = await proxy(new Request(CURRENCIES, { headers: { origin } }));
    assert.equal(get.status, 403, `GET from ${origin}`);
  }
  assert.equal(await created(), before, "nothing from another origin reached the service");
  assert.equal((await post("https://app.example.com", "ORA")).status, 201);
  assert.equal((await post("http://127.0.0.1:5173", "ORB")).status, 201);
  assert.equal((await post(undefined, "ORC")).status, 201, "no Origin: not a browser's cross-site request");
  assert.equal(await created(), before + 3);

  // Anything but an array of origins as browsers send them is a config error.
  const base = { accessToken: TOKEN, organizationId: ORG, apiDomain: env.sandbox.url, allow: ["listCurrencies"] };
  for (const bad of ["https://app.example.com", ["https://app.example.com/"], ["https://App.example.com"], ["https://app.example.com:443"], ["*"], ["null"], [""], [5], [null], {}, null, 1]) {
    const e = thrown(() => createProxy({ ...base, allowedOrigins: bad }), svcError("config"));
    assert.match(e.message, /^allowedOrigins/, JSON.stringify(bad));
  }
  assert.equal(typeof createProxy({ ...base, allowedOrigins: [] }), "function");
  await stillWorks(env);
});

test("per-call headers cannot set any family's organization header, nor Authorization, in any case: config error, nothing sent", async () => {
  env.server.reset();
  const client = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.server.url });
  const names = ["X-com-svc-invoice-organizationid", "X-com-svc-subscriptions-organizationid", "Authorization"];
  for (const name of names.flatMap((n) => [n, n.toLowerCase(), n.toUpperCase()])) {
    for (const call of [
      (headers) => client.listAccounts({}, { headers }), // books: the organization in the query
      (headers) => client.listCurrencies({}, { headers }), // invoice
      (headers) => client.listPlans({}, { headers }), // billing
      (headers) => client.request("GET", "crm", "/Leads", {}, { headers }),
    ]) {
      const e = await rejection(call({ "X-Trace": "1", [name]: "999" }), svcError("config"));
      assert.match(e.message, /is set by the client/, name);
    }
  }
  assert.deepEqual(env.server.requests, [], "nothing was sent");
  await stillWorks(env);
});
