// Class 5 of the hardening issue: whatever a caller passes, a failure is an SvcError, never a
// TypeError from inside the package.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Client, createProxy, schemaFor, validate } from "svc-sdk";
import { ORG, TOKEN, rejection, setUp, stillWorks, svcError, thrown } from "./support/hardening.mjs";

const env = setUp();
const client = () => new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.server.url });

test("uploads without params, or with params that are not an object, are validation errors", async () => {
  env.server.reset();
  const c = client();
  for (const args of [["1"], ["1", undefined], ["1", null], ["1", 5], ["1", "files"], ["1", []], ["1", { files: null }], ["1", { image: 5 }]]) {
    await rejection(c.addExpenseAttachment(...args), svcError("validation"));
    await rejection(c.uploadCompositeItemImage(...args), svcError("validation"));
  }
  assert.equal(env.server.requests.length, 0);
  await stillWorks(env);
});

/** Params whose reading throws: a getter, a proxy, a toJSON. */
function throwing() {
  const boom = () => { throw new Error("boom"); };
  return [
    { get name() { return boom(); } },
    { plan_code: "p", nested: { get deep() { return boom(); } } },
    new Proxy({}, { ownKeys: boom }),
    new Proxy({}, { get: boom, has: boom, ownKeys: () => ["name"], getOwnPropertyDescriptor: () => ({ enumerable: true, configurable: true, value: 1 }) }),
    new Proxy({}, { getPrototypeOf: boom }),
    { toJSON: boom },
    { name: { toJSON: boom } },
  ];
}

test("params whose reading throws are validation issues for methods, prepare, validate and schemaFor", async () => {
  env.server.reset();
  const c = client();
  const schema = schemaFor("createPlan")["~standard"];
  for (const params of throwing()) {
    const e = await rejection(c.createPlan(params), svcError("validation"));
    assert.ok(e.issues.length > 0);
    await rejection(c.prepare("createPlan", params), svcError("validation"));
    const r = validate("createPlan", params);
    assert.equal(r.ok, false);
    assert.ok(r.issues.every((i) => typeof i.message === "string"));
    assert.ok(schema.validate(params).issues.length > 0);
  }
  assert.equal(env.server.requests.length, 0);
  await stillWorks(env);
});

test("options whose reading throws, bad proxies and bad allow lists are config errors", async () => {
  const boom = { get accessToken() { throw new Error("boom"); } };
  thrown(() => new Client(boom), svcError("config"));
  thrown(() => new Client(new Proxy({}, { ownKeys() { throw new Error("boom"); } })), svcError("config"));
  thrown(() => createProxy(new Proxy({}, { ownKeys() { throw new Error("boom"); } })), svcError("config"));
  for (const allow of [[1n], [Symbol("x")], [{}], [null], ["listPlans", 1], "listPlans", []]) {
    thrown(() => createProxy({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.server.url, allow }), svcError("config"));
  }
  const proxy = createProxy({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.server.url, allow: ["listPlans"] });
  for (const request of [undefined, null, {}, "http://127.0.0.1/billing/v1/plans", 5, { url: 5, method: "GET", headers: {} }]) {
    await rejection(proxy(request), svcError("config"));
  }
  await stillWorks(env);
});

test("a freed client, or a method called on something that is not a Client, is a config error", async () => {
  const c = client();
  c.free();
  c.free();
  await rejection(c.listPlans(), svcError("config"));
  await rejection(c.prepare("listPlans"), svcError("config"));
  await rejection(c.request("GET", "billing", "/plans"), svcError("config"));
  thrown(() => c.rateLimitState(), svcError("config"));
  await rejection(Client.prototype.listPlans.call({}), svcError("config"));
  await rejection(Client.prototype.listPlans.call(undefined), svcError("config"));
  thrown(() => Client.prototype.rateLimitState.call({}), svcError("config"));
  const disposed = client();
  disposed[Symbol.dispose]();
  await rejection(disposed.listCurrencies(), svcError("config"));
  await stillWorks(env);
});
