// Organization sign-up: checked with the operation's Standard Schema as the user types; a field's
// messages appear once the user has touched it, and every message after a submit attempt.
import { schemaFor, type Client, type Issue, type OrganizationCreateInput } from "svc-sdk";
import { Touched, details, el, focusFirstInvalid, showError, showIssues } from "./issues.ts";

const schema = schemaFor("createOrganization");
const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const ZONES = ["UTC", "Europe/London", "Europe/Berlin", "America/New_York", "America/Los_Angeles", "Asia/Kolkata", "Asia/Tokyo", "Australia/Sydney"];

export function mountSignup(root: HTMLElement, client: Client) {
  const form = root.querySelector<HTMLFormElement>("#signup-form")!;
  const result = root.querySelector<HTMLElement>("#signup-result")!;
  const button = form.querySelector("button")!;
  const touched = new Touched();

  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const tz = form.querySelector<HTMLSelectElement>("#org-tz")!;
  for (const z of new Set([zone, ...ZONES].filter(Boolean))) tz.append(new Option(z, z, z === zone, z === zone));
  const fy = form.querySelector<HTMLSelectElement>("#org-fy")!;
  for (const m of MONTHS) fy.append(new Option(m[0].toUpperCase() + m.slice(1), m));

  /** The form's values as params; a blank field is left out, so "required" speaks for it. */
  function params(): OrganizationCreateInput {
    const out: Record<string, string> = {};
    for (const [k, v] of new FormData(form)) if (typeof v === "string" && v.trim() !== "") out[k] = v.trim();
    return out as unknown as OrganizationCreateInput;
  }

  function check(): readonly Issue[] {
    const r = schema["~standard"].validate(params());
    // A Standard Schema may answer asynchronously; this one never does.
    const issues = r instanceof Promise ? [] : (r.issues ?? []);
    showIssues(form, issues as Issue[], (k) => touched.has(k));
    return issues as Issue[];
  }

  form.addEventListener("input", (ev) => {
    const key = (ev.target as HTMLElement).dataset.key;
    if (key) touched.add(key);
    check();
  });
  form.addEventListener("focusout", (ev) => {
    const t = ev.target as HTMLInputElement;
    // Leaving a field that was typed into shows its messages (even when they were hidden).
    if (t.dataset.key && t.value !== "") {
      touched.add(t.dataset.key);
      check();
    }
  });

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    touched.all();
    if (check().length > 0) return focusFirstInvalid(form);
    button.disabled = true;
    result.hidden = true;
    try {
      const org = await client.createOrganization(params());
      result.replaceChildren(
        el("h2", {}, `Organization “${org.name ?? ""}” created`),
        details([
          ["Organization id", org.organization_id],
          ["Name", org.name],
          // Not a field of the Organization model: the answer keeps it as an unknown field.
          ["Portal", (org as Record<string, unknown>).portal_name as string | undefined],
          ["Currency", org.currency_code],
          ["Time zone", org.time_zone],
        ]),
      );
      result.dataset.organizationId = org.organization_id;
      result.hidden = false;
      form.reset();
      tz.value = zone;
      touched.reset();
      showIssues(form, []);
    } catch (e) {
      showError(form, e);
      focusFirstInvalid(form);
    } finally {
      button.disabled = false;
    }
  });

  return {
    show() {
      form.querySelector<HTMLInputElement>("#org-name")?.focus();
    },
  };
}
