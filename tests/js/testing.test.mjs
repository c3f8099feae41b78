// svc-sdk/testing through the installed package: the sandbox's own Rust handling in-process behind a
// standard fetch drives a Client (create, pages, update, delete, 401s, a 429 with Retry-After), and the
// same scenario against the binary over loopback gives the same status and body, request by request.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Client, SvcError } from "svc-sdk";
import { Sandbox } from "svc-sdk/testing";
import { startSandbox } from "./support/sandbox.mjs";

const all = async (page) => {
  const out = [];
  for await (const x of page) out.push(x);
  return out;
};

/** A fetch that records each answer's status and body, with the origin and the clock's times masked. */
function recorded(fetch, origin, log) {
  return async (input, init) => {
    const res = await fetch(input, init);
    const body = (await res.clone().text()).replaceAll(origin, "<origin>").replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:?\d\d/g, "<time>");
    log.push({ url: new Request(input, init).url.replace(origin, ""), status: res.status, body });
    return res;
  };
}

/** The scenario: fixed asset types created, listed two a page, updated, deleted; an unknown and a revoked token. */
async function scenario(url, fetch, organizationId) {
  const client = new Client({ accessToken: "dev-token", organizationId, apiDomain: url, fetch, maxRetries: 0 });
  const created = [];
  for (const name of ["Vans", "Drones", "Servers"]) {
    created.push(await client.createFixedAssetType({ fixed_asset_type_name: name, depreciation_method: "straight_line", depreciation_frequency: "monthly" }));
  }
  const listed = await all(await client.listFixedAssetTypes({ per_page: 2 }));
  assert.ok(created.every((c) => listed.some((x) => x.fixed_asset_type_id === c.fixed_asset_type_id)), "every created type is listed");
  const [type] = created;
  const full = { fixed_asset_type_name: "Trucks", expense_account_id: listed[0].expense_account_id, depreciation_account_id: listed[0].depreciation_account_id, depreciation_method: "declining_method", depreciation_frequency: "yearly", depreciation_percentage: 20, total_life: 48, salvage_value: 0, computation_type: "no_prorata" };
  assert.equal((await client.updateFixedAssetType(type.fixed_asset_type_id, full)).fixed_asset_type_name, "Trucks");
  await client.deleteFixedAssetType(type.fixed_asset_type_id);
  assert.ok(!(await all(await client.listFixedAssetTypes({ per_page: 2 }))).some((t) => t.fixed_asset_type_id === type.fixed_asset_type_id));
  const unauthorized = (e) => e instanceof SvcError && e.status === 401;
  await assert.rejects(new Client({ accessToken: "no-such-token", organizationId, apiDomain: url, fetch, maxRetries: 0 }).listFixedAssetTypes(), unauthorized);
  const gone = new Client({ accessToken: "gone", organizationId, apiDomain: url, fetch, maxRetries: 0 });
  await gone.listFixedAssetTypes();
  assert.equal((await fetch(`${url}/__sandbox/tokens/gone/revoke`, { method: "POST" })).status, 200);
  await assert.rejects(gone.listFixedAssetTypes(), unauthorized);
}

test("a client drives the in-process sandbox: create, pages, update, delete, unknown and revoked tokens", async () => {
  const sandbox = new Sandbox({ tokens: { gone: "*" } });
  assert.equal(sandbox.url, "http://sandbox.localhost");
  await scenario(sandbox.url, sandbox.fetch, sandbox.organizationId);
  const log = sandbox.requests();
  assert.deepEqual(log.slice(0, 4).map((r) => [r.method, r.operationId, r.status]), [["POST", "createFixedAssetType", 201], ["POST", "createFixedAssetType", 201], ["POST", "createFixedAssetType", 201], ["GET", "listFixedAssetTypes", 200]]);
  assert.ok(log.some((r) => r.status === 401));
  sandbox.reset();
  assert.deepEqual(sandbox.requests(), []);
});

test("a 429 fault answers with Retry-After, and the client reports it as rate_limited", async () => {
  const sandbox = new Sandbox({ faults: "429=1", seed: 7 });
  const res = await sandbox.fetch(`${sandbox.url}/books/v3/fixedassettypes?organization_id=${sandbox.organizationId}`, { headers: { authorization: "Svc-oauthtoken dev-token" } });
  assert.equal(res.status, 429);
  assert.equal(res.headers.get("retry-after"), "1");
  const client = new Client({ accessToken: "dev-token", organizationId: sandbox.organizationId, apiDomain: sandbox.url, fetch: sandbox.fetch, maxRetries: 0 });
  await assert.rejects(client.listFixedAssetTypes(), (e) => e instanceof SvcError && e.kind === "rate_limited" && e.retryAfterMs === 1000);
});

test("snapshot and restore bring the records back", async () => {
  const sandbox = new Sandbox();
  const client = new Client({ accessToken: "dev-token", organizationId: sandbox.organizationId, apiDomain: sandbox.url, fetch: sandbox.fetch, maxRetries: 0 });
  const before = (await client.listFixedAssetTypes()).items.length;
  const snapshot = sandbox.snapshot();
  await client.createFixedAssetType({ fixed_asset_type_name: "Boats", depreciation_method: "straight_line", depreciation_frequency: "monthly" });
  assert.equal((await client.listFixedAssetTypes()).items.length, before + 1);
  sandbox.restore(snapshot);
  assert.equal((await client.listFixedAssetTypes()).items.length, before);
});

test("the same scenario against the binary gives the same status and body, request by request", async () => {
  const inProcess = [];
  const sandbox = new Sandbox({ tokens: { gone: "*" } });
  await scenario(sandbox.url, recorded(sandbox.fetch, sandbox.url, inProcess), sandbox.organizationId);
  const binary = await startSandbox(["--token", "gone=*"]);
  const overLoopback = [];
  try {
    await scenario(binary.url, recorded(fetch, binary.url, overLoopback), "10234695");
  } finally {
    await binary.close();
  }
  assert.ok(inProcess.length >= 10, `${inProcess.length} requests`);
  assert.deepEqual(inProcess, overLoopback);
});
