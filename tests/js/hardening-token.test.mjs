// Class 8 of the hardening issue: no error carries the token, whatever text a custom fetch or a
// token function throws, and a network error keeps its cause (the host and the code).
import { test } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import util from "node:util";
import { Client } from "svc-sdk";
import { ORG, TOKEN, rejection, setUp, stillWorks, svcError, views } from "./support/hardening.mjs";

const env = setUp();

test("a custom fetch whose errors quote the request headers: message, stack, cause and inspection are redacted", async () => {
  const throwers = [
    (url, init) => { throw new Error(`cannot send ${JSON.stringify(init.headers)}`); },
    (url, init) => Promise.reject(new TypeError(`bad header ${init.headers.Authorization}`)),
    (url, init) => { throw new Error("outer", { cause: new Error(`inner ${init.headers.Authorization}`) }); },
    (url, init) => { throw `a string with ${init.headers.Authorization}`; },
    (url, init) => { const e = new Error("x"); e.stack = `Error: ${init.headers.Authorization}\n    at nowhere`; throw e; },
    () => { throw { get message() { throw new Error("no"); } }; },
    () => { throw null; },
  ];
  for (const accessToken of [TOKEN, () => TOKEN, async () => TOKEN]) {
    for (const fetch of throwers) {
      const c = new Client({ accessToken, organizationId: ORG, apiDomain: env.sandbox.url, fetch, maxRetries: 0 });
      const e = await rejection(c.listCurrencies(), svcError("network"));
      assert.ok(!util.inspect(e, { depth: Infinity, showHidden: true }).includes(TOKEN));
      assert.ok(e.cause instanceof Error, "the cause is kept");
    }
  }
  await stillWorks(env);
});

test("a refused connection says which host, and the cause carries the code", async () => {
  const closed = net.createServer();
  await new Promise((r) => closed.listen(0, "127.0.0.1", r));
  const host = `127.0.0.1:${closed.address().port}`;
  await new Promise((r) => closed.close(r));
  const c = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: `http://${host}`, maxRetries: 0 });
  const e = await rejection(c.listCurrencies(), svcError("network"));
  assert.ok(e.message.includes(host), e.message);
  assert.equal(e.cause.code, "ECONNREFUSED");
  assert.equal(e.cause.host, host);
  assert.ok(!views(e).includes(TOKEN));
  await stillWorks(env);
});

test("a token function that throws or rejects with the token in its text leaves no trace of it", async () => {
  for (const accessToken of [
    () => { throw new Error(`refresh failed for ${TOKEN}`); },
    () => Promise.reject(new Error(`refresh failed for ${TOKEN}`)),
    () => Promise.reject(`${TOKEN}`),
  ]) {
    const c = new Client({ accessToken, organizationId: ORG, apiDomain: env.sandbox.url, maxRetries: 0 });
    await rejection(c.listCurrencies(), svcError("unauthorized"));
  }
  await stillWorks(env);
});
