// Forms through the installed package (issue 38, item 1): schemaFor's Standard Schema gives the SDK's
// Issue (code and details), worded with the form's labels or its own message function; blank form
// values ("" or spaces, NaN) are "not given" there by default, and in validate when asked.
import { test } from "node:test";
import assert from "node:assert/strict";
import { SvcError, schemaFor, validate } from "svc-sdk";
import * as entry from "svc-sdk/validate";

const asset = {
  asset_name: "Laptop",
  fixed_asset_type_id: "460000000038001",
  asset_account_id: "460000000038003",
  asset_cost: 1200,
  asset_purchase_date: "2026-01-15",
};
const check = (schema, value) => schema["~standard"].validate(value);

test("schemaFor's issues are the SDK's Issue: code, path, message and the code's details", () => {
  const out = check(schemaFor("createFixedAsset"), { ...asset, depreciation_method: "sideways", asset_name: 5 });
  assert.deepEqual(
    out.issues.map(({ path, code }) => [path.join("."), code]),
    [["asset_name", "invalid_type"], ["depreciation_method", "invalid_value"]],
  );
  assert.equal(out.issues[0].expected, "string");
  assert.ok(out.issues[1].allowed.includes("straight_line"), out.issues[1].message);
  assert.deepEqual(out.issues, validate("createFixedAsset", { ...asset, depreciation_method: "sideways", asset_name: 5 }).issues);
});

test("labels name the fields in the built-in messages instead of their wire names", () => {
  const labels = { fixed_asset_type_id: "Asset type", asset_cost: "Cost", depreciation_method: "Method" };
  const out = check(schemaFor("createFixedAsset", { labels }), { ...asset, fixed_asset_type_id: "", asset_cost: "a lot" });
  assert.deepEqual(out.issues.map((i) => i.message), ["Asset type is required", "Cost must be number, got string"]);
  const notAllowed = check(schemaFor("createFixedAsset", { labels: { depreciation_percentage: "Rate", depreciation_method: "Method" } }), {
    ...asset,
    depreciation_method: "straight_line",
    depreciation_percentage: 10,
  });
  assert.match(notAllowed.issues[0].message, /^Rate applies only to declining methods, not to straight_line$/);
  const plain = validate("createFixedAsset", { ...asset, fixed_asset_type_id: undefined }, { labels });
  assert.equal(plain.issues[0].message, "Asset type is required");
});

test("a message function words every issue, seeing its code and details and the labelled message", () => {
  const seen = [];
  const message = (issue) => (seen.push(issue.message), issue.code === "required" ? "Please fill this in" : `(${issue.code})`);
  const schema = schemaFor("createFixedAsset", { message, labels: { asset_name: "Name" } });
  const out = check(schema, { ...asset, asset_name: undefined, depreciation_method: "sideways" });
  assert.deepEqual(out.issues.map((i) => [i.path[0], i.code, i.message]), [
    ["asset_name", "required", "Please fill this in"],
    ["depreciation_method", "invalid_value", "(invalid_value)"],
  ]);
  assert.equal(seen[0], "Name is required");
  assert.deepEqual(check(schema, asset), { value: asset });
});

test("blank form values are not given: an optional field passes, a required one is required, and the value leaves them out", () => {
  const schema = schemaFor("createFixedAsset");
  const form = { ...asset, depreciation_method: "", depreciation_percentage: NaN, notes: "  ", tags: [{ tag_id: "1", tag_option_id: "" }] };
  const out = check(schema, form);
  assert.equal(out.issues, undefined, JSON.stringify(out.issues));
  assert.deepEqual(out.value, { ...asset, tags: [{ tag_id: "1" }] });
  assert.equal(form.depreciation_method, "", "the form's own object is left as it is");
  const required = check(schema, { ...asset, asset_cost: NaN, fixed_asset_type_id: "" });
  assert.deepEqual(required.issues.map((i) => [i.path[0], i.code]), [["fixed_asset_type_id", "required"], ["asset_cost", "required"]]);
});

test("validate keeps blanks as values unless asked, and schemaFor keeps them when told", () => {
  const form = { ...asset, depreciation_method: "", asset_cost: NaN };
  const codes = (r) => r.issues.map((i) => [i.path[0], i.code]);
  assert.deepEqual(codes(validate("createFixedAsset", form)), [["depreciation_method", "invalid_value"], ["asset_cost", "invalid_type"]]);
  assert.deepEqual(codes(check(schemaFor("createFixedAsset", { blankAsMissing: false }), form)), codes(validate("createFixedAsset", form)));
  assert.deepEqual(codes(validate("createFixedAsset", form, { blankAsMissing: true })), [["asset_cost", "required"]]);
});

test("options that cannot be right are a config SvcError naming what is wrong", () => {
  const refused = (f, pattern) =>
    // svc-sdk/validate's SvcError is a class of its own: both are named so.
    assert.throws(f, (e) => (e instanceof SvcError || e.name === "SvcError") && e.kind === "config" && pattern.test(e.message) || assert.fail(`${e.kind}: ${e.message}`));
  const run = (options) => () => check(schemaFor("createTask", options), { task_name: "x" });
  refused(run({ labels: { task_name: 5 } }), /the label of "task_name" is not a string/);
  refused(run({ labels: ["Name"] }), /labels must be an object/);
  refused(run({ message: "Required!" }), /message must be a function/);
  refused(run({ blankAsMissing: "yes" }), /blankAsMissing must be true or false/);
  refused(run({ lables: {} }), /unknown option "lables" of the options of schemaFor; the options are blankAsMissing, labels, message/);
  refused(() => validate("createTask", {}, { message: () => "" }), /unknown option "message" of the options of validate/);
  refused(() => schemaFor("createTask", { labels: null }), /labels must be an object/);
  refused(() => entry.schemaFor("createTask", { message: 5 }), /message must be a function/);
});

test("svc-sdk/validate's schemaFor answers alike", () => {
  const options = { labels: { fixed_asset_type_id: "Asset type" } };
  const form = { ...asset, fixed_asset_type_id: " ", depreciation_method: "" };
  assert.deepEqual(check(entry.schemaFor("createFixedAsset", options), form), check(schemaFor("createFixedAsset", options), form));
});
