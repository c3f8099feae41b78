// Class 2 of the hardening issue: the proxy hands back no spelling of the token, in a header or
// in the body, whatever the service echoes.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { Client, createProxy } from "svc-sdk";
import { ORG, setUp, stillWorks } from "./support/hardening.mjs";

const env = setUp();

/** JSON's \u spelling of every character of `s`, in upper or lower hex. */
const escaped = (s, upper) => [...s].map((c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")[upper ? "toUpperCase" : "toLowerCase"]()).join("");
const mixed = (s) => [...s].map((c, i) => (i % 2 ? c : escaped(c, i % 4 === 0))).join("");

/** An upstream that answers `headers` and `body`, one byte a write. */
async function upstream(headers, body) {
  const server = http.createServer(async (req, res) => {
    res.writeHead(200, { "content-type": "application/json", ...headers });
    for (let i = 0; i < body.length; i++) res.write(body[i]);
    res.end();
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
}

for (const token of ["prx-tok-71c0e5", "prx/tok+9=~"]) {
  test(`headers and bodies that echo the token ${JSON.stringify(token)} in any spelling come back redacted`, async () => {
    const spellings = [token, escaped(token, true), escaped(token, false), mixed(token), token.replaceAll("/", "\\/")];
    const headers = {
      "content-type": `application/json; x=${token}`,
      "content-disposition": `attachment; filename="${token}.pdf"`,
      "retry-after": token,
      "x-rate-limit-limit": token,
      "x-rate-limit-remaining": `1 ${token}`,
      "x-rate-limit-reset": `${token}${token}`,
    };
    const body = `{"code":0,"message":"${spellings.join(" | ")}","plans":[]}`;
    const up = await upstream(headers, body);
    try {
      const proxy = createProxy({ accessToken: token, organizationId: ORG, apiDomain: up.url, allow: ["listPlans"] });
      const res = await proxy(new Request("http://127.0.0.1/billing/v1/plans"));
      const text = await res.text();
      for (const [name, value] of res.headers) {
        assert.ok(!value.includes(token), `${name}: ${value}`);
        if (headers[name]) assert.equal(value, headers[name].replaceAll(token, "[redacted]"), name);
      }
      for (const s of spellings) assert.ok(!text.includes(s), `${s} in ${text}`);
      assert.equal(text, `{"code":0,"message":"${spellings.map(() => "[redacted]").join(" | ")}","plans":[]}`);
    } finally {
      await up.close();
    }
    await stillWorks(env);
  });
}

test("text that only looks like the token is handed back as it is", async () => {
  const token = "prx-tok-71c0e5";
  const near = [`prx-tok-71c0e`, `\\u0070rx-tok-71c0e6`, `\\u00zzrx-tok-71c0e5`, `\\u`, `\\`];
  const body = `{"code":0,"message":"${near.join(" ")}","plans":[]}`;
  const up = await upstream({}, body);
  try {
    const proxy = createProxy({ accessToken: token, organizationId: ORG, apiDomain: up.url, allow: ["listPlans"] });
    assert.equal(await (await proxy(new Request("http://127.0.0.1/billing/v1/plans"))).text(), body);
  } finally {
    await up.close();
  }
});

test("a token holding \" and \\ is redacted in every JSON spelling a service may echo it in, streamed and in messages", async () => {
  const token = 'tok"en\\secret-123';
  const short = { '"': ['\\"'], "\\": ["\\\\"], "/": ["\\/"] };
  // Every character in each of its spellings: as JSON.stringify writes it, its \u in both cases, its short escape.
  const spellings = [
    JSON.stringify(token).slice(1, -1),
    escaped(token, true),
    escaped(token, false),
    [...token].map((c, i) => (short[c] && i % 2 ? short[c][0] : i % 3 ? escaped(c, i % 2 === 0) : (short[c]?.[0] ?? c))).join(""),
  ];
  const server = http.createServer((req, res) => {
    const echo = JSON.stringify(req.headers.authorization);
    const body = `{"code":57,"message":${JSON.stringify(`refused ${req.headers.authorization}`)},"echo":${echo},"spelled":"${spellings.join(" | ")}"}`;
    res.writeHead(401, { "content-type": "application/json" });
    for (let i = 0; i < body.length; i++) res.write(body[i]);
    res.end();
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${server.address().port}`;
  try {
    const proxy = createProxy({ accessToken: token, organizationId: ORG, apiDomain: url, allow: ["listPlans"] });
    const res = await proxy(new Request("http://127.0.0.1/billing/v1/plans"));
    const text = await res.text();
    assert.equal(res.status, 401);
    const got = JSON.parse(text);
    assert.equal(got.echo, "Svc-oauthtoken [redacted]");
    assert.equal(got.spelled, spellings.map(() => "[redacted]").join(" | "));
    for (const s of [token, ...spellings]) assert.ok(!text.includes(s), `${s} in ${text}`);
    // A client holding the token: the message it reads from the answer is redacted too.
    const direct = new Client({ accessToken: token, organizationId: ORG, apiDomain: url, maxRetries: 0 });
    const e = await direct.listPlans().catch((e) => e);
    assert.equal(e.kind, "unauthorized");
    assert.ok(e.message.includes("refused Svc-oauthtoken [redacted]"), e.message);
    for (const s of [token, ...spellings]) assert.ok(!`${e.message}${e.stack}${JSON.stringify(e)}`.includes(s), s);
  } finally {
    await new Promise((r) => { server.closeAllConnections(); server.close(r); });
  }
  await stillWorks(env);
});
