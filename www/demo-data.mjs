// A few fixed assets for the demo, so the list has pages to turn and statuses to filter by. Used by
// `npm start` (on a fresh sandbox) and by the browser tests, server side, talking to the service
// directly with the token; and by the static build (src/static.ts) in the page, on the sandbox running
// there. Each asset has the type and the asset account it belongs to; those the sandbox does not seed
// are created first.
import { Client } from "svc-sdk";

const TYPES = [
  { fixed_asset_type_name: "Computer equipment", depreciation_method: "straight_line", depreciation_frequency: "monthly", total_life: 36, salvage_value: 0, computation_type: "prorata_basis" },
  { fixed_asset_type_name: "Motor vehicles", depreciation_method: "declining_method", depreciation_frequency: "yearly", depreciation_percentage: 20, total_life: 96, salvage_value: 2000, computation_type: "prorata_basis" },
];
const ACCOUNTS = [
  { account_name: "Furniture and Fixtures", account_code: "1510", account_type: "fixed_asset" },
  { account_name: "Computer Equipment", account_code: "1520", account_type: "fixed_asset" },
  { account_name: "Motor Vehicles", account_code: "1530", account_type: "fixed_asset" },
];
const ASSETS = [
  { asset_name: "Standing desk", type: "Furniture", account: "Furniture and Fixtures", asset_cost: 640, asset_purchase_date: "2024-01-15", active: true },
  { asset_name: "Laptop 14-inch", type: "Computer equipment", account: "Computer Equipment", asset_cost: 1899.99, asset_purchase_date: "2024-02-03", active: true },
  { asset_name: "Espresso machine", type: "Machines", account: "Office Equipment", asset_cost: 1250, asset_purchase_date: "2024-03-11", active: true },
  { asset_name: "3D printer", type: "Machines", account: "Office Equipment", asset_cost: 2399, asset_purchase_date: "2024-04-22", active: false },
  { asset_name: "Server rack", type: "Computer equipment", account: "Computer Equipment", asset_cost: 3100, asset_purchase_date: "2024-06-07", active: true },
  { asset_name: "Office chairs (12)", type: "Furniture", account: "Furniture and Fixtures", asset_cost: 4380, asset_purchase_date: "2024-08-19", active: false },
  { asset_name: "Delivery van", type: "Motor vehicles", account: "Motor Vehicles", asset_cost: 38500, asset_purchase_date: "2024-10-01", active: true },
];

/** The items by their `key`, with those of `wanted` that are missing created by `create`. */
async function byName(items, key, wanted, create) {
  const found = new Map(items.map((x) => [x[key], x]));
  for (const fields of wanted) if (!found.has(fields[key])) found.set(fields[key], await create(fields));
  return found;
}

/**
 * Creates the demo assets (all of them, or the first `count`), activating those in use; resolves with
 * them. `fetch`: the client's (the static build passes an in-process sandbox's).
 */
export async function seedFixedAssets({ apiDomain, accessToken, organizationId, fetch, count = ASSETS.length }) {
  const client = new Client({ apiDomain, accessToken, organizationId, ...(fetch && { fetch }) });
  const [typePage, accountPage] = await Promise.all([client.listFixedAssetTypes(), client.listAccounts({ per_page: 200 })]);
  // New types book their depreciation as the seeded ones do.
  const { expense_account_id, depreciation_account_id } = typePage.items[0] ?? {};
  const types = await byName(typePage.items, "fixed_asset_type_name", TYPES, (t) => client.createFixedAssetType({ ...t, expense_account_id, depreciation_account_id }));
  const accounts = await byName(accountPage.items, "account_name", ACCOUNTS, (a) => client.createAccount(a));
  const created = [];
  for (const { type: typeName, account, active, ...fields } of ASSETS.slice(0, count)) {
    const type = types.get(typeName);
    const asset = await client.createFixedAsset({
      ...fields,
      fixed_asset_type_id: type.fixed_asset_type_id,
      asset_account_id: accounts.get(account).account_id,
      depreciation_method: type.depreciation_method ?? "straight_line",
      ...(type.depreciation_method?.includes("declining") && type.depreciation_percentage !== undefined && { depreciation_percentage: type.depreciation_percentage }),
    });
    if (active) await client.markFixedAssetActive(asset.fixed_asset_id);
    created.push(asset);
  }
  return created;
}

const CONTACTS = [
  { contact_name: "Harbor Supplies", company_name: "Harbor Supplies Ltd", email: "orders@harbor-supplies.example" },
  { contact_name: "Northwind Traders", company_name: "Northwind Traders Inc", email: "accounts@northwind.example" },
  { contact_name: "Blue Fern Studio", company_name: "Blue Fern Studio", email: "hello@bluefern.example" },
];

/** Creates the demo contacts, which a connected organization shows (the "Connect" view); resolves with them. */
export async function seedContacts({ apiDomain, accessToken, organizationId }) {
  const client = new Client({ apiDomain, accessToken, organizationId });
  const created = [];
  for (const contact of CONTACTS) created.push(await client.createContact(contact));
  return created;
}
