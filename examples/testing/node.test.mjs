// Your code's test against the in-process sandbox, with node:test: `node --test`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Client, SvcError } from "svc-sdk";
import { Sandbox } from "svc-sdk/testing";

const sandbox = new Sandbox();
const client = new Client({ accessToken: "dev-token", organizationId: sandbox.organizationId, apiDomain: sandbox.url, fetch: sandbox.fetch });

test("a fixed asset type, created, is listed", async () => {
  sandbox.reset();
  const type = await client.createFixedAssetType({ fixed_asset_type_name: "Vans", depreciation_method: "straight_line", depreciation_frequency: "monthly" });
  const listed = await client.listFixedAssetTypes();
  assert.ok(listed.items.some((t) => t.fixed_asset_type_id === type.fixed_asset_type_id));
  assert.deepEqual(sandbox.requests().map((r) => [r.operationId, r.status]), [["createFixedAssetType", 201], ["listFixedAssetTypes", 200]]);
});

test("a token the service refuses is an unauthorized error", async () => {
  const revoked = new Sandbox({ devToken: false });
  const stranger = new Client({ accessToken: "dev-token", organizationId: revoked.organizationId, apiDomain: revoked.url, fetch: revoked.fetch });
  await assert.rejects(stranger.getAccount("1"), (e) => e instanceof SvcError && e.kind === "unauthorized");
});
