// Notification channel builder: events (module + operation), field conditions as nested groups, the
// expiry (at most a week ahead). The builder keeps its own state and renders the form from it; every
// control carries the issue path of its value, so the rules' messages land next to it.
import { SvcError, validate, type Client, type FieldSelection, type GroupMember, type WatchChannel, type WatchOperation, type WatchParams } from "svc-sdk";
import { Touched, el, focusFirstInvalid, keyOf, showError, showIssues } from "./issues.ts";

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

const countFields = (g: Group): number => g.members.reduce((n, m) => n + (m.kind === "field" ? 1 : countFields(m)), 0);

export function mountChannel(root: HTMLElement, client: Client) {
  const form = root.querySelector<HTMLFormElement>("#channel-form")!;
  const result = root.querySelector<HTMLElement>("#channel-result")!;
  const touched = new Touched();
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
  let sending = false;

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

  function check() {
    const r = validate("updateNotificationChannels", params());
    const issues = r.ok ? [] : r.issues;
    showIssues(form, issues, (k) => touched.has(k));
    for (const [i, c] of state.conditions.entries()) {
      const count = form.querySelector<HTMLElement>(`[data-count-for="${i}"]`);
      if (!count) continue;
      const n = countFields(c.selection);
      count.textContent = `${n} of ${MAX_FIELDS} fields`;
      count.classList.toggle("over", n > MAX_FIELDS);
    }
    return issues;
  }

  // ---- rendering ----------------------------------------------------------------------------
  const slot = (path: Path) => el("div", { className: "msgs", dataset: { msgFor: keyOf(path) } });

  /** An input bound to a state setter; it marks its path touched and re-checks on every keystroke. */
  function input(path: Path, value: string, set: (v: string) => void, props: Partial<HTMLInputElement> = {}) {
    const node = el("input", { value, autocomplete: "off", ...props, dataset: { key: keyOf(path) } });
    node.addEventListener("input", () => {
      set(node.value);
      touched.add(keyOf(path));
      check();
    });
    return node;
  }
  function select<T extends string>(path: Path, options: readonly [T, string][], value: T, set: (v: T) => void) {
    const node = el("select", { dataset: { key: keyOf(path) } }, ...options.map(([v, label]) => new Option(label, v, v === value, v === value)));
    node.addEventListener("change", () => {
      set(node.value as T);
      touched.add(keyOf(path));
      check();
    });
    return node;
  }
  /** A button that changes the structure: the form is rendered again, then focus goes where asked. */
  function action(label: string, className: string, dataset: Record<string, string>, change: () => Path | void) {
    const node = el("button", { type: "button", className, textContent: label, dataset });
    node.addEventListener("click", () => {
      const focus = change();
      render();
      check();
      if (focus) form.querySelector<HTMLElement>(`[data-key="${CSS.escape(keyOf(focus))}"]`)?.focus();
    });
    return node;
  }

  function field(label: string, path: Path, control: HTMLElement, hint?: string) {
    const id = `ch-${keyOf(path).replaceAll(".", "-")}`;
    control.id = id;
    return el("div", { className: "field" }, el("label", { htmlFor: id }, label), control, ...(hint ? [el("p", { className: "hint" }, hint)] : []), slot(path));
  }

  function renderGroup(g: Group, path: Path, remove?: () => void): HTMLElement {
    const groupPath = [...path, "group"];
    const gkey = keyOf(groupPath);
    const head = el(
      "div",
      { className: "group-head" },
      "Match",
      select([...path, "group_operator"], [["or", "any"], ["and", "all"]] as const, g.group_operator, (v) => (g.group_operator = v)),
      "of these",
      action("+ Field", "small secondary", { action: "add-field", group: gkey }, () => {
        g.members.push({ kind: "field", api_name: "", id: "" });
        touched.add(gkey);
        return [...groupPath, g.members.length - 1, "field", "api_name"];
      }),
      action("+ Group", "small secondary", { action: "add-group", group: gkey }, () => {
        g.members.push({ kind: "group", group_operator: "and", members: [{ kind: "field", api_name: "", id: "" }] });
        touched.add(gkey);
        return [...groupPath, g.members.length - 1, "group", 0, "field", "api_name"];
      }),
      ...(remove ? [action("Remove group", "remove", { action: "remove-group", group: gkey }, remove)] : []),
    );
    const members = g.members.map((m, i) => {
      const at = [...groupPath, i];
      const drop = () => {
        g.members.splice(i, 1);
        touched.add(gkey);
      };
      if (m.kind === "group") return el("div", { className: "member" }, renderGroup(m, at, drop), slot(at));
      return el(
        "div",
        { className: "member" },
        el(
          "div",
          { className: "row" },
          input([...at, "field", "api_name"], m.api_name, (v) => (m.api_name = v), { className: "grow", placeholder: "Field API name, e.g. Amount", ariaLabel: "Field API name" }),
          input([...at, "field", "id"], m.id, (v) => (m.id = v), { placeholder: "Field id (optional)", ariaLabel: "Field id", size: 18 }),
          action("Remove", "remove", { action: "remove-field", field: keyOf(at) }, drop),
        ),
        slot(at),
        slot([...at, "field", "api_name"]),
        slot([...at, "field", "id"]),
      );
    });
    return el("div", { className: "group", dataset: { group: gkey } }, head, slot([...path, "group_operator"]), slot(groupPath), ...members);
  }

  function render() {
    const now = Date.now();
    const top = el(
      "div",
      { className: "grid" },
      field("Channel id", [...W, "channel_id"], input([...W, "channel_id"], state.channel_id, (v) => (state.channel_id = v), { inputMode: "numeric" }), "A number of your choice; callbacks echo it."),
      field("Notify URL", [...W, "notify_url"], input([...W, "notify_url"], state.notify_url, (v) => (state.notify_url = v), { type: "url" }), "Receives a POST for each matching change."),
      field("Verification token", [...W, "token"], input([...W, "token"], state.token, (v) => (state.token = v), { placeholder: "optional, at most 50 characters" }), "Echoed in every callback."),
      field(
        "Expires",
        [...W, "channel_expiry"],
        input([...W, "channel_expiry"], state.expiry, (v) => (state.expiry = v), { type: "datetime-local", min: localInput(now), max: localInput(now + WEEK_MS) }),
        "At most one week ahead; leave empty for one hour.",
      ),
    );
    const related = el("input", { type: "checkbox", checked: state.related, dataset: { key: keyOf([...W, "notify_on_related_action"]) } });
    related.addEventListener("change", () => {
      state.related = related.checked;
      check();
    });

    const events = state.events.map((e, j) => {
      const at = [...W, "events", j];
      return el(
        "div",
        {},
        el(
          "div",
          { className: "row" },
          input(at, e.module, (v) => (e.module = v), { className: "grow", placeholder: "Module API name", ariaLabel: "Module" }),
          select(
            [...at, "operation"],
            OPERATIONS.map((o) => [o, o] as [WatchOperation, string]),
            e.operation,
            (v) => (e.operation = v),
          ),
          ...(state.events.length > 1
            ? [
                action("Remove", "remove", { action: "remove-event" }, () => {
                  state.events.splice(j, 1);
                  touched.add(keyOf([...W, "events"]));
                }),
              ]
            : []),
        ),
        slot(at),
      );
    });

    const conditions = state.conditions.map((c, k) => {
      const at = [...W, "notification_condition", k];
      return el(
        "div",
        { className: "condition", dataset: { condition: String(k) } },
        el(
          "div",
          { className: "condition-head" },
          el("strong", {}, `Condition ${k + 1}`),
          "on module",
          input([...at, "module", "api_name"], c.module, (v) => (c.module = v), { placeholder: "Module API name", ariaLabel: "Condition module" }),
          input([...at, "module", "id"], c.module_id, (v) => (c.module_id = v), { placeholder: "Module id (optional)", ariaLabel: "Condition module id", size: 18 }),
          el("span", { className: "count", dataset: { countFor: String(k) } }),
          action("Remove condition", "remove", { action: "remove-condition" }, () => {
            state.conditions.splice(k, 1);
            touched.add(keyOf([...W, "notification_condition"]));
          }),
        ),
        slot(at),
        slot([...at, "module"]),
        slot([...at, "module", "api_name"]),
        slot([...at, "field_selection"]),
        renderGroup(c.selection, [...at, "field_selection"]),
      );
    });

    const button = el("button", { type: "submit", textContent: "Save channel", disabled: sending });
    form.replaceChildren(
      top,
      el("label", { className: "check" }, related, "Also notify on actions on related records"),
      el("div", { className: "sub" }, "Events", action("+ Event", "small secondary", { action: "add-event" }, () => {
        state.events.push({ module: state.events.at(-1)?.module ?? "Deals", operation: "edit" });
        return [...W, "events", state.events.length - 1];
      })),
      el("div", { className: "rows" }, ...events),
      slot([...W, "events"]),
      el("div", { className: "sub" }, "Conditions", el("span", { className: "count" }, `optional, at most ${MAX_CONDITIONS}`), action("+ Condition", "small secondary", { action: "add-condition" }, () => {
        state.conditions.push({ module: state.events[0]?.module ?? "Deals", module_id: "", selection: { kind: "group", group_operator: "or", members: [{ kind: "field", api_name: "", id: "" }] } });
        touched.add(keyOf([...W, "notification_condition"]));
        return [...W, "notification_condition", state.conditions.length - 1, "field_selection", "group", 0, "field", "api_name"];
      })),
      slot([...W, "notification_condition"]),
      ...conditions,
      slot(W),
      slot([]),
      el("div", { className: "actions" }, button, el("span", { id: "channel-status", className: "count" })),
      el("datalist", { id: "crm-modules" }, ...MODULES.map((m) => new Option(m, m))),
    );
    // `list` is read-only as a property: set the attribute so the module inputs offer the module names.
    for (const node of form.querySelectorAll<HTMLInputElement>('input[data-key$="api_name"][data-key*="module"], input[data-key^="watch.0.events."]')) node.setAttribute("list", "crm-modules");
    for (const node of form.querySelectorAll(".msgs[data-msg-for='']")) node.classList.add("form-msgs");
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (sending) return;
    touched.all();
    const status = () => form.querySelector<HTMLElement>("#channel-status")!;
    result.hidden = true;
    delete root.dataset.outcome;
    sending = true;
    render();
    check();
    try {
      // The client checks the params first: an invalid channel is refused before anything is sent.
      const answer = await client.updateNotificationChannels(params());
      result.replaceChildren(
        el("h2", {}, "Channel saved"),
        ...answer.map((w) =>
          el(
            "div",
            {},
            el("p", {}, `${w.status ?? ""} ${w.code ? `(${w.code})` : ""}: ${w.message ?? ""}`),
            ...(w.details?.events ?? []).map((e) =>
              el(
                "dl",
                {},
                ...[
                  ["Module", e.resource_name],
                  ["Channel id", e.channel_id],
                  ["Expires", e.channel_expiry],
                  ["Resource", e.resource_uri],
                ]
                  .filter(([, v]) => v)
                  .flatMap(([k, v]) => [el("dt", {}, k!), el("dd", {}, String(v))]),
              ),
            ),
          ),
        ),
      );
      result.dataset.channelId = state.channel_id;
      result.hidden = false;
      status().textContent = "Saved.";
      root.dataset.outcome = "saved";
    } catch (e) {
      showError(form, e);
      const n = e instanceof SvcError && e.issues ? e.issues.length : 1;
      status().textContent = e instanceof SvcError && e.kind === "validation" ? `Not sent: ${n} ${n === 1 ? "problem" : "problems"} to fix.` : "Not saved.";
      root.dataset.outcome = e instanceof SvcError && e.kind === "validation" ? "refused" : "failed";
      focusFirstInvalid(form);
    } finally {
      sending = false;
      form.querySelector<HTMLButtonElement>("button[type=submit]")!.disabled = false;
    }
  });

  render();
  return {
    show() {
      check();
    },
  };
}
