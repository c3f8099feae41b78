// Class 2 of the hardening issue: the proxy hands back no spelling of the token, in a header or
// in the body, whatever the service echoes.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { createProxy } from "svc-sdk";
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
