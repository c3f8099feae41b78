// The rules of createFixedAsset and createOrganization (crates/svc-core/src/model/books/) and
// updateNotificationChannels (crates/svc-core/src/model/crm/) in zod 4, for the validation
// benchmark. Unknown keys are kept (looseObject), absent and null optionals pass (nullish), a blank
// required string is missing, every issue is reported in one pass (the cross-field checks run with
// `when`, even when a field already failed).
import * as z from "zod";
import {
  COMPUTATION_TYPES, DEPRECIATION_FREQUENCIES, DEPRECIATION_METHODS, FISCAL_MONTHS, INDUSTRY_SIZES, MAX_FIELDS,
  countFields, eventIssue, expiryInRange, given, isDate, isHttpUrl, notBlank, isPortalName, oneOfUnlessBlank, parseTimestamp,
} from "./rules.mjs";

const always = { when: () => true };
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// Kind::Str, Kind::Num, Kind::Id (a non-empty string or an integer), required and optional.
const reqStr = (name) => z.string().refine(notBlank, { message: `${name} is required` });
const optStr = z.string().nullish();
const num = z.number();
const optNum = num.nullish();
const id = z.union([z.string().min(1), z.number().int()]);
const reqId = (name) => z.union([reqStr(name), z.number().int()]);
const optId = id.nullish();
const date = z.string().refine(isDate, { message: "must be a date yyyy-mm-dd" });

const tag = z.looseObject({ tag_id: optId, tag_option_id: optId });
const customField = z.looseObject({ customfield_id: optId, value: optStr });

export const createFixedAsset = z
  .looseObject({
    asset_name: reqStr("asset_name"),
    fixed_asset_type_id: reqId("fixed_asset_type_id"),
    asset_account_id: reqId("asset_account_id"),
    expense_account_id: optId,
    depreciation_account_id: optId,
    depreciation_method: z.enum(DEPRECIATION_METHODS).nullish(),
    depreciation_frequency: z.enum(DEPRECIATION_FREQUENCIES).nullish(),
    depreciation_percentage: num.min(0).max(100).nullish(),
    total_life: optNum,
    salvage_value: optNum,
    depreciation_start_date: date.nullish(),
    description: optStr,
    notes: optStr,
    serial_no: optStr,
    asset_cost: num,
    asset_purchase_date: reqStr("asset_purchase_date").refine(isDate, { message: "must be a date yyyy-mm-dd" }),
    computation_type: z.enum(COMPUTATION_TYPES).nullish(),
    warranty_expiry_date: date.nullish(),
    dep_start_value: optNum,
    tags: z.array(tag).nullish(),
    custom_fields: z.array(customField).nullish(),
  })
  .superRefine((o, ctx) => {
    if (isObject(o) && o.depreciation_method === "straight_line" && given(o.depreciation_percentage)) {
      ctx.addIssue({
        code: "custom",
        path: ["depreciation_percentage"],
        message: "depreciation_percentage applies only to declining methods, not to straight_line",
      });
    }
  }, always);

// ---- the watch update ----

const apiRef = z.looseObject({ api_name: optStr, id: optId });
const fieldMember = z.looseObject({ field: apiRef });
const member = z.lazy(() => z.union([fieldMember, group]));
const group = z.looseObject({
  group_operator: z.enum(["and", "or"]),
  group: z.array(member).min(1, { message: "group needs at least one member" }),
});

const condition = z
  .looseObject({
    type: z.enum(["field_selection"]),
    module: apiRef,
    field_selection: group,
  })
  .superRefine((c, ctx) => {
    const members = isObject(c) && isObject(c.field_selection) ? c.field_selection.group : undefined;
    if (!Array.isArray(members)) return;
    const n = countFields(members);
    if (n > MAX_FIELDS) {
      ctx.addIssue({
        code: "too_big",
        origin: "array",
        maximum: MAX_FIELDS,
        path: ["field_selection", "group"],
        message: `a field selection may hold at most ${MAX_FIELDS} fields, however nested; it has ${n}`,
      });
    }
  }, always);

const event = z.string().superRefine((e, ctx) => {
  const issue = eventIssue(e);
  if (issue) ctx.addIssue({ code: "custom", message: issue[1], params: { code: issue[0] } });
});

const channel = z.looseObject({
  channel_id: z.union([z.number().int(), z.string().regex(/^[0-9]+$/, "channel_id must be an integer or a string of digits (a blank one is missing)")]),
  events: z.array(event).min(1, { message: "events needs at least one member" }),
  notify_url: reqStr("notify_url").refine(isHttpUrl, { message: "notify_url must be an absolute http:// or https:// URL" }),
  token: z.string().max(50).nullish(),
  channel_expiry: z
    .string()
    .refine((s) => parseTimestamp(s) !== null, { message: "channel_expiry must be a date-time with a UTC offset" })
    .refine(expiryInRange, { message: "channel_expiry must be between now and one week from now" })
    .nullish(),
  notification_condition: z.array(condition).max(2).nullish(),
  notify_on_related_action: z.boolean().nullish(),
});

export const updateNotificationChannels = z.looseObject({
  watch: z.array(channel).min(1, { message: "watch needs at least one member" }),
});

// ---- createOrganization ----

const address = z.looseObject({ street_address1: optStr, street_address2: optStr, city: optStr, state: optStr, country: optStr, zip: optStr });

export const createOrganization = z.looseObject({
  name: reqStr("name"),
  currency_code: reqStr("currency_code"),
  time_zone: reqStr("time_zone"),
  portal_name: reqStr("portal_name").refine(isPortalName, { message: "portal_name must be 5 to 30 letters and digits" }),
  fiscal_year_start_month: z.enum(FISCAL_MONTHS).nullish(),
  date_format: optStr,
  field_separator: optStr,
  language_code: optStr,
  industry_type: optStr,
  industry_size: z.string().refine(oneOfUnlessBlank(INDUSTRY_SIZES), { message: `industry_size must be one of ${INDUSTRY_SIZES.join(", ")}` }).nullish(),
  org_address: optStr,
  remit_to_address: optStr,
  address: address.nullish(),
});

/** The call that is benchmarked. */
export const run = (schema, data) => schema.safeParse(data);

/** `{ ok, issues: [{ path, message }] }`, for the cross-check of the three implementations. */
export function check(schema, data) {
  const r = schema.safeParse(data);
  return r.success ? { ok: true, issues: [] } : { ok: false, issues: r.error.issues.map((i) => ({ path: i.path, message: i.message })) };
}
