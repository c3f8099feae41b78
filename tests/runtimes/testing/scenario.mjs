// The scenario of svc-sdk/testing, shared by the Node test and the other runtimes: a client through a
// fetch (the in-process sandbox's or the network's) creates fixed asset types, lists them two a page,
// updates and deletes one, uploads and downloads an expense's receipt, meets an unknown and a revoked
// token and a token without the scope to write (401, as the sandbox answers it), then meets 429s with Retry-After from a sandbox of
// `FAULTS`; `recorded` logs each answer.
// Plain checks, so the scenario runs in a page as well as in a server runtime.
const assert = {
  ok(value, message = "not true") {
    if (!value) throw new Error(message);
  },
  equal(actual, expected) {
    if (actual !== expected) throw new Error(`${JSON.stringify(actual)} is not ${JSON.stringify(expected)}`);
  },
  async rejects(promise, check) {
    const outcome = await promise.then(() => "resolved", (e) => (check(e) ? null : `rejected with ${e}`));
    if (outcome) throw new Error(`expected a rejection of that kind: ${outcome}`);
  },
};

const all = async (page) => {
  const out = [];
  for await (const x of page) out.push(x);
  return out;
};

/** The scenario's tokens besides dev-token: `gone-token` (every scope), which it revokes, and `reader-token`. */
export const TOKENS = { "gone-token": "*", "reader-token": ["SvcBooks.fixedasset.READ"] };

/** The options of the faulted sandbox: half the calls answered 429, drawn from a fixed seed. */
export const FAULTS = { faults: "429=0.5", seed: 7 };

/** The sandbox binary's flags for `TOKENS` and for `FAULTS`. */
export const BINARY_FLAGS = {
  tokens: Object.entries(TOKENS).flatMap(([name, scopes]) => ["--token", `${name}=${scopes}`]),
  faults: ["--faults", FAULTS.faults, "--seed", String(FAULTS.seed)],
};

/** A fetch that records each answer's status, Retry-After and body, with the origin and the clock's times masked. */
export function recorded(fetch, origin, log) {
  return async (input, init) => {
    const res = await fetch(input, init);
    const body = (await res.clone().text()).replaceAll(origin, "<origin>").replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:?\d\d/g, "<time>");
    log.push({ url: new Request(input, init).url.replace(origin, ""), status: res.status, retryAfter: res.headers.get("retry-after"), body });
    return res;
  };
}

/**
 * Runs the scenario with the entry's `Client` and `SvcError` against a sandbox of `TOKENS`; `faulted` is
 * the `{ url, fetch }` of a sandbox of `FAULTS` (none: the 429 step is left out, as the bench leaves it).
 */
export async function scenario({ Client, SvcError }, url, fetch, organizationId, faulted) {
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
  const [account] = (await client.listAccounts({ per_page: 1 })).items;
  const expense = await client.createExpense({ account_id: account.account_id, date: "2024-01-02", amount: 112.5 });
  await client.addExpenseReceipt(expense.expense_id, { receipt: { name: "scan.png", data: new Uint8Array([137, 80, 78, 71]) } });
  const receipt = await client.getExpenseReceipt(expense.expense_id);
  assert.equal(receipt.type, "image/png");
  assert.equal(new Uint8Array(await receipt.arrayBuffer())[1], 80);
  const unauthorized = (e) => e instanceof SvcError && e.status === 401;
  await assert.rejects(new Client({ accessToken: "no-such-token", organizationId, apiDomain: url, fetch, maxRetries: 0 }).listFixedAssetTypes(), unauthorized);
  const gone = new Client({ accessToken: "gone-token", organizationId, apiDomain: url, fetch, maxRetries: 0 });
  await gone.listFixedAssetTypes();
  assert.equal((await fetch(`${url}/__sandbox/tokens/gone-token/revoke`, { method: "POST" })).status, 200);
  await assert.rejects(gone.listFixedAssetTypes(), unauthorized);
  const reader = new Client({ accessToken: "reader-token", organizationId, apiDomain: url, fetch, maxRetries: 0 });
  assert.ok((await reader.listFixedAssetTypes()).items.length >= 2);
  const forbidden = (e) => e instanceof SvcError && e.status === 401 && e.message.includes("without the scope SvcBooks.fixedasset.CREATE that createFixedAssetType needs");
  await assert.rejects(reader.createFixedAssetType({ fixed_asset_type_name: "Cars", depreciation_method: "straight_line", depreciation_frequency: "monthly" }), forbidden);
  if (!faulted) return;
  const limited = new Client({ accessToken: "dev-token", organizationId, apiDomain: faulted.url, fetch: faulted.fetch, maxRetries: 0 });
  let refused;
  for (let i = 0; i < 12 && !refused; i++) refused = await limited.listFixedAssetTypes().then(() => undefined, (e) => e);
  assert.ok(refused instanceof SvcError && refused.kind === "rate_limited", `a 429 in 12 calls: ${refused}`);
  assert.ok(refused.status === 429 && refused.retryAfterMs === 1000, `Retry-After: ${refused.retryAfterMs}`);
  const patient = new Client({ accessToken: "dev-token", organizationId, apiDomain: faulted.url, fetch: faulted.fetch, maxRetries: 4 });
  const made = await patient.createFixedAssetType({ fixed_asset_type_name: "Cranes", depreciation_method: "straight_line", depreciation_frequency: "monthly" });
  assert.equal(made.fixed_asset_type_name, "Cranes");
}
