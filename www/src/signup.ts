// Organization sign-up: checked with the operation's Standard Schema; a field speaks once it has been
// left or the form submitted, then as the user types.
import { schemaFor, type Client, type Issue, type OrganizationCreateInput } from "svc-sdk";
import { details, el } from "./dom.ts";
import { reportFailure } from "./issues.ts";
import { liveForm } from "./live.ts";
import { requestNote } from "./sent.ts";

const schema = schemaFor("createOrganization");
const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const ZONES = ["UTC", "Europe/London", "Europe/Berlin", "America/New_York", "America/Los_Angeles", "Asia/Kolkata", "Asia/Tokyo", "Australia/Sydney"];

export function mountSignup(root: HTMLElement, client: Client) {
  const form = root.querySelector<HTMLFormElement>("#signup-form")!;
  const result = root.querySelector<HTMLElement>("#signup-result")!;
  const summary = root.querySelector<HTMLElement>("#signup-summary")!;
  const button = form.querySelector("button")!;

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

  function issues(): readonly Issue[] {
    const r = schema["~standard"].validate(params());
    // A Standard Schema may answer asynchronously; this one never does.
    return r instanceof Promise ? [] : ((r.issues ?? []) as Issue[]);
  }

  const note = requestNote(root.querySelector<HTMLElement>("#signup-sent")!, 'client.prepare("createOrganization", params)', () => client.prepare("createOrganization", params()));
  const live = liveForm(form, summary, issues, note.update);

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (!live.attempt()) return;
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
      live.reset();
    } catch (e) {
      reportFailure(form, summary, e);
    } finally {
      button.disabled = false;
    }
  });

  note.update();
  return { show() {} };
}
