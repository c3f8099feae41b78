// Issue 36, item 1: no number changes between the user and the service, either way, on any path. A
// number a double holds stays a number; any other reaches the user as an ExactNumber (its text) and
// goes back byte for byte, through the client and through the proxy.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Client, ExactNumber, SvcError, createProxy, validate } from "svc-sdk";
import * as validateEntry from "svc-sdk/validate";
import { ORG, TOKEN, rejection, setUp, stillWorks, svcError, thrown } from "./support/hardening.mjs";
import { serveHandler } from "./support/node-handler.mjs";
import { startSandbox } from "./support/sandbox.mjs";
import { Sandbox } from "svc-sdk/testing";

const env = setUp();
const ASSET = { asset_name: "Laptop", fixed_asset_type_id: "1", asset_account_id: "2", asset_cost: 100, asset_purchase_date: "2024-01-01" };
const client = () => new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.server.url, maxRetries: 0 });

/** An asset answer whose numbers a double cannot hold, beside ones it can, written as text. */
const ODD = `{"code":0,"message":"ok","fixed_asset":{"fixed_asset_id":12345678901234567891,"asset_name":"Laptop",` +
  `"fixed_asset_type_id":"1","asset_account_id":"2","asset_purchase_date":"2024-01-01",` +
  `"asset_cost":9007199254740993,"salvage_value":1000.00000000000000000000000001,"total_life":1e400,` +
  `"current_asset_value":-0,"dep_start_value":1.50,"legacy_ref":12345678901234567891,"tiny":1e-400,` +
  `"custom_fields":[{"customfield_id":"7","value":3.14159265358979323846264338327950288}],"entry_number":1.5e308,"meta":{"refs":[3.14159265358979323846264338327950288,2]}}}`;

test("answers keep every number: exact ones as ExactNumber, the rest as numbers", async () => {
  env.server.reset();
  env.server.reply({ body: ODD });
  const a = await client().updateFixedAsset("1", ASSET);
  assert.equal(a.fixed_asset_id, "12345678901234567891", "an id is a string of its digits");
  for (const [key, text] of [["asset_cost", "9007199254740993"], ["salvage_value", "1000.00000000000000000000000001"], ["total_life", "1e400"], ["legacy_ref", "12345678901234567891"], ["tiny", "1e-400"]]) {
    assert.ok(a[key] instanceof ExactNumber, `${key}: ${a[key]}`);
    assert.equal(a[key].text, text);
    assert.equal(String(a[key]), text);
  }
  assert.equal(a.custom_fields[0].value.text, "3.14159265358979323846264338327950288");
  assert.ok(Object.is(a.current_asset_value, -0), "-0 is a number a double holds");
  assert.equal(a.dep_start_value, 1.5);
  assert.equal(a.entry_number, 1.5e308);
  assert.equal(Number(a.total_life), Infinity, "Number() rounds, as asked");
  assert.equal(JSON.stringify({ n: a.asset_cost }), '{"n":"9007199254740993"}');
});

test("a read-modify-write sends back every number byte for byte", async () => {
  env.server.reset();
  env.server.reply({ body: ODD }, { body: ODD });
  const c = client();
  // custom_fields' values are strings in a request (a rule of the row): this answer's number would be refused.
  const { fixed_asset_id, custom_fields, ...rest } = await c.updateFixedAsset("1", ASSET);
  assert.equal(custom_fields.length, 1);
  await c.updateFixedAsset(fixed_asset_id, rest);
  const sent = env.server.requests[1].text;
  for (const kept of ['"asset_cost":9007199254740993', '"salvage_value":1000.00000000000000000000000001', '"total_life":1e400',
    '"current_asset_value":-0', '"legacy_ref":12345678901234567891', '"tiny":1e-400', '"refs":[3.14159265358979323846264338327950288,2]',
    // A number a double holds is a JS number: its value comes back, in JS's spelling.
    '"entry_number":1.5e+308', '"dep_start_value":1.5']) {
    assert.ok(sent.includes(kept), `${kept} in ${sent}`);
  }
  assert.match(env.server.requests[1].url, /\/fixedassets\/12345678901234567891\?/);
  await stillWorks(env);
});

test("ExactNumber, BigInt and -0 in params are sent as the numbers they are", async () => {
  env.server.reset();
  const c = client();
  const prepared = await c.prepare("updateFixedAsset", "1", {
    ...ASSET, asset_cost: new ExactNumber("9007199254740993"), salvage_value: 12345678901234567891n, current_asset_value: -0, extra: [new ExactNumber(-0), new ExactNumber(1e21)],
  });
  for (const kept of ['"asset_cost":9007199254740993', '"salvage_value":12345678901234567891', '"current_asset_value":-0', '"extra":[-0,1e+21]']) {
    assert.ok(prepared.body.includes(kept), `${kept} in ${prepared.body}`);
  }
  assert.deepEqual(validate("listPlans", { page: 5n }), { ok: true }, "a BigInt page is the number it is");
  assert.deepEqual(validateEntry.validate("updateFixedAsset", { ...ASSET, asset_cost: new validateEntry.ExactNumber("12.50") }), { ok: true });
  const big = validate("listPlans", { page: 2n ** 60n });
  assert.equal(big.issues[0].code, "out_of_range");
  const id = await c.prepare("updateFixedAsset", "1", { ...ASSET, fixed_asset_type_id: 3640355000000319008n });
  assert.match(id.body, /"fixed_asset_type_id":3640355000000319008/, "a BigInt id is sent whole");
  assert.ok(new validateEntry.ExactNumber("1") instanceof ExactNumber, "an ExactNumber of either entry is one");
  assert.equal(env.server.requests.length, 0);
});

test("ExactNumber refuses what is not a number, with a config SvcError", () => {
  for (const bad of ["", "1.", "NaN", "0x10", " 1", "1e", NaN, Infinity, null, undefined, {}, "12345678901234567891a"]) {
    const e = thrown(() => new ExactNumber(bad), svcError("config"));
    assert.match(e.message, /ExactNumber takes the text of a JSON number/);
  }
  assert.equal(new ExactNumber(-0).text, "-0");
  assert.equal(new ExactNumber(12n).text, "12");
  assert.equal(new ExactNumber("-1.0E+400").text, "-1.0E+400");
  assert.ok(Object.isFrozen(new ExactNumber("1")));
});

test("an answer whose key is the exact-number marker's is a decode error, never an ExactNumber", async () => {
  env.server.reset();
  for (const body of ['{"code":0,"fixed_asset":{"$svc_exact":"9007199254740993"}}', '{"code":0,"fixed_asset":{"a":[{"\\u0024svc_exact":"1"}]}}']) {
    env.server.reply({ body });
    const e = await rejection(client().updateFixedAsset("1", ASSET), svcError("decode"));
    assert.match(e.message, /\$svc_exact/);
  }
  await stillWorks(env);
});

test("the proxy forwards each number as the browser wrote it, and lets no other organization through", async () => {
  env.server.reset();
  env.server.handle(() => ({ status: 201, body: ODD }));
  const proxy = await serveHandler(createProxy({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.server.url, allow: ["createFixedAsset", "listFixedAssets"] }));
  try {
    const body = '{"asset_name":"Laptop","asset_purchase_date":"2024-01-01","fixed_asset_type_id":"1","asset_account_id":"2","asset_cost":9007199254740993,' +
      '"salvage_value":1000.00000000000000000000000001,"current_asset_value":-0,"total_life":1e400,"organization_id":"666"}';
    const res = await fetch(`${proxy.url}/books/v3/fixedassets?organization_id=777`, { method: "POST", headers: { "content-type": "application/json" }, body });
    assert.equal(res.status, 201, await res.clone().text());
    const up = env.server.requests.at(-1);
    for (const kept of ['"asset_cost":9007199254740993', '"salvage_value":1000.00000000000000000000000001', '"current_asset_value":-0', '"total_life":1e400']) {
      assert.ok(up.text.includes(kept), `${kept} in ${up.text}`);
    }
    assert.ok(!up.text.includes("666") && !up.url.includes("777"), `${up.url} ${up.text}`);
    assert.ok((await res.text()).includes('"asset_cost":9007199254740993'), "the answer passes back as the service wrote it");
    const before = env.server.requests.length;
    // Every spelling a server may read as organization_id (issue 46, item 3): a page reaches no other organization.
    const spellings = ["organization_id+=6", "Organization_ID=6", "%20organization_id=6", "organization_id[]=6", "organization_id%5B%5D=6",
      "organization_id[0]=6", "organization_id%00=6", "organization_id%00x=6", "organization%255Fid=6", "organization.id=6", "organizationId=6",
      "ORGAN%C4%B0ZAT%C4%B0ON_%C4%B0D=6", "organ%E2%80%8Bization_id=6", "%EF%BD%8F%EF%BD%92%EF%BD%87anization_id=6"];
    for (const q of spellings) {
      assert.equal((await fetch(`${proxy.url}/books/v3/fixedassets?${q}&page=2`)).status, 201, q);
      const url = env.server.requests.at(-1).url;
      assert.deepEqual([...new URL(url, "http://x").searchParams], [["organization_id", ORG], ["page", "2"]], `${q}: ${url}`);
    }
    const bad = await fetch(`${proxy.url}/books/v3/fixedassets`, { method: "POST", headers: { "content-type": "application/json" }, body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) });
    assert.equal(bad.status, 400);
    assert.match((await bad.json()).message, /not UTF-8/);
    assert.equal(env.server.requests.length, before + spellings.length, "the bad body was not forwarded");
  } finally {
    await proxy.close();
  }
  await stillWorks(env);
});

test("the sandbox, binary and in-process, keeps every number a record was created or seeded with", async () => {
  const kept = { asset_cost: "9007199254740993", salvage_value: "1000.00000000000000000000000001", total_life: "1e400", legacy_ref: "12345678901234567891", tiny: "1e-400" };
  const params = { ...ASSET, ...Object.fromEntries(Object.entries(kept).map(([k, v]) => [k, new ExactNumber(v)])), current_asset_value: -0, meta: { refs: [new ExactNumber("3.14159265358979323846264338327950288"), 2] } };
  const check = (a, where) => {
    for (const [key, text] of Object.entries(kept)) {
      assert.ok(a[key] instanceof ExactNumber, `${where}: ${key}: ${a[key]}`);
      assert.equal(a[key].text, text, `${where}: ${key}`);
    }
    assert.ok(Object.is(a.current_asset_value, -0), `${where}: -0`);
    assert.equal(a.meta.refs[0].text, "3.14159265358979323846264338327950288", where);
  };
  const binary = await startSandbox();
  const inProcess = new Sandbox();
  try {
    for (const [where, url, fetch_, org] of [["the binary", binary.url, fetch, "10234695"], ["svc-sdk/testing", inProcess.url, inProcess.fetch, inProcess.organizationId]]) {
      const c = new Client({ accessToken: "dev-token", organizationId: org, apiDomain: url, fetch: fetch_, maxRetries: 0 });
      const made = await c.createFixedAsset(params);
      check(made, `${where}, created`);
      check(await c.getFixedAsset(made.fixed_asset_id), `${where}, got`);
      const listed = await c.listFixedAssets({ sort_column: "asset_cost" });
      assert.equal(listed.items.find((a) => a.fixed_asset_id === made.fixed_asset_id).asset_cost.text, kept.asset_cost, where);
    }
    const seeded = inProcess.seed("createFixedAsset", { ...params, asset_name: "Seeded" });
    check(seeded, "svc-sdk/testing, what seed gave");
    assert.equal(typeof seeded.fixed_asset_id, "string", "seed gives ids as the client does");
    const c = new Client({ accessToken: "dev-token", organizationId: inProcess.organizationId, apiDomain: inProcess.url, fetch: inProcess.fetch, maxRetries: 0 });
    check(await c.getFixedAsset(seeded.fixed_asset_id), "svc-sdk/testing, seeded");
  } finally {
    await binary.close();
  }
});
