// The rules of createFixedAsset and createOrganization (crates/svc-core/src/model/books/) and
// updateNotificationChannels (crates/svc-core/src/model/crm/) in valibot 1.x, for the validation
// benchmark. Unknown keys are kept (looseObject), absent and null optionals pass (nullish), a blank
// required string is missing, every issue is reported in one pass (the cross-field checks are
// rawCheck actions, which valibot runs even when a field already failed).
import * as v from "valibot";
import {
  COMPUTATION_TYPES, DEPRECIATION_FREQUENCIES, DEPRECIATION_METHODS, FISCAL_MONTHS, INDUSTRY_SIZES, MAX_FIELDS,
  countFields, eventIssue, expiryInRange, given, isDate, isHttpUrl, notBlank, isPortalName, oneOfUnlessBlank, parseTimestamp,
} from "./rules.mjs";

const isObject = (x) => x !== null && typeof x === "object" && !Array.isArray(x);
const at = (input, ...keys) => {
  const path = [];
  let value = input;
  for (const key of keys) {
    const parent = value;
    value = isObject(parent) ? parent[key] : undefined;
    path.push({ type: "object", origin: "value", input: parent, key, value });
  }
  return path;
};

// Kind::Str, Kind::Num, Kind::Id (a non-empty string or an integer), required and optional.
const reqStr = (name) => v.pipe(v.string(), v.check(notBlank, `${name} is required`));
const optStr = v.nullish(v.string());
const optNum = v.nullish(v.number());
const int = v.pipe(v.number(), v.integer());
const id = v.union([v.pipe(v.string(), v.minLength(1)), int]);
const reqId = (name) => v.union([reqStr(name), int]);
const optId = v.nullish(id);
const date = v.pipe(v.string(), v.check(isDate, "must be a date yyyy-mm-dd"));

const tag = v.looseObject({ tag_id: optId, tag_option_id: optId });
const customField = v.looseObject({ customfield_id: optId, value: optStr });

export const createFixedAsset = v.pipe(
  v.looseObject({
    asset_name: reqStr("asset_name"),
    fixed_asset_type_id: reqId("fixed_asset_type_id"),
    asset_account_id: reqId("asset_account_id"),
    expense_account_id: optId,
    depreciation_account_id: optId,
    depreciation_method: v.nullish(v.picklist(DEPRECIATION_METHODS)),
    depreciation_frequency: v.nullish(v.picklist(DEPRECIATION_FREQUENCIES)),
    depreciation_percentage: v.nullish(v.pipe(v.number(), v.minValue(0), v.maxValue(100))),
    total_life: optNum,
    salvage_value: optNum,
    depreciation_start_date: v.nullish(date),
    description: optStr,
    notes: optStr,
    serial_no: optStr,
    asset_cost: v.number(),
    asset_purchase_date: v.pipe(reqStr("asset_purchase_date"), v.check(isDate, "must be a date yyyy-mm-dd")),
    computation_type: v.nullish(v.picklist(COMPUTATION_TYPES)),
    warranty_expiry_date: v.nullish(date),
    dep_start_value: optNum,
    tags: v.nullish(v.array(tag)),
    custom_fields: v.nullish(v.array(customField)),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    const o = dataset.value;
    if (isObject(o) && o.depreciation_method === "straight_line" && given(o.depreciation_percentage)) {
      addIssue({
        message: "depreciation_percentage applies only to declining methods, not to straight_line",
        path: at(o, "depreciation_percentage"),
      });
    }
  }),
);

// ---- the watch update ----

const apiRef = v.looseObject({ api_name: optStr, id: optId });
const fieldMember = v.looseObject({ field: apiRef });
const member = v.lazy(() => v.union([fieldMember, group]));
const group = v.looseObject({
  group_operator: v.picklist(["and", "or"]),
  group: v.pipe(v.array(member), v.minLength(1, "group needs at least one member")),
});

const condition = v.pipe(
  v.looseObject({
    type: v.picklist(["field_selection"]),
    module: apiRef,
    field_selection: group,
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    const c = dataset.value;
    const members = isObject(c) && isObject(c.field_selection) ? c.field_selection.group : undefined;
    if (!Array.isArray(members)) return;
    const n = countFields(members);
    if (n > MAX_FIELDS) {
      addIssue({
        message: `a field selection may hold at most ${MAX_FIELDS} fields, however nested; it has ${n}`,
        path: at(c, "field_selection", "group"),
      });
    }
  }),
);

const event = v.pipe(
  v.string(),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const issue = eventIssue(dataset.value);
    if (issue) addIssue({ message: issue[1] });
  }),
);

const channel = v.looseObject({
  channel_id: v.union([int, v.pipe(v.string(), v.regex(/^[0-9]+$/, "channel_id must be an integer or a string of digits (a blank one is missing)"))]),
  events: v.pipe(v.array(event), v.minLength(1, "events needs at least one member")),
  notify_url: v.pipe(reqStr("notify_url"), v.check(isHttpUrl, "notify_url must be an absolute http:// or https:// URL")),
  token: v.nullish(v.pipe(v.string(), v.maxLength(50))),
  channel_expiry: v.nullish(
    v.pipe(
      v.string(),
      v.check((s) => parseTimestamp(s) !== null, "channel_expiry must be a date-time with a UTC offset"),
      v.check(expiryInRange, "channel_expiry must be between now and one week from now"),
    ),
  ),
  notification_condition: v.nullish(v.pipe(v.array(condition), v.maxLength(2))),
  notify_on_related_action: v.nullish(v.boolean()),
});

export const updateNotificationChannels = v.looseObject({
  watch: v.pipe(v.array(channel), v.minLength(1, "watch needs at least one member")),
});

// ---- createOrganization ----

const address = v.looseObject({ street_address1: optStr, street_address2: optStr, city: optStr, state: optStr, country: optStr, zip: optStr });

export const createOrganization = v.looseObject({
  name: reqStr("name"),
  currency_code: reqStr("currency_code"),
  time_zone: reqStr("time_zone"),
  portal_name: v.pipe(reqStr("portal_name"), v.check(isPortalName, "portal_name must be 5 to 30 letters and digits")),
  fiscal_year_start_month: v.nullish(v.picklist(FISCAL_MONTHS)),
  date_format: optStr,
  field_separator: optStr,
  language_code: optStr,
  industry_type: optStr,
  industry_size: v.nullish(v.pipe(v.string(), v.check(oneOfUnlessBlank(INDUSTRY_SIZES), `industry_size must be one of ${INDUSTRY_SIZES.join(", ")}`))),
  org_address: optStr,
  remit_to_address: optStr,
  address: v.nullish(address),
});

/** The call that is benchmarked. */
export const run = (schema, data) => v.safeParse(schema, data);

/** `{ ok, issues: [{ path, message }] }`, for the cross-check of the three implementations. */
export function check(schema, data) {
  const r = v.safeParse(schema, data);
  return r.success
    ? { ok: true, issues: [] }
    : { ok: false, issues: r.issues.map((i) => ({ path: (i.path ?? []).map((p) => p.key), message: i.message })) };
}
