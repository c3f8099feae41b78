// Class 6 of the hardening issue: nothing a user gave is changed silently. A JS number that cannot
// hold an id or an integer exactly, NaN and Infinity anywhere, and text with a lone surrogate
// anywhere (params, path params, request()) are refused before anything is sent.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Client, validate } from "svc-sdk";
import { ORG, TOKEN, rejection, setUp, stillWorks, svcError } from "./support/hardening.mjs";

const env = setUp();
const client = () => new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.server.url });
const at = (issues, path) => issues.find((i) => JSON.stringify(i.path) === JSON.stringify(path));
const asset = { asset_name: "Laptop", fixed_asset_type_id: "1", asset_account_id: "2", asset_cost: 100, asset_purchase_date: "2024-01-01" };

test("integers beyond 2^53 in id and integer fields are issues, as numbers only; as strings or BigInts they pass", async () => {
  env.server.reset();
  const c = client();
  for (const n of [3640355000000319008, 2 ** 53, -(2 ** 53), 9007199254740993, 1e19]) {
    const r = validate("createFixedAsset", { ...asset, fixed_asset_type_id: n });
    const issue = at(r.issues ?? [], ["fixed_asset_type_id"]);
    assert.ok(issue, `${n}: ${JSON.stringify(r)}`);
    assert.ok(["out_of_range", "invalid_type"].includes(issue.code), issue.code);
    await rejection(c.createFixedAsset({ ...asset, fixed_asset_type_id: n }), svcError("validation"));
    await rejection(c.prepare("createFixedAsset", { ...asset, fixed_asset_type_id: n }), svcError("validation"));
  }
  assert.equal(at(validate("createFixedAsset", { ...asset, fixed_asset_type_id: 3640355000000319008 }).issues, ["fixed_asset_type_id"]).code, "out_of_range");
  const page = validate("listPlans", { page: 2 ** 60 });
  assert.equal(at(page.issues, ["page"]).code, "out_of_range");
  const tags = validate("createPlan", { plan_code: "p", name: "P", recurring_price: 1, interval: 1, interval_unit: "months", tags: [{ tag_id: 2 ** 60, tag_option_id: "1" }] });
  assert.ok(at(tags.issues, ["tags", 0, "tag_id"]), JSON.stringify(tags));
  for (const id of ["3640355000000319008", 3640355000000319008n, 9007199254740991]) {
    assert.ok(validate("createFixedAsset", { ...asset, fixed_asset_type_id: id }).ok, String(id));
  }
  const sent = await c.prepare("createFixedAsset", { ...asset, fixed_asset_type_id: 3640355000000319008n });
  assert.match(sent.body, /"fixed_asset_type_id":3640355000000319008[,}]/, "a BigInt is the exact number it is");
  assert.equal(env.server.requests.length, 0);
  await stillWorks(env);
});

test("NaN and ±Infinity anywhere are issues at their path, also in fields no rule names", async () => {
  const c = client();
  for (const bad of [NaN, Infinity, -Infinity]) {
    for (const [params, path] of [
      [{ ...asset, asset_cost: bad }, ["asset_cost"]],
      [{ ...asset, custom_fields: [{ value: bad }] }, ["custom_fields", 0, "value"]],
      [{ ...asset, not_in_the_spec: { deep: [1, bad] } }, ["not_in_the_spec", "deep", 1]],
    ]) {
      const r = validate("createFixedAsset", params);
      assert.ok(at(r.issues ?? [], path), `${bad} at ${path}: ${JSON.stringify(r)}`);
      await rejection(c.createFixedAsset(params), svcError("validation"));
    }
    await rejection(c.request("POST", "books", "/fixedassets", { body: { x: [bad] } }), svcError("validation"));
    await rejection(c.request("GET", "books", "/fixedassets", { query: { x: bad } }), svcError("validation"));
  }
  assert.equal(env.server.requests.length, 0);
  await stillWorks(env);
});

test("a lone surrogate anywhere is refused: params, path params, request() path, query and body", async () => {
  env.server.reset();
  const c = client();
  for (const lone of ["\ud800", "a\udc00b", "\udbff\udbff"]) {
    assert.equal(validate("createFixedAsset", { ...asset, asset_name: lone }).ok, false);
    assert.equal(validate("createFixedAsset", { ...asset, extra: { note: lone } }).ok, false);
    const e = await rejection(c.getCurrency(lone), svcError("validation"));
    assert.deepEqual(e.issues[0].path, ["currency_id"]);
    await rejection(c.getTask("1", lone), svcError("validation"));
    await rejection(c.prepare("getCurrency", lone), svcError("validation"));
    await rejection(c.request("GET", "books", `/fixedassets/${lone}`), svcError("config"));
    await rejection(c.request("GET", "books", "/fixedassets", { query: { q: lone } }), svcError("validation"));
    await rejection(c.request("POST", "books", "/fixedassets", { body: { q: lone } }), svcError("validation"));
  }
  const real = await c.prepare("getCurrency", "\ufffd");
  assert.match(real.url, /%EF%BF%BD$/, "a real U+FFFD is sent as itself");
  assert.equal(env.server.requests.length, 0);
  await stillWorks(env);
});
