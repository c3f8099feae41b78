// The params that the validation benchmarks check: a createFixedAsset body and a watch update
// (updateNotificationChannels params), each valid and invalid, and a flat createOrganization body. The
// invalid ones break several rules at once, none of them inside a union member, so every
// implementation reports the same issues.

const tags = [{ tag_id: "3640355000000000333", tag_option_id: "3640355000000000335" }];
const customFields = [{ customfield_id: "3640355000000000401", value: "IT" }];

export const fixedAssetValid = {
  asset_name: "Laptop",
  fixed_asset_type_id: "3640355000000319008",
  asset_account_id: "3640355000000000367",
  expense_account_id: "3640355000000000421",
  depreciation_account_id: "3640355000000000367",
  depreciation_method: "declining_method",
  depreciation_frequency: "yearly",
  depreciation_percentage: 12,
  total_life: 60,
  salvage_value: 100,
  depreciation_start_date: "2024-12-17",
  description: "Work laptop",
  asset_cost: 1000,
  computation_type: "prorata_basis",
  warranty_expiry_date: "2027-12-17",
  asset_purchase_date: "2024-12-17",
  serial_no: "SN-0001",
  dep_start_value: 1000,
  notes: "Model 2024",
  tags,
  custom_fields: customFields,
};

/** Six issues: a missing required id, out of range and not allowed with straight_line, a bad date, a wrong type in a tag, an unlisted value. */
export const fixedAssetInvalid = (() => {
  const { fixed_asset_type_id, ...rest } = fixedAssetValid;
  return {
    ...rest,
    depreciation_method: "straight_line",
    depreciation_percentage: 120,
    asset_purchase_date: "2024/12/17",
    tags: [{ tag_id: false }],
    computation_type: "daily",
  };
})();

const inDays = (days) => new Date(Date.now() + days * 86_400_000).toISOString().replace(/\.\d+Z$/, "+00:00");
const field = (n) => ({ field: { api_name: `Field_${n}`, id: `57257670000000025${String(n).padStart(2, "0")}` } });
/** Ten fields in nested groups: the most a field selection may hold. */
const tenFields = [
  field(1),
  field(2),
  { group_operator: "and", group: [field(3), field(4), { group_operator: "or", group: [field(5), field(6)] }] },
  field(7),
  field(8),
  field(9),
  field(10),
];
const condition = (group) => ({
  type: "field_selection",
  module: { api_name: "Deals", id: "5725767000000002175" },
  field_selection: { group_operator: "or", group },
});

export const watchValid = {
  watch: [
    {
      channel_id: "1000000068001",
      events: ["Deals.edit", "Contacts.all"],
      notify_url: "https://hooks.example.com/svc?auth=abc",
      token: "tok-8c1f2e",
      channel_expiry: inDays(6),
      notification_condition: [condition(tenFields)],
      notify_on_related_action: false,
    },
  ],
};

/** Six issues: channel_id not a long, an unknown operation, a malformed event, not an http(s) URL, a token over 50, eleven fields. */
export const watchInvalid = {
  watch: [
    {
      ...watchValid.watch[0],
      channel_id: "abc",
      events: ["Deals.update", "bad event"],
      notify_url: "ftp://hooks.example.com/svc",
      token: "t".repeat(60),
      notification_condition: [condition([...tenFields, { group_operator: "and", group: [field(11)] }])],
    },
  ],
};

/** Seven flat fields: the four required ones (portal_name 5 to 30 letters and digits) and three optional, two of them from value sets. */
export const organizationValid = {
  name: "Zillium Inc",
  currency_code: "USD",
  time_zone: "PST",
  portal_name: "zilluminc",
  fiscal_year_start_month: "january",
  language_code: "en",
  industry_size: "small scale",
};

/** `id` names a case in the results (bench/results/*.json), so it stays fixed when a name's wording changes. */
export const CASES = [
  { id: "fixedAssetValid", name: "createFixedAsset, valid", op: "createFixedAsset", body: fixedAssetValid, ok: true },
  { id: "fixedAssetInvalid", name: "createFixedAsset, invalid (6 issues)", op: "createFixedAsset", body: fixedAssetInvalid, ok: false },
  { id: "watchValid", name: "watch update, valid (10 nested fields)", op: "updateNotificationChannels", body: watchValid, ok: true },
  { id: "watchInvalid", name: "watch update, invalid (6 issues)", op: "updateNotificationChannels", body: watchInvalid, ok: false },
  { id: "organizationValid", name: "createOrganization, valid (7 flat fields)", op: "createOrganization", body: organizationValid, ok: true },
];
