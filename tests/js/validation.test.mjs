// Validation through the installed package: nested issue paths, every issue in one pass, garbage of
// every JS type giving issues (never a trap), Standard Schema, and valid examples passing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Client, SvcError, operations, schemaFor, validate } from "svc-sdk";

const inAWeek = (days) => new Date(Date.now() + days * 86_400_000).toISOString().replace(/\.\d+Z$/, "+00:00");
const field = (n) => ({ field: { api_name: `Field_${n}`, id: `${n}` } });
const channel = (group) => ({
  channel_id: "1000000068001",
  events: ["Deals.edit"],
  notify_url: "https://hooks.example.com/svc",
  channel_expiry: inAWeek(6),
  notification_condition: [
    { type: "field_selection", module: { api_name: "Deals", id: "1" }, field_selection: { group_operator: "or", group } },
  ],
});

test("line item issues carry their full path", () => {
  const r = validate("createJournal", {
    journal_date: "2024-01-31",
    line_items: [
      { account_id: "1", debit_or_credit: "debit", amount: 5 },
      { account_id: "2", debit_or_credit: "credit", amount: 5 },
      { account_id: "3", debit_or_credit: "credit", amount: "five" },
    ],
  });
  assert.equal(r.ok, false);
  assert.deepEqual(r.issues.map((i) => i.path), [["line_items", 2, "amount"]]);
  assert.equal(r.issues[0].code, "invalid_type");
  assert.equal(r.issues[0].expected, "number");
});

test("a nested condition group member carries its full path", () => {
  const r = validate("updateNotificationChannels", {
    watch: [channel([field(1), field(2), { group_operator: "and", group: [field(3)] }, { nonsense: true }])],
  });
  assert.equal(r.ok, false);
  assert.deepEqual(r.issues.map((i) => i.path), [["watch", 0, "notification_condition", 0, "field_selection", "group", 3]]);
});

test("ten condition fields pass, eleven are too many however they are nested", () => {
  const ten = [field(1), field(2), { group_operator: "and", group: [field(3), field(4), { group_operator: "or", group: [field(5), field(6)] }] }, field(7), field(8), field(9), field(10)];
  assert.deepEqual(validate("updateNotificationChannels", { watch: [channel(ten)] }), { ok: true });
  const eleven = [...ten, { group_operator: "and", group: [field(11)] }];
  const r = validate("updateNotificationChannels", { watch: [channel(eleven)] });
  assert.equal(r.ok, false);
  assert.equal(r.issues[0].code, "too_many");
  assert.equal(r.issues[0].maximum, 10);
});

test("channel expiry: within a week passes, beyond it is out of range", () => {
  assert.equal(validate("updateNotificationChannels", { watch: [{ ...channel([field(1)]), channel_expiry: inAWeek(6.9) }] }).ok, true);
  const r = validate("updateNotificationChannels", { watch: [{ ...channel([field(1)]), channel_expiry: inAWeek(7.1) }] });
  assert.equal(r.issues[0].code, "out_of_range");
  assert.deepEqual(r.issues[0].path, ["watch", 0, "channel_expiry"]);
});

test("several issues at once, a wrong type never hiding another field's issue", () => {
  const r = validate("createOrganization", { name: 42, portal_name: "ab-c", currency_code: null, time_zone: ["UTC"], fiscal_year_start_month: "smarch" });
  assert.equal(r.ok, false);
  const byPath = Object.fromEntries(r.issues.map((i) => [i.path.join("."), i.code]));
  assert.equal(byPath.name, "invalid_type");
  assert.equal(byPath.currency_code, "required");
  assert.equal(byPath.time_zone, "invalid_type");
  assert.equal(byPath.fiscal_year_start_month, "invalid_value");
  assert.ok(["too_short", "invalid_format"].includes(byPath.portal_name), JSON.stringify(r.issues));
});

test("portal_name: 5 to 30 letters and digits", () => {
  const base = { name: "Acme", currency_code: "USD", time_zone: "Europe/Berlin" };
  assert.equal(validate("createOrganization", { ...base, portal_name: "abcde" }).ok, true);
  assert.equal(validate("createOrganization", { ...base, portal_name: "a".repeat(30) }).ok, true);
  assert.equal(validate("createOrganization", { ...base, portal_name: "abcd" }).issues[0].code, "too_short");
  assert.equal(validate("createOrganization", { ...base, portal_name: "a".repeat(31) }).issues[0].code, "too_long");
  assert.equal(validate("createOrganization", { ...base, portal_name: "acme-co" }).issues[0].code, "invalid_format");
});

test("depreciation percentage: 0 to 100, only with a declining method", () => {
  const base = { asset_name: "A", fixed_asset_type_id: "1", asset_account_id: "2", asset_cost: 1, asset_purchase_date: "2024-01-01" };
  assert.equal(validate("createFixedAsset", { ...base, depreciation_method: "declining_method", depreciation_percentage: 100 }).ok, true);
  const over = validate("createFixedAsset", { ...base, depreciation_method: "declining_method", depreciation_percentage: 100.01 });
  assert.deepEqual([over.issues[0].code, over.issues[0].minimum, over.issues[0].maximum], ["out_of_range", 0, 100]);
  const straight = validate("createFixedAsset", { ...base, depreciation_method: "straight_line", depreciation_percentage: 10 });
  assert.equal(straight.issues[0].code, "not_allowed");
});

const garbage = [null, undefined, 0, -1, 1e309, -1e309, NaN, "", "x".repeat(100_000), true, [], [[]], () => 0, Symbol("s"), 12n, new Date(), { a: 1e309 }, { line_items: [null, 5, "x", { amount: {} }] }, Object.create(null)];

test("garbage of every JS type into validate() gives issues or ok, never a trap or a throw", () => {
  for (const op of operations()) {
    for (const g of garbage) {
      const r = validate(op.id, g);
      assert.ok(r.ok === true || (r.ok === false && Array.isArray(r.issues) && r.issues.length > 0), `${op.id}`);
      for (const issue of r.issues ?? []) {
        assert.equal(typeof issue.message, "string");
        assert.ok(Array.isArray(issue.path));
      }
    }
  }
});

test("very long strings and deep nesting are issues, not crashes", () => {
  const r = validate("createTask", { task_name: "x".repeat(1_000_000) });
  assert.equal(r.issues[0].code, "too_long");
  let deep = { group_operator: "and", group: [field(1)] };
  for (let i = 0; i < 200; i++) deep = { group_operator: "and", group: [deep] };
  const d = validate("updateNotificationChannels", { watch: [channel([deep])] });
  assert.equal(d.ok, false);
  assert.match(d.issues[0].message, /nesting/);
  const cyclic = { task_name: "x" };
  cyclic.self = cyclic;
  const c = validate("createTask", cyclic);
  assert.equal(c.ok, false);
  assert.match(c.issues[0].message, /circular/);
});

test("an invalid call rejects with the same issues and sends nothing", async () => {
  const sent = [];
  const client = new Client({ accessToken: "tok-1234", organizationId: "1", fetch: async (...a) => (sent.push(a), new Response("{}")) });
  const params = { task_name: "y".repeat(101) };
  await assert.rejects(client.createTask("p", params), (e) => {
    assert.ok(e instanceof SvcError);
    assert.equal(e.kind, "validation");
    assert.deepEqual(e.issues, validate("createTask", params).issues);
    return true;
  });
  assert.equal(sent.length, 0);
});

test("schemaFor is a Standard Schema v1", () => {
  const schema = schemaFor("createTask");
  const std = schema["~standard"];
  assert.equal(std.version, 1);
  assert.deepEqual(std.validate({ task_name: "Design" }), { value: { task_name: "Design" } });
  const bad = std.validate({ task_name: "" });
  assert.equal(bad.issues[0].message.length > 0, true);
  assert.deepEqual(bad.issues[0].path, ["task_name"]);
});
