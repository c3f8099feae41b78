// A "new fixed asset" form with TanStack Form: svc-sdk's Standard Schema is the form's validator, its
// issues (the SDK's Issue) worded by the form's own function. TanStack Form submits the values as they
// are, so the submit handler takes the schema's value: the params without their blank controls.
import React from "react";
import { createRoot } from "react-dom/client";
import { useForm } from "@tanstack/react-form";
import { schemaFor } from "svc-sdk/validate";

const labels = { asset_name: "Name", fixed_asset_type_id: "Asset type", asset_cost: "Cost", depreciation_method: "Depreciation method" };
const message = (issue) => (issue.code === "required" ? `Please give the ${labels[issue.path.at(-1)].toLowerCase()}` : issue.message);
const schema = schemaFor("createFixedAsset", { labels, message });
const blank = { asset_name: "", fixed_asset_type_id: "", asset_account_id: "460000000038003", asset_cost: NaN, asset_purchase_date: "2026-01-15", depreciation_method: "" };

function NewAsset({ onValid }) {
  const form = useForm({
    defaultValues: blank,
    validators: { onSubmit: schema },
    onSubmit: ({ value }) => onValid(schema["~standard"].validate(value).value),
  });
  const field = (name, input) => (
    <form.Field name={name}>
      {(f) => (
        <label>
          {labels[name]} {input(f)}
          <output data-error-for={name}>{f.state.meta.errors.map((issue) => issue.message).join("; ")}</output>
        </label>
      )}
    </form.Field>
  );
  const text = (f) => <input name={f.name} value={f.state.value} onChange={(e) => f.handleChange(e.target.value)} />;
  return (
    <form onSubmit={(e) => (e.preventDefault(), form.handleSubmit())}>
      {field("asset_name", text)}
      {field("fixed_asset_type_id", (f) => (
        <select name={f.name} value={f.state.value} onChange={(e) => f.handleChange(e.target.value)}>
          <option value="">–</option>
          <option value="460000000038001">Computers</option>
        </select>
      ))}
      {field("asset_cost", (f) => (
        <input name={f.name} type="number" value={Number.isNaN(f.state.value) ? "" : f.state.value} onChange={(e) => f.handleChange(e.target.valueAsNumber)} />
      ))}
      {field("depreciation_method", (f) => (
        <select name={f.name} value={f.state.value} onChange={(e) => f.handleChange(e.target.value)}>
          <option value="">–</option>
          <option value="straight_line">Straight line</option>
        </select>
      ))}
      <button type="submit">Create</button>
    </form>
  );
}

// What a page does next: client.createFixedAsset(params); this one shows them.
const show = (params) => (document.querySelector("#sent").textContent = JSON.stringify(params));
createRoot(document.querySelector("#root")).render(<NewAsset onValid={show} />);
