// The smoke scenario that every runtime (Deno, workerd, Chromium) runs against the recording
// server of the test. It imports the installed package by its name, exactly as a user would; the
// runtime's own resolver picks the export condition (deno, workerd, browser).
// It never throws: everything it saw goes into the report, which the host hands back as JSON.
import { Client, SvcError, validate } from "svc-sdk";

/** Params that no operation accepts: a query field must be a scalar. */
export const BAD_PARAMS = { per_page: { not: "a scalar" } };

function describe(e) {
  return {
    instanceofSvcError: e instanceof SvcError,
    instanceofError: e instanceof Error,
    name: e?.name,
    kind: e?.kind,
    status: e?.status,
    code: e?.code,
    operationId: e?.operationId,
    message: String(e?.message ?? e),
    issues: e?.issues,
  };
}

async function page(client, params) {
  const result = await client.listFixedAssets(params);
  const iterated = [];
  for await (const asset of result) iterated.push(asset.fixed_asset_id);
  const first = result.items[0];
  return {
    count: result.items.length,
    id: first?.fixed_asset_id,
    idType: typeof first?.fixed_asset_id,
    name: first?.asset_name,
    unknownFieldKept: first?.custom_marker,
    iterated,
  };
}

export async function smoke({ apiDomain, accessToken, organizationId }) {
  const report = { ok: false, steps: [] };
  try {
    const client = new Client({ accessToken, organizationId, apiDomain });
    report.steps.push("client");

    report.first = await page(client, { per_page: 1 });
    report.steps.push("list");

    try {
      await client.listFixedAssets(BAD_PARAMS);
      report.validation = { thrown: false };
    } catch (e) {
      report.validation = { thrown: true, ...describe(e) };
    }
    report.steps.push("validation");

    report.validate = { good: validate("listFixedAssets", { per_page: 1 }), bad: safe(() => validate("listFixedAssets", BAD_PARAMS)) };
    report.steps.push("validate");

    try {
      await client.listFixedAssets({ per_page: 1, page: 2 });
      report.apiError = { thrown: false };
    } catch (e) {
      report.apiError = { thrown: true, ...describe(e) };
    }
    report.steps.push("api error");

    report.after = await page(client, { per_page: 1 });
    report.steps.push("list after failures");
    report.ok = true;
  } catch (e) {
    report.error = { ...describe(e), stack: String(e?.stack ?? "") };
  }
  return report;
}

function safe(fn) {
  try {
    return fn();
  } catch (e) {
    return { threw: describe(e) };
  }
}
