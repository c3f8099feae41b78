// Puts validation issues next to their fields, in the form's words. A form marks each message slot with
// data-msg-for="<path joined by dots>" (e.g. "watch.0.events.1") and each control with the same
// data-key. An issue goes to the slot of its own path, or else of its nearest parent path, or else to
// the form's own slot (data-msg-for=""), so no issue is ever dropped. A slot may name its place
// (data-label, and data-one / data-many for a list); otherwise the control's own label does.
import { SvcError, type Issue } from "svc-sdk";
import { el, labelOf, toggleToken } from "./dom.ts";
import { sentence, type Place } from "./words.ts";

export const keyOf = (path: readonly (string | number)[]): string => path.join(".");

let slotIds = 0;

function placeOf(root: ParentNode, slot: HTMLElement, issueKey: string): Place {
  const control = [slot.dataset.msgFor ?? "", issueKey]
    .map((k) => root.querySelector<HTMLElement>(`[data-key="${CSS.escape(k)}"]`))
    .find((c) => c !== null);
  const label = slot.dataset.label ?? (control && labelOf(control)) ?? "This field";
  const place: Place = { label, one: slot.dataset.one, many: slot.dataset.many };
  if (control instanceof HTMLInputElement) place.dateOnly = control.type === "date";
  if (control instanceof HTMLSelectElement) place.choice = (v) => [...control.options].find((o) => o.value === v)?.text ?? v;
  return place;
}

type Line = { code: string; text: string };

/** Changes a slot only when its lines change, so that a live region does not repeat itself. */
function fill(slot: HTMLElement, lines: Line[]): void {
  const now = [...slot.children].map((c) => `${(c as HTMLElement).dataset.code}\n${c.textContent}`);
  if (now.join("\n\n") === lines.map((l) => `${l.code}\n${l.text}`).join("\n\n")) return;
  slot.replaceChildren(...lines.map((l) => el("div", { className: "msg", textContent: l.text, dataset: { code: l.code } })));
}

/**
 * Shows the issues the filter lets through, in words; returns the sentences shown. A control whose
 * slot holds a message is aria-invalid and described by that slot.
 */
export function showIssues(root: ParentNode, issues: readonly Issue[], visible: (key: string) => boolean = () => true): string[] {
  const slots = new Map<string, HTMLElement>();
  for (const slot of root.querySelectorAll<HTMLElement>("[data-msg-for]")) {
    slot.id ||= `msg-${++slotIds}`;
    slots.set(slot.dataset.msgFor ?? "", slot);
  }
  const lines = new Map<HTMLElement, Line[]>([...slots.values()].map((s) => [s, []]));
  for (const issue of issues) {
    const key = keyOf(issue.path);
    if (!visible(key)) continue;
    const at = [...issue.path];
    let slot = slots.get(keyOf(at));
    while (!slot && at.length > 0) {
      at.pop();
      slot = slots.get(keyOf(at));
    }
    if (!slot) continue;
    // A service's own message (no field) is already words; the rules' issues are worded here.
    const text = slot.dataset.msgFor === "" && issue.path.length === 0 ? issue.message : sentence(issue, placeOf(root, slot, key));
    lines.get(slot)!.push({ code: issue.code, text });
  }
  const shown: string[] = [];
  for (const [key, slot] of slots) {
    const mine = lines.get(slot)!;
    fill(slot, mine);
    shown.push(...mine.map((l) => l.text));
    for (const control of root.querySelectorAll(`[data-key="${CSS.escape(key)}"]`)) {
      if (mine.length > 0) control.setAttribute("aria-invalid", "true");
      else control.removeAttribute("aria-invalid");
      toggleToken(control, "aria-describedby", slot.id, mine.length > 0);
    }
  }
  return shown;
}

/** Shows what a failed call reports: its issues where they belong, or its message at the form level. */
export function showError(root: ParentNode, error: unknown): string[] {
  if (error instanceof SvcError && error.issues?.length) return showIssues(root, error.issues);
  const message = error instanceof SvcError ? describe(error) : `Something went wrong: ${String(error)}`;
  return showIssues(root, [{ path: [], code: "invalid_value", message, allowed: [] }]);
}

function describe(e: SvcError): string {
  switch (e.kind) {
    case "network":
    case "timeout":
      return `The service could not be reached (${e.message}). Try again.`;
    case "rate_limited":
      return `Too many requests; try again in ${Math.ceil((e.retryAfterMs ?? 1000) / 1000)} s.`;
    default:
      return e.status ? `${e.message} (HTTP ${e.status}${e.code ? `, code ${e.code}` : ""})` : e.message;
  }
}

/** The summary after a submit attempt (a role=alert region): how many problems, and which; empty when none. */
export function showSummary(box: HTMLElement, shown: readonly string[]): void {
  if (shown.length === 0) return box.replaceChildren();
  const n = shown.length;
  box.replaceChildren(el("p", {}, `Not sent: ${n} ${n === 1 ? "problem" : "problems"} to fix.`), el("ul", {}, ...shown.map((s) => el("li", {}, s))));
}

/** A call that failed: its issues or message on the form, the summary of what to fix, the focus on the first field to fix. */
export function reportFailure(form: HTMLFormElement, summary: HTMLElement, error: unknown): void {
  const shown = showError(form, error);
  // What the service answered was sent: the form's own slot says it, not the summary of what to fix.
  showSummary(summary, error instanceof SvcError && error.kind === "validation" ? shown : []);
  focusFirstInvalid(form);
}

/** Moves the focus to the first control marked invalid, if any. */
export function focusFirstInvalid(root: ParentNode): void {
  root.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
}
