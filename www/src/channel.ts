// Notification channel builder: events (module + operation), field conditions as nested groups, the
// expiry (at most a week ahead). The builder keeps its own state and renders the form from it; every
// control carries the issue path of its value, so the rules' messages land next to it.
import { SvcError, validate, type Client, type FieldSelection, type GroupMember, type WatchChannel, type WatchOperation, type WatchParams, type WatchResult } from "svc-sdk";
import { bound } from "./words.ts";
import { details, el } from "./dom.ts";
import { keyOf, reportFailure, showSummary } from "./issues.ts";
import { liveForm } from "./live.ts";
import { requestNote } from "./sent.ts";

const MODULES = ["Leads", "Accounts", "Contacts", "Deals", "Campaigns", "Tasks", "Cases", "Meetings", "Calls", "Solutions", "Products", "Vendors", "Price_Books", "Quotes", "Sales_Orders", "Purchase_Orders", "Invoices", "Appointments", "Services"];
const OPERATIONS: WatchOperation[] = ["create", "edit", "delete", "all"];
const MAX_FIELDS = 10;
const MAX_CONDITIONS = 2;
const WEEK_MS = 7 * 24 * 3600 * 1000;

type Field = { kind: "field"; api_name: string; id: string };
type Group = { kind: "group"; group_operator: "and" | "or"; members: Member[] };
type Member = Field | Group;
type Condition = { module: string; module_id: string; selection: Group };
type Path = (string | number)[];

/** A datetime-local value (local time, minutes) for a moment. */
function localInput(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

/** One channel of the service's answer. */
const savedChannel = (w: WatchResult) =>
  el(
    "div",
    {},
    el("p", {}, `${w.status ?? ""} ${w.code ? `(${w.code})` : ""}: ${w.message ?? ""}`),
    ...(w.details?.events ?? []).map((e) =>
      details([
        ["Module", e.resource_name],
        ["Channel id", e.channel_id],
        ["Expires", bound(e.channel_expiry)],
        ["Resource", e.resource_uri],
      ]),
    ),
  );

const countFields = (g: Group): number => g.members.reduce((n, m) => n + (m.kind === "field" ? 1 : countFields(m)), 0);

export function mountChannel(root: HTMLElement, client: Client) {
  const form = root.querySelector<HTMLFormElement>("#channel-form")!;
  const builder = form.querySelector<HTMLElement>("#channel-builder")!;
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  const result = root.querySelector<HTMLElement>("#channel-result")!;
  const summary = root.querySelector<HTMLElement>("#channel-summary")!;
  const state = {
    channel_id: String(Date.now()),
    notify_url: `${location.origin}/hooks/crm`,
    token: "",
    expiry: localInput(Date.now() + 2 * 24 * 3600 * 1000),
    related: true,
    events: [{ module: "Deals", operation: "create" as WatchOperation }],
    conditions: [] as Condition[],
  };
  const W: Path = ["watch", 0];

  // ---- state -> params ----------------------------------------------------------------------
  function selection(g: Group): FieldSelection {
    return {
      group_operator: g.group_operator,
      group: g.members.map((m): GroupMember => (m.kind === "field" ? { field: { ...(m.api_name.trim() && { api_name: m.api_name.trim() }), ...(m.id.trim() && { id: m.id.trim() }) } } : selection(m))),
    };
  }
  function params(): WatchParams {
    const channel: WatchChannel = {
      channel_id: state.channel_id.trim(),
      events: state.events.map((e) => `${e.module.trim()}.${e.operation}` as WatchChannel["events"][number]),
      notify_url: state.notify_url.trim(),
      notify_on_related_action: state.related,
    };
    if (state.token !== "") channel.token = state.token;
    if (state.expiry !== "") {
      const at = new Date(state.expiry);
      // An unreadable value goes as typed, so the rules say what is wrong with it.
      channel.channel_expiry = Number.isNaN(at.getTime()) ? state.expiry : at.toISOString();
    }
    if (state.conditions.length > 0) {
      channel.notification_condition = state.conditions.map((c) => ({
        type: "field_selection",
        module: { api_name: c.module.trim(), ...(c.module_id.trim() && { id: c.module_id.trim() }) },
        field_selection: selection(c.selection),
      }));
    }
    return { watch: [channel] };
  }

  function issues() {
    const r = validate("updateNotificationChannels", params());
    return r.ok ? [] : r.issues;
  }

  function counts() {
    for (const [i, c] of state.conditions.entries()) {
      const count = form.querySelector<HTMLElement>(`[data-count-for="${i}"]`);
      if (!count) continue;
      const n = countFields(c.selection);
      count.textContent = `${n} of ${MAX_FIELDS} fields`;
      count.classList.toggle("over", n > MAX_FIELDS);
    }
  }

  const note = requestNote(root.querySelector<HTMLElement>("#channel-sent")!, 'client.prepare("updateNotificationChannels", params)', () => client.prepare("updateNotificationChannels", params()));
  const live = liveForm(form, summary, issues, () => {
    counts();
    note.update();
  });

  // ---- rendering ----------------------------------------------------------------------------
  /** A message slot; `place` names it where no control's label does (data-label, data-one, data-many). */
  const slot = (path: Path, place: Record<string, string> = {}) => el("div", { className: "msgs", ariaLive: "polite", dataset: { msgFor: keyOf(path), ...place } });

  /** An input bound to a state setter; the form checks itself after the setter ran. */
  function input(path: Path, value: string, set: (v: string) => void, props: Partial<HTMLInputElement> = {}) {
    const node = el("input", { value, autocomplete: "off", ...props, dataset: { key: keyOf(path) } });
    node.addEventListener("input", () => set(node.value));
    return node;
  }
  function select<T extends string>(path: Path, options: readonly [T, string][], value: T, set: (v: T) => void, label: string) {
    const node = el("select", { dataset: { key: keyOf(path) } }, ...options.map(([v, text]) => new Option(text, v, v === value, v === value)));
    node.setAttribute("aria-label", label);
    node.addEventListener("input", () => set(node.value as T));
    return node;
  }
  /** A button that changes the structure: the form is rendered again, then focus goes where asked. */
  function action(label: string, className: string, dataset: Record<string, string>, change: () => Path | void) {
    const node = el("button", { type: "button", className, textContent: label, dataset });
    node.addEventListener("click", () => {
      const focus = change();
      render();
      live.refresh();
      if (focus) form.querySelector<HTMLElement>(`[data-key="${CSS.escape(keyOf(focus))}"]`)?.focus();
    });
    return node;
  }

  function field(label: string, path: Path, control: HTMLElement, hint: string) {
    const id = `ch-${keyOf(path).replaceAll(".", "-")}`;
    control.id = id;
    control.setAttribute("aria-describedby", `${id}-hint`);
    return el("div", { className: "field" }, el("label", { htmlFor: id }, label), control, el("p", { className: "hint", id: `${id}-hint` }, hint), slot(path));
  }

  /** A group of fields; `name` is how its messages call it ("Condition 1", "A group in condition 1"). */
  function renderGroup(g: Group, path: Path, name: string, remove?: () => void): HTMLElement {
    const groupPath = [...path, "group"];
    const gkey = keyOf(groupPath);
    const head = el(
      "div",
      { className: "group-head" },
      "Match",
      select([...path, "group_operator"], [["or", "any"], ["and", "all"]] as const, g.group_operator, (v) => (g.group_operator = v), `${name}: match any or all`),
      "of these",
      action("+ Field", "small secondary", { action: "add-field", group: gkey }, () => {
        g.members.push({ kind: "field", api_name: "", id: "" });
        live.touched.add(gkey);
        return [...groupPath, g.members.length - 1, "field", "api_name"];
      }),
      action("+ Group", "small secondary", { action: "add-group", group: gkey }, () => {
        g.members.push({ kind: "group", group_operator: "and", members: [{ kind: "field", api_name: "", id: "" }] });
        live.touched.add(gkey);
        return [...groupPath, g.members.length - 1, "group", 0, "field", "api_name"];
      }),
      ...(remove ? [action("Remove group", "remove", { action: "remove-group", group: gkey }, remove)] : []),
    );
    const members = g.members.map((m, i) => {
      const at = [...groupPath, i];
      const drop = () => {
        g.members.splice(i, 1);
        live.touched.add(gkey);
      };
      const inner = `A group in ${name.toLowerCase()}`;
      if (m.kind === "group") return el("div", { className: "member" }, renderGroup(m, at, inner, drop), slot(at, { label: inner }));
      return el(
        "div",
        { className: "member" },
        el(
          "div",
          { className: "row" },
          input([...at, "field", "api_name"], m.api_name, (v) => (m.api_name = v), { className: "grow", placeholder: "Field API name, e.g. Amount", ariaLabel: `API name of field ${i + 1}` }),
          input([...at, "field", "id"], m.id, (v) => (m.id = v), { placeholder: "Field id (optional)", ariaLabel: `Id of field ${i + 1}`, size: 18 }),
          action("Remove", "remove", { action: "remove-field", field: keyOf(at) }, drop),
        ),
        slot(at, { label: `Field ${i + 1}` }),
        slot([...at, "field", "api_name"]),
        slot([...at, "field", "id"]),
      );
    });
    return el("div", { className: "group", dataset: { group: gkey } }, head, slot([...path, "group_operator"]), slot(groupPath, { label: name, one: "field", many: "fields" }), ...members);
  }

  function render() {
    const now = Date.now();
    const top = el(
      "div",
      { className: "grid" },
      field("Channel id", [...W, "channel_id"], input([...W, "channel_id"], state.channel_id, (v) => (state.channel_id = v), { inputMode: "numeric" }), "A number of your choice; callbacks echo it."),
      field("Notify URL", [...W, "notify_url"], input([...W, "notify_url"], state.notify_url, (v) => (state.notify_url = v), { type: "url" }), "Receives a POST for each matching change."),
      field("Verification token", [...W, "token"], input([...W, "token"], state.token, (v) => (state.token = v), { placeholder: "optional" }), "Optional, at most 50 characters; echoed in every callback."),
      field(
        "Expiry",
        [...W, "channel_expiry"],
        input([...W, "channel_expiry"], state.expiry, (v) => (state.expiry = v), { type: "datetime-local", min: localInput(now), max: localInput(now + WEEK_MS) }),
        "At most one week ahead; leave empty for one hour.",
      ),
    );
    const related = el("input", { type: "checkbox", checked: state.related, dataset: { key: keyOf([...W, "notify_on_related_action"]) } });
    related.addEventListener("change", () => (state.related = related.checked));

    const events = state.events.map((e, j) => {
      const at = [...W, "events", j];
      return el(
        "div",
        {},
        el(
          "div",
          { className: "row" },
          input(at, e.module, (v) => (e.module = v), { className: "grow", placeholder: "Module API name", ariaLabel: `Module of event ${j + 1}` }),
          select(
            [...at, "operation"],
            OPERATIONS.map((o) => [o, o] as [WatchOperation, string]),
            e.operation,
            (v) => (e.operation = v),
            `Operation of event ${j + 1}`,
          ),
          ...(state.events.length > 1
            ? [
                action("Remove", "remove", { action: "remove-event" }, () => {
                  state.events.splice(j, 1);
                  live.touched.add(keyOf([...W, "events"]));
                }),
              ]
            : []),
        ),
        slot(at, { label: `Event ${j + 1}` }),
      );
    });

    const conditions = state.conditions.map((c, k) => {
      const at = [...W, "notification_condition", k];
      const name = `Condition ${k + 1}`;
      return el(
        "div",
        { className: "condition", dataset: { condition: String(k) } },
        el(
          "div",
          { className: "condition-head" },
          el("strong", {}, name),
          "on module",
          input([...at, "module", "api_name"], c.module, (v) => (c.module = v), { placeholder: "Module API name", ariaLabel: `Module of condition ${k + 1}` }),
          input([...at, "module", "id"], c.module_id, (v) => (c.module_id = v), { placeholder: "Module id (optional)", ariaLabel: `Module id of condition ${k + 1}`, size: 18 }),
          el("span", { className: "count", dataset: { countFor: String(k) } }),
          action("Remove condition", "remove", { action: "remove-condition" }, () => {
            state.conditions.splice(k, 1);
            live.touched.add(keyOf([...W, "notification_condition"]));
          }),
        ),
        slot(at, { label: name }),
        slot([...at, "module"], { label: `The module of condition ${k + 1}` }),
        slot([...at, "module", "api_name"]),
        slot([...at, "field_selection"], { label: name }),
        renderGroup(c.selection, [...at, "field_selection"], name),
      );
    });

    builder.replaceChildren(
      top,
      el("label", { className: "check" }, related, "Also notify on actions on related records"),
      el("div", { className: "sub" }, "Events", action("+ Event", "small secondary", { action: "add-event" }, () => {
        state.events.push({ module: state.events.at(-1)?.module ?? "Deals", operation: "edit" });
        return [...W, "events", state.events.length - 1];
      })),
      el("div", { className: "rows" }, ...events),
      slot([...W, "events"], { label: "The channel", one: "event", many: "events" }),
      el("div", { className: "sub" }, "Conditions", el("span", { className: "count" }, `optional, at most ${MAX_CONDITIONS}`), action("+ Condition", "small secondary", { action: "add-condition" }, () => {
        state.conditions.push({ module: state.events[0]?.module ?? "Deals", module_id: "", selection: { kind: "group", group_operator: "or", members: [{ kind: "field", api_name: "", id: "" }] } });
        live.touched.add(keyOf([...W, "notification_condition"]));
        return [...W, "notification_condition", state.conditions.length - 1, "field_selection", "group", 0, "field", "api_name"];
      })),
      slot([...W, "notification_condition"], { label: "The channel", one: "condition", many: "conditions" }),
      ...conditions,
      slot(W, { label: "The channel" }),
      el("datalist", { id: "crm-modules" }, ...MODULES.map((m) => new Option(m, m))),
    );
    // `list` is read-only as a property: set the attribute so the module inputs offer the module names.
    for (const node of builder.querySelectorAll<HTMLInputElement>('input[data-key$="api_name"][data-key*="module"], input[data-key^="watch.0.events."]')) node.setAttribute("list", "crm-modules");
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (button.disabled) return;
    result.hidden = true;
    delete root.dataset.outcome;
    button.disabled = true;
    live.touched.all();
    live.refresh();
    try {
      // The client checks the params first: an invalid channel is refused before anything is sent.
      const answer = await client.updateNotificationChannels(params());
      result.replaceChildren(el("h2", {}, "Channel saved"), ...answer.map(savedChannel));
      result.dataset.channelId = state.channel_id;
      result.hidden = false;
      showSummary(summary, []);
      root.dataset.outcome = "saved";
    } catch (e) {
      reportFailure(form, summary, e);
      root.dataset.outcome = e instanceof SvcError && e.kind === "validation" ? "refused" : "failed";
    } finally {
      button.disabled = false;
    }
  });

  render();
  return {
    show() {
      live.refresh();
    },
  };
}
