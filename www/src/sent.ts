// The note under each form of what the SDK would send: client.prepare(...) as the user edits (method, URL, body), or why it refuses.
import { SvcError, type PreparedRequest } from "svc-sdk";
import { el } from "./dom.ts";
import { keyOf } from "./issues.ts";

/** Who answers what is sent: the app's proxy, or in the static build the sandbox in the page. */
const SENT_TO = import.meta.env.MODE === "static" ? "A sandbox in this page answers it once sent." : "The page's proxy at /api adds the token and the organization.";

/** Fills `host` with the note; update() asks prepare() again and shows its latest answer only. */
export function requestNote(host: HTMLElement, call: string, prepare: () => Promise<PreparedRequest>): { update(): void } {
  const line = el("code", { className: "sent-line" });
  const body = el("pre", { className: "sent-body" });
  const status = el("p", { className: "sent-status" });
  host.replaceChildren(
    el("h2", {}, "What the SDK would send"),
    el("p", { className: "hint" }, el("code", {}, call), ` answers with the request, validated, without sending it. ${SENT_TO}`),
    status,
    el("div", { className: "sent-request" }, line, body),
  );
  let asked = 0;
  return {
    update() {
      const mine = ++asked;
      prepare().then(
        (req) => {
          if (mine !== asked) return;
          host.dataset.state = "ready";
          status.textContent = "Would send:";
          line.textContent = `${req.method} ${req.url}`;
          body.textContent = typeof req.body === "string" ? req.body : req.body === null ? "(no body)" : "(multipart form data)";
        },
        (e: unknown) => {
          if (mine !== asked) return;
          host.dataset.state = "refused";
          const issues = e instanceof SvcError ? (e.issues ?? []) : [];
          const what = e instanceof SvcError ? `SvcError of kind "${e.kind}"` : String(e);
          status.textContent = `Rejects with ${what}${issues.length > 0 ? ` and ${issues.length} ${issues.length === 1 ? "issue" : "issues"}` : ""}: nothing would be sent.`;
          line.textContent = "";
          body.textContent = issues.map((i) => `${keyOf(i.path) || "(params)"}: ${i.code}`).join("\n");
        },
      );
    },
  };
}
