// "Connect an organization": the page's half. The app's server (connect.mjs) holds the connection
// (createConnections); the page only links to its /svc/connect, which leads to the accounts server's
// consent page and back, and shows what /svc/connection says: the organizations and a few contacts.
import { details, el } from "./dom.ts";

type Organization = { id: string; name: string };
type Contact = { id: string; name: string; company: string; email: string };
type Shown =
  | { connected: false }
  | {
      connected: true;
      connection: { region: string; accountsUrl: string; apiDomain: string | null; scopes: string[]; status: string; connectedAt: number };
      organizations?: Organization[];
      organization?: string | null;
      contacts?: Contact[];
      failed?: string;
    };

/** The words of each outcome the server's callback names (/?connect=<outcome>#connect). */
const OUTCOMES: Record<string, { tone: "good" | "bad"; text: string }> = {
  connected: { tone: "good", text: "Connected: the organization's data is below." },
  declined: { tone: "bad", text: "You declined on the consent page, so nothing was connected." },
  expired: { tone: "bad", text: "That consent link expired or was already used. Connect again." },
  refused: { tone: "bad", text: "The accounts server refused the authorization. Connect again." },
  elsewhere: { tone: "bad", text: "That consent was started in another browser, so it was undone." },
};

export function mountConnect(root: HTMLElement) {
  const outcome = root.querySelector<HTMLElement>("#connect-outcome")!;
  const start = root.querySelector<HTMLElement>("#connect-start-card")!;
  const data = root.querySelector<HTMLElement>("#connect-data")!;
  const organizations = root.querySelector<HTMLSelectElement>("#connect-org")!;
  const contacts = root.querySelector<HTMLTableElement>("#connect-contacts")!;
  const empty = root.querySelector<HTMLElement>("#connect-empty")!;

  function say(tone: "good" | "bad", text: string) {
    outcome.dataset.tone = tone;
    outcome.textContent = text;
    outcome.hidden = false;
  }

  /** The outcome the callback sent the browser back with, shown once (a reload does not repeat it). */
  function takeOutcome() {
    const url = new URL(location.href);
    const named = OUTCOMES[url.searchParams.get("connect") ?? ""];
    if (!url.searchParams.has("connect")) return;
    url.searchParams.delete("connect");
    history.replaceState(null, "", url);
    if (named) say(named.tone, named.text);
  }

  function showNone() {
    start.hidden = false;
    data.hidden = true;
    root.dataset.state = "none";
  }

  function showConnected(shown: Extract<Shown, { connected: true }>) {
    const { connection } = shown;
    start.hidden = true;
    data.hidden = false;
    root.querySelector("#connect-details")!.replaceChildren(
      ...details([
        ["Status", connection.status === "active" ? "Active" : "The user revoked access: connect again"],
        ["Data center", `${connection.region} (${connection.accountsUrl})`],
        ["API", connection.apiDomain ?? undefined],
        ["Connected", new Date(connection.connectedAt).toLocaleString()],
        ["Scopes", connection.scopes.join(", ")],
      ]).childNodes,
    );
    organizations.replaceChildren(...(shown.organizations ?? []).map((o) => el("option", { value: o.id, selected: o.id === shown.organization }, `${o.name} (${o.id})`)));
    const columns = [...contacts.tHead!.rows[0].cells].map((th) => th.textContent ?? "");
    const cells = (c: Contact) => [c.name, c.company, c.email].map((text, i) => el("td", { dataset: { label: columns[i] } }, text));
    const rows = (shown.contacts ?? []).map((c) => el("tr", { dataset: { id: c.id } }, ...cells(c)));
    contacts.tBodies[0].replaceChildren(...rows);
    contacts.hidden = rows.length === 0;
    empty.hidden = rows.length > 0;
    if (shown.failed) say("bad", `The organization's data could not be read (${shown.failed}).`);
    root.dataset.state = connection.status === "active" && !shown.failed ? "connected" : "failed";
  }

  async function load() {
    root.dataset.state = "loading";
    const query = organizations.value ? `?organization=${encodeURIComponent(organizations.value)}` : "";
    try {
      const response = await fetch(`/svc/connection${query}`);
      const shown = (await response.json()) as Shown;
      if (shown.connected) showConnected(shown);
      else showNone();
    } catch {
      say("bad", "The app's server could not be reached.");
      root.dataset.state = "failed";
    }
  }

  async function disconnect() {
    await fetch("/svc/disconnect", { method: "POST" });
    organizations.replaceChildren();
    say("good", "Disconnected: access was revoked at the accounts server.");
    await load();
  }

  if (import.meta.env.MODE === "static") {
    return {
      show() {
        start.hidden = false;
        root.querySelector("#connect-none")!.textContent = "Connecting an organization needs the app's server, which keeps the client secret: run npm start.";
        root.querySelector("#connect-start")?.remove();
        root.dataset.state = "static";
      },
    };
  }
  organizations.addEventListener("change", () => void load());
  root.querySelector("#connect-disconnect")!.addEventListener("click", () => void disconnect());
  return {
    show() {
      takeOutcome();
      void load();
    },
  };
}
