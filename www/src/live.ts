// When a form speaks: a field's messages appear once it has been left (blur) or the form submitted, then follow every keystroke.
import type { Issue } from "svc-sdk";
import { focusFirstInvalid, showIssues, showSummary } from "./issues.ts";

/** Which fields the user has left; after a submit attempt, every field counts. */
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

export type LiveForm = {
  touched: Touched;
  /** Checks again and shows what the touched fields have to say; returns every issue, shown or not. */
  refresh(): readonly Issue[];
  /** A submit attempt: every message shows, the summary says how many, the focus goes to the first; true when valid. */
  attempt(): boolean;
  /** After a success: quiet again. */
  reset(): void;
};

/**
 * Wires a form: `issues` validates its current values (with the SDK), `summary` is its role=alert
 * region, `after` runs after every check (the note of what would be sent).
 */
export function liveForm(form: HTMLFormElement, summary: HTMLElement, issues: () => readonly Issue[], after: () => void = () => {}): LiveForm {
  const touched = new Touched();
  const refresh = () => {
    const found = issues();
    showIssues(form, found, (k) => touched.has(k));
    if (found.length === 0) showSummary(summary, []);
    after();
    return found;
  };
  // A field left by pressing a button: its messages wait for the click, or they would move the
  // button away from under the pointer and the click would miss it.
  let pressing = false;
  form.addEventListener("pointerdown", (ev) => {
    pressing = ev.target instanceof Element && ev.target.closest("button") !== null;
  });
  document.addEventListener("pointerup", () => {
    if (!pressing) return;
    pressing = false;
    setTimeout(refresh);
  });
  form.addEventListener("focusout", (ev) => {
    const key = (ev.target as HTMLElement).dataset?.key;
    if (key === undefined) return;
    touched.add(key);
    if (!pressing) refresh();
  });
  form.addEventListener("input", refresh);
  form.addEventListener("change", refresh);
  return {
    touched,
    refresh,
    attempt() {
      touched.all();
      const shown = showIssues(form, issues(), () => true);
      showSummary(summary, shown);
      after();
      focusFirstInvalid(form);
      return shown.length === 0;
    },
    reset() {
      touched.reset();
      showIssues(form, []);
      showSummary(summary, []);
      after();
    },
  };
}
