// The edge proxy in Node: a token-less browser-style Client talks to the sandbox through it. The
// proxy validates, refuses what is not allowed, adds the token and organization, and never leaks them.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client, SvcError, createProxy } from "svc-sdk";
import { startSandbox } from "./support/sandbox.mjs";
import { serveHandler } from "./support/node-handler.mjs";

const TOKEN = "proxy-secret-token-77";
let sandbox;
let proxy;
let browser;
before(async () => {
  sandbox = await startSandbox(["--token", `${TOKEN}=*`, "--no-rate-limit"]);
  const handler = createProxy({
    accessToken: TOKEN,
    organizationId: "10234695",
    apiDomain: sandbox.url,
    allow: ["listFixedAssets", "createFixedAsset", "listFixedAssetTypes", "createOrganization", "listTasks", "addExpenseAttachment", "createExpense", "listAccounts"],
  });
  proxy = await serveHandler(handler);
  browser = new Client({ apiDomain: `${proxy.url}/api/svc`, viaProxy: true });
});
after(async () => {
  await proxy.close();
  await sandbox.close();
});

test("a browser client without the token works for every allowed operation", async () => {
  const types = (await browser.listFixedAssetTypes()).items;
  const accounts = (await browser.listAccounts()).items;
  const asset = await browser.createFixedAsset({ asset_name: "Desk", fixed_asset_type_id: types[0].fixed_asset_type_id, asset_account_id: accounts[0].account_id, asset_cost: 300, asset_purchase_date: "2024-05-01" });
  assert.match(asset.fixed_asset_id, /^\d+$/);
  const page = await browser.listFixedAssets({ per_page: 1 });
  const all = [];
  for await (const a of page) all.push(a.fixed_asset_id);
  assert.ok(all.includes(asset.fixed_asset_id));
  const e = await browser.createExpense({ account_id: accounts[0].account_id, date: "2024-01-02", amount: 5 });
  assert.ok(BigInt(e.expense_id) > 2n ** 53n, "lossless through the proxy");
  const attached = await browser.addExpenseAttachment(e.expense_id, { files: [new File(["%PDF-1.4"], "r.pdf")] });
  assert.ok(Array.isArray(attached));
});

test("operations outside the allow list are refused with 403", async () => {
  await assert.rejects(browser.listPlans(), (e) => e instanceof SvcError && e.kind === "api" && e.status === 403);
  const res = await fetch(`${proxy.url}/books/v3/chartofaccounts/1`, { method: "PUT", body: "{}" });
  assert.equal(res.status, 403);
});

test("invalid bodies are refused with 400 and the issues; unknown paths with 404", async () => {
  const res = await fetch(`${proxy.url}/api/books/v3/fixedassets`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ asset_name: "x".repeat(10) }) });
  assert.equal(res.status, 400);
  const body = await res.json();
  assert.ok(body.issues.some((i) => i.code === "required"));
  assert.equal((await fetch(`${proxy.url}/api/nothing/here`)).status, 404);
  const json = { "content-type": "application/json" };
  assert.equal((await fetch(`${proxy.url}/books/v3/fixedassets`, { method: "POST", headers: json, body: "not json" })).status, 400);
});

test("the token never appears in what the browser receives", async () => {
  for (const [path, init] of [
    ["/books/v3/fixedassets", {}],
    ["/books/v3/fixedassets", { method: "POST", body: "{}" }],
    ["/billing/v1/plans", {}],
    ["/nowhere", {}],
  ]) {
    const res = await fetch(proxy.url + path, init);
    const text = await res.text();
    assert.ok(!text.includes(TOKEN), path);
    res.headers.forEach((v) => assert.ok(!v.includes(TOKEN), path));
  }
});

test("a proxy needs its allow list and its token", () => {
  assert.throws(() => createProxy({ accessToken: TOKEN, organizationId: "1" }), (e) => e instanceof SvcError && e.kind === "config");
  assert.throws(() => createProxy({ accessToken: TOKEN, allow: ["nope"] }), (e) => e instanceof SvcError && e.kind === "config");
  assert.throws(() => createProxy({ allow: ["listPlans"] }), (e) => e instanceof SvcError && e.kind === "config");
});
