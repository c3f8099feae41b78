// A "new fixed asset" form with react-hook-form: svc-sdk's Standard Schema checks it as the user types
// and words its issues with the form's labels. Blank controls (the "–" options, an empty number) are
// "not given", so the submit handler receives params a call takes as they are.
import React from "react";
import { createRoot } from "react-dom/client";
import { useForm } from "react-hook-form";
import { standardSchemaResolver } from "@hookform/resolvers/standard-schema";
import { schemaFor } from "svc-sdk/validate";

const labels = {
  asset_name: "Name",
  fixed_asset_type_id: "Asset type",
  asset_account_id: "Asset account",
  asset_cost: "Cost",
  asset_purchase_date: "Purchase date",
  depreciation_method: "Depreciation method",
};
const schema = schemaFor("createFixedAsset", { labels });

function NewAsset({ onValid }) {
  const { register, handleSubmit, formState } = useForm({ resolver: standardSchemaResolver(schema) });
  const field = (name, input) => (
    <label>
      {labels[name]} {input}
      <output data-error-for={name}>{formState.errors[name]?.message}</output>
    </label>
  );
  return (
    <form onSubmit={handleSubmit(onValid)}>
      {field("asset_name", <input {...register("asset_name")} />)}
      {field("fixed_asset_type_id", (
        <select {...register("fixed_asset_type_id")}>
          <option value="">–</option>
          <option value="460000000038001">Computers</option>
        </select>
      ))}
      {field("asset_account_id", <input {...register("asset_account_id")} />)}
      {field("asset_cost", <input type="number" {...register("asset_cost", { valueAsNumber: true })} />)}
      {field("asset_purchase_date", <input type="date" {...register("asset_purchase_date")} />)}
      {field("depreciation_method", (
        <select {...register("depreciation_method")}>
          <option value="">–</option>
          <option value="straight_line">Straight line</option>
          <option value="declining_method">Declining balance</option>
        </select>
      ))}
      <button type="submit">Create</button>
    </form>
  );
}

// What a page does next: client.createFixedAsset(params); this one shows them.
const show = (params) => (document.querySelector("#sent").textContent = JSON.stringify(params));
createRoot(document.querySelector("#root")).render(<NewAsset onValid={show} />);
