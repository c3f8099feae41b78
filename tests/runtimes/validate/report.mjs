// What a validate-only page reports: the entry's answers for a form's params, computed the same way
// in the page and, from the main entry, in the test that reads the page.
const organization = { name: "Acme", currency_code: "USD", time_zone: "Europe/Berlin", portal_name: "acme2024" };

/** The answers of an entry (`svc-sdk` or `svc-sdk/validate`), as plain data. */
export function answers({ validate, schemaFor, operations, requiredScopes, SvcError }) {
  const out = {
    valid: validate("createOrganization", organization),
    invalid: validate("createOrganization", { ...organization, portal_name: "ab-c", currency_code: "" }),
    standard: schemaFor("createTask")["~standard"].validate({ task_name: "" }),
    operations: operations().length,
    scopes: requiredScopes(["listPlans", "createPlan"]),
  };
  try {
    validate("noSuchOperation", {});
  } catch (e) {
    out.unknown = { svcError: e instanceof SvcError, name: e.name, kind: e.kind };
  }
  return out;
}

/** Writes the answers into #result and marks the body done, with the ms since navigation it took. */
export function show(sdk) {
  let report;
  try {
    report = { answers: answers(sdk), ms: performance.now() };
  } catch (e) {
    report = { error: String(e?.stack ?? e) };
  }
  document.getElementById("result").textContent = JSON.stringify(report);
  document.body.dataset.status = report.error ? "failed" : "done";
}
