// New fixed asset: type and account pickers filled from the service, the percentage shown only for
// declining methods (the rules refuse it with straight_line), checked with validate() as the user goes.
import { validate, type AccountListEntry, type Client, type FixedAssetInput, type FixedAssetType } from "svc-sdk";
import { details, el } from "./dom.ts";
import { reportFailure, showError } from "./issues.ts";
import { liveForm } from "./live.ts";
import { requestNote } from "./sent.ts";

const NUMBERS = new Set(["asset_cost", "depreciation_percentage", "total_life", "salvage_value"]);
/** Fields a fixed asset type carries defaults for. */
const FROM_TYPE = ["depreciation_method", "depreciation_percentage", "depreciation_frequency", "total_life", "salvage_value", "computation_type", "expense_account_id", "depreciation_account_id"] as const;

const isDeclining = (method: string) => method.includes("declining");
const today = () => new Date().toISOString().slice(0, 10);

export function mountAsset(root: HTMLElement, client: Client) {
  const form = root.querySelector<HTMLFormElement>("#asset-form")!;
  const result = root.querySelector<HTMLElement>("#asset-result")!;
  const summary = root.querySelector<HTMLElement>("#asset-summary")!;
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  const control = (name: string) => form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement;
  const method = control("depreciation_method") as HTMLSelectElement;
  const percentageField = form.querySelector<HTMLElement>("#fa-percentage-field")!;
  /** The fields the user has set themselves: a type's defaults leave them alone. */
  const edited = new Set<string>();
  let types: FixedAssetType[] = [];
  let loaded: Promise<void> | undefined;

  (control("asset_purchase_date") as HTMLInputElement).value = today();

  function params(): FixedAssetInput {
    const out: Record<string, unknown> = {};
    for (const [k, v] of new FormData(form)) {
      if (typeof v !== "string" || v.trim() === "") continue;
      if (k === "depreciation_percentage" && !isDeclining(method.value)) continue;
      out[k] = NUMBERS.has(k) ? Number(v) : v.trim();
    }
    return out as unknown as FixedAssetInput;
  }

  function issues() {
    const r = validate("createFixedAsset", params());
    return r.ok ? [] : r.issues;
  }
  const note = requestNote(root.querySelector<HTMLElement>("#asset-sent")!, 'client.prepare("createFixedAsset", params)', () => client.prepare("createFixedAsset", params()));
  const live = liveForm(form, summary, issues, note.update);

  function syncPercentage() {
    percentageField.hidden = !isDeclining(method.value);
  }

  /** A type's defaults fill the depreciation fields the user has not set themselves. */
  function applyType(id: string) {
    const type = types.find((t) => t.fixed_asset_type_id === id);
    if (!type) return;
    for (const name of FROM_TYPE) {
      const value = type[name];
      if (value === undefined || value === null || edited.has(name)) continue;
      control(name).value = String(value);
    }
    syncPercentage();
  }

  function fillAccounts(accounts: AccountListEntry[]) {
    const byType = new Map<string, AccountListEntry[]>();
    for (const a of accounts) {
      const t = (a.account_type ?? "other").replaceAll("_", " ");
      byType.set(t, [...(byType.get(t) ?? []), a]);
    }
    for (const select of form.querySelectorAll<HTMLSelectElement>("select[name$=_account_id]")) {
      const optional = select.hasAttribute("data-optional");
      select.replaceChildren(new Option(optional ? "—" : "Choose an account", ""));
      // Fixed asset accounts first: that is where an asset belongs.
      const groups = [...byType].sort(([a], [b]) => Number(b === "fixed asset") - Number(a === "fixed asset"));
      for (const [type, list] of groups) {
        const group = el("optgroup", { label: type[0].toUpperCase() + type.slice(1) });
        for (const a of list) group.append(new Option(`${a.account_code ? a.account_code + " · " : ""}${a.account_name ?? a.account_id}`, a.account_id));
        select.append(group);
      }
    }
    const fixed = accounts.find((a) => a.account_type === "fixed_asset");
    if (fixed) control("asset_account_id").value = fixed.account_id;
  }

  async function load() {
    const typeSelect = control("fixed_asset_type_id") as HTMLSelectElement;
    try {
      // Every account of every page: a page is async-iterable.
      const accounts: AccountListEntry[] = [];
      const [typePage] = await Promise.all([
        client.listFixedAssetTypes(),
        (async () => {
          for await (const a of await client.listAccounts({ per_page: 100 })) accounts.push(a);
        })(),
      ]);
      types = typePage.items;
      typeSelect.replaceChildren(new Option("Choose a type", ""), ...types.map((t) => new Option(t.fixed_asset_type_name ?? t.fixed_asset_type_id, t.fixed_asset_type_id)));
      fillAccounts(accounts);
      form.dataset.loaded = "true";
      live.refresh();
    } catch (e) {
      typeSelect.replaceChildren(new Option("Could not load the types", ""));
      showError(form, e);
    }
  }

  // Capture: the type's defaults and the percentage's visibility are in place before the form checks itself.
  form.addEventListener(
    "input",
    (ev) => {
      const t = ev.target as HTMLElement;
      if (t.dataset.key) edited.add(t.dataset.key);
      if (t === method) syncPercentage();
      if (t.dataset.key === "fixed_asset_type_id") applyType((t as HTMLSelectElement).value);
    },
    { capture: true },
  );

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (!live.attempt()) return;
    button.disabled = true;
    result.hidden = true;
    try {
      const asset = await client.createFixedAsset(params());
      result.replaceChildren(
        el("h2", {}, `Fixed asset “${asset.asset_name ?? ""}” created`),
        details([
          ["Fixed asset id", asset.fixed_asset_id],
          ["Number", asset.asset_number as string | undefined],
          ["Status", asset.status as string | undefined],
          ["Type", asset.fixed_asset_type_name as string | undefined],
          ["Account", asset.asset_account_name as string | undefined],
        ]),
        el("p", {}, el("a", { href: "#list" }, "See it in the list →")),
      );
      result.dataset.fixedAssetId = asset.fixed_asset_id;
      result.hidden = false;
      for (const name of ["asset_name", "asset_cost", "serial_no", "warranty_expiry_date"]) control(name).value = "";
      live.reset();
    } catch (e) {
      reportFailure(form, summary, e);
    } finally {
      button.disabled = false;
    }
  });

  syncPercentage();
  note.update();
  return {
    show() {
      loaded ??= load();
    },
  };
}
