// Class 3 of the hardening issue: the proxy reads at most maxBodyBytes of a request, forwards
// nothing larger (413), and ends a stalled answer within timeoutMs with its stream errored.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { createProxy } from "svc-sdk";
import { ORG, TOKEN, setUp, stillWorks, svcError, thrown } from "./support/hardening.mjs";

const env = setUp();
const MiB = 1 << 20;
const plan = (extra = "") => JSON.stringify({ plan_code: `p${Date.now()}${Math.random()}`.replace(".", ""), name: "P", recurring_price: 1, interval: 1, interval_unit: "months", description: extra });

/** A request whose body arrives as a stream of `chunks` with no content-length. */
function streamed(url, chunks) {
  let i = 0;
  const body = new ReadableStream({
    pull(c) {
      if (i < chunks.length) c.enqueue(chunks[i++]);
      else c.close();
    },
  });
  return new Request(url, { method: "POST", body, duplex: "half", headers: { "content-type": "application/json" } });
}

test("a body above maxBodyBytes is answered 413 and never forwarded: declared, streamed, multipart", async () => {
  env.server.reset();
  const proxy = createProxy({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.server.url, allow: ["createPlan", "addExpenseAttachment"], maxBodyBytes: 4096 });
  const url = "http://127.0.0.1/billing/v1/plans";
  const cases = [
    new Request(url, { method: "POST", body: plan("d".repeat(5000)), headers: { "content-type": "application/json" } }),
    streamed(url, Array.from({ length: 10 }, () => new TextEncoder().encode("x".repeat(1000)))),
    streamed(url, [new Uint8Array(4097)]),
    (() => {
      const form = new FormData();
      form.append("attachment", new Blob([new Uint8Array(5000)]), "a.pdf");
      return new Request("http://127.0.0.1/books/v3/expenses/1/attachment", { method: "POST", body: form });
    })(),
  ];
  for (const request of cases) {
    const res = await proxy(request);
    assert.equal(res.status, 413);
    assert.match((await res.json()).message, /maxBodyBytes \(4096 bytes\)/);
  }
  assert.equal(env.server.requests.length, 0, "nothing was forwarded");
  await stillWorks(env);
});

test("the default limit is 10 MiB; a body at the limit is read and forwarded", async () => {
  const proxy = createProxy({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.sandbox.url, allow: ["createPlan"] });
  const url = "http://127.0.0.1/billing/v1/plans";
  const over = await proxy(streamed(url, Array.from({ length: 11 }, () => new Uint8Array(MiB).fill(32))));
  assert.equal(over.status, 413);
  const exact = plan();
  const small = createProxy({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.sandbox.url, allow: ["createPlan"], maxBodyBytes: exact.length });
  const res = await small(new Request(url, { method: "POST", body: exact, headers: { "content-type": "application/json" } }));
  assert.ok(res.status >= 200 && res.status < 300, await res.clone().text());
  await stillWorks(env);
});

test("maxBodyBytes is checked like every option", () => {
  for (const bad of [0, -1, 1.5, "1", 2 ** 40, null, {}]) {
    thrown(() => createProxy({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.sandbox.url, allow: ["createPlan"], maxBodyBytes: bad }), svcError("config"));
  }
});

test("an upstream that sends headers and then stalls: the answer's stream errors within timeoutMs and the upstream is let go", async () => {
  let closed;
  const gone = new Promise((r) => (closed = r));
  const server = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"code":0,"plans":[');
    res.on("close", closed);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  try {
    const proxy = createProxy({ accessToken: TOKEN, organizationId: ORG, apiDomain: `http://127.0.0.1:${server.address().port}`, allow: ["listPlans"], timeoutMs: 300 });
    const res = await proxy(new Request("http://127.0.0.1/billing/v1/plans"));
    assert.equal(res.status, 200);
    await assert.rejects(res.text(), (e) => svcError("timeout")(e) && /nothing more for 300 ms/.test(e.message));
    await gone;
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
  await stillWorks(env);
});
