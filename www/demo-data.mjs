// A few fixed assets for the demo, so the list has pages to turn. Used by `npm start` (on a fresh
// sandbox) and by the e2e test. Talks to the service directly, with the token: server side only.
import { Client } from "svc-sdk";

const ASSETS = [
  ["Standing desk", 640, "2024-01-15"],
  ["Laptop 14-inch", 1899.99, "2024-02-03"],
  ["Espresso machine", 1250, "2024-03-11"],
  ["3D printer", 2399, "2024-04-22"],
  ["Server rack", 3100, "2024-06-07"],
  ["Office chairs (12)", 4380, "2024-08-19"],
  ["Delivery van", 38500, "2024-10-01"],
];

/** Creates the demo assets (all of them, or the first `count`); resolves with them. */
export async function seedFixedAssets({ apiDomain, accessToken, organizationId, count = ASSETS.length }) {
  const client = new Client({ apiDomain, accessToken, organizationId });
  const [types, accounts] = await Promise.all([client.listFixedAssetTypes(), client.listAccounts()]);
  const account = accounts.items.find((a) => a.account_type === "fixed_asset") ?? accounts.items[0];
  const created = [];
  for (const [i, [asset_name, asset_cost, asset_purchase_date]] of ASSETS.slice(0, count).entries()) {
    const type = types.items[i % types.items.length];
    created.push(
      await client.createFixedAsset({
        asset_name,
        asset_cost,
        asset_purchase_date,
        fixed_asset_type_id: type.fixed_asset_type_id,
        asset_account_id: account.account_id,
        depreciation_method: type.depreciation_method ?? "straight_line",
        ...(type.depreciation_method?.includes("declining") && type.depreciation_percentage !== undefined && { depreciation_percentage: type.depreciation_percentage }),
      }),
    );
  }
  return created;
}
