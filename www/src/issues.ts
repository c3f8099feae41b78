// Puts validation issues next to their fields. A form marks each message slot with
// data-msg-for="<path joined by dots>" (e.g. "watch.0.events.1") and each control with the same
// data-key. An issue goes to the slot of its own path, or else of its nearest parent path, or else to
// the form's own slot (data-msg-for=""), so no issue is ever dropped.
import { SvcError, type Issue } from "svc-sdk";

export const keyOf = (path: readonly (string | number)[]): string => path.join(".");

/** Which fields the user has touched; after a submit attempt, every field counts as touched. */
export class Touched {
  private keys = new Set<string>();
  private everything = false;
  add(key: string): void {
    this.keys.add(key);
  }
  all(): void {
    this.everything = true;
  }
  reset(): void {
    this.keys.clear();
    this.everything = false;
  }
  /** An issue is shown once its own field, or a field below it, has been touched. */
  has(key: string): boolean {
    if (this.everything || this.keys.has(key)) return true;
    for (const k of this.keys) if (k.startsWith(key + ".")) return true;
    return false;
  }
}

/** Shows the issues the filter lets through; returns how many were shown. */
export function showIssues(root: ParentNode, issues: readonly Issue[], visible: (key: string) => boolean = () => true): number {
  const slots = new Map<string, HTMLElement>();
  for (const el of root.querySelectorAll<HTMLElement>("[data-msg-for]")) {
    slots.set(el.dataset.msgFor ?? "", el);
    el.replaceChildren();
  }
  for (const el of root.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
  let shown = 0;
  for (const issue of issues) {
    if (!visible(keyOf(issue.path))) continue;
    const at = [...issue.path];
    let slot = slots.get(keyOf(at));
    while (!slot && at.length > 0) {
      at.pop();
      slot = slots.get(keyOf(at));
    }
    if (!slot) continue;
    const line = document.createElement("div");
    line.className = "msg";
    line.dataset.code = issue.code;
    line.textContent = issue.message;
    slot.append(line);
    const key = keyOf(at);
    for (const control of root.querySelectorAll(`[data-key="${CSS.escape(key)}"]`)) control.setAttribute("aria-invalid", "true");
    shown++;
  }
  return shown;
}

/** Shows what a failed call reports: its issues where they belong, or its message at the form level. */
export function showError(root: ParentNode, error: unknown): void {
  if (error instanceof SvcError && error.issues?.length) {
    showIssues(root, error.issues);
    return;
  }
  const message = error instanceof SvcError ? describe(error) : `Something went wrong: ${String(error)}`;
  showIssues(root, [{ path: [], code: "invalid_value", message }]);
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

/** Moves the focus to the first control marked invalid, if any. */
export function focusFirstInvalid(root: ParentNode): void {
  root.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
}

/** Text for a result panel: an element with children, without innerHTML. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> & { dataset?: Record<string, string> } = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  const { dataset, ...rest } = props;
  Object.assign(node, rest);
  if (dataset) Object.assign(node.dataset, dataset);
  node.append(...children);
  return node;
}

/** A definition list of label/value pairs. */
export function details(pairs: [string, string | undefined][]): HTMLDListElement {
  const dl = el("dl");
  for (const [k, v] of pairs) if (v !== undefined && v !== "") dl.append(el("dt", {}, k), el("dd", {}, v));
  return dl;
}
