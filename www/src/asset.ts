// New fixed asset: type and account pickers filled from the service, the percentage shown only for
// declining methods (the rules refuse it with straight_line), checked with validate() as the user goes.
import { validate, type AccountListEntry, type Client, type FixedAssetInput, type FixedAssetType } from "svc-sdk";
import { Touched, details, el, focusFirstInvalid, showError, showIssues } from "./issues.ts";

const NUMBERS = new Set(["asset_cost", "depreciation_percentage", "total_life", "salvage_value"]);
/** Fields a fixed asset type carries defaults for. */
const FROM_TYPE = ["depreciation_method", "depreciation_percentage", "depreciation_frequency", "total_life", "salvage_value", "computation_type", "expense_account_id", "depreciation_account_id"] as const;

const isDeclining = (method: string) => method.includes("declining");
const today = () => new Date().toISOString().slice(0, 10);

export function mountAsset(root: HTMLElement, client: Client) {
  const form = root.querySelector<HTMLFormElement>("#asset-form")!;
  const result = root.querySelector<HTMLElement>("#asset-result")!;
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  const control = (name: string) => form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement;
  const method = control("depreciation_method") as HTMLSelectElement;
  const percentageField = form.querySelector<HTMLElement>("#fa-percentage-field")!;
  const touched = new Touched();
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

  function check() {
    const r = validate("createFixedAsset", params());
    const issues = r.ok ? [] : r.issues;
    showIssues(form, issues, (k) => touched.has(k));
    return issues;
  }

  function syncPercentage() {
    percentageField.hidden = !isDeclining(method.value);
  }

  /** A type's defaults fill the depreciation fields the user has not set themselves. */
  function applyType(id: string) {
    const type = types.find((t) => t.fixed_asset_type_id === id);
    if (!type) return;
    for (const name of FROM_TYPE) {
      const value = type[name];
      if (value === undefined || value === null || touched.has(name)) continue;
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
    } catch (e) {
      typeSelect.replaceChildren(new Option("Could not load the types", ""));
      showError(form, e);
    }
  }

  form.addEventListener("input", (ev) => {
    const t = ev.target as HTMLElement;
    if (t.dataset.key) touched.add(t.dataset.key);
    if (t === method) syncPercentage();
    if (t.dataset.key === "fixed_asset_type_id") applyType((t as HTMLSelectElement).value);
    check();
  });
  form.addEventListener("change", (ev) => {
    // Date pickers and selects report some changes as change only.
    const t = ev.target as HTMLElement;
    if (t.dataset.key) touched.add(t.dataset.key);
    check();
  });

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    touched.all();
    if (check().length > 0) return focusFirstInvalid(form);
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
      touched.reset();
      showIssues(form, []);
    } catch (e) {
      showError(form, e);
      focusFirstInvalid(form);
    } finally {
      button.disabled = false;
    }
  });

  syncPercentage();
  return {
    show() {
      loaded ??= load();
    },
  };
}
