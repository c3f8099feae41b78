// The fixed asset list, one small page at a time, with previous / next from the page context, and
// an empty state that says whether nothing exists or nothing matches the filter.
import type { Client, FixedAssetFilter, FixedAssetListEntry, FixedAssetListQuery } from "svc-sdk";
import { el } from "./dom.ts";
import { showError } from "./issues.ts";
import { requestNote } from "./sent.ts";

const money = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const STATUS: Record<string, string> = {
  draft: "Draft",
  active: "Active",
  fully_depreciated: "Fully depreciated",
  write_off: "Written off",
  sold: "Sold",
  cancel: "Cancelled",
};

export function mountList(root: HTMLElement, client: Client) {
  const table = root.querySelector<HTMLTableElement>("#list-table")!;
  const body = table.tBodies[0];
  const columns = [...table.tHead!.rows[0].cells].map((th) => th.textContent ?? "");
  const empty = root.querySelector<HTMLElement>("#list-empty")!;
  const prev = root.querySelector<HTMLButtonElement>("#list-prev")!;
  const next = root.querySelector<HTMLButtonElement>("#list-next")!;
  const pageNo = root.querySelector<HTMLElement>("#list-page")!;
  const filter = root.querySelector<HTMLSelectElement>("#list-filter")!;
  const perPage = root.querySelector<HTMLSelectElement>("#list-per-page")!;
  const msgs = root.querySelector<HTMLElement>("#list-msgs")!;
  let page = 1;
  let loading: AbortController | undefined;

  const query = (): FixedAssetListQuery => ({ page, per_page: Number(perPage.value), filter_by: filter.value as FixedAssetFilter, sort_column: "created_time", sort_order: "A" });
  const note = requestNote(root.querySelector<HTMLElement>("#list-sent")!, 'client.prepare("listFixedAssets", query)', () => client.prepare("listFixedAssets", query()));

  /** A row; each cell carries its column's name for the stacked layout of narrow screens. */
  const row = (a: FixedAssetListEntry) =>
    el(
      "tr",
      { dataset: { id: a.fixed_asset_id } },
      ...[
        el("td", {}, a.asset_number ?? ""),
        el("td", {}, a.asset_name ?? ""),
        el("td", {}, a.fixed_asset_type_name ?? ""),
        el("td", {}, el("span", { className: "status", dataset: { status: a.status ?? "" } }, STATUS[a.status ?? ""] ?? a.status ?? "")),
        el("td", { className: "num" }, a.asset_cost === undefined ? "" : money.format(Number(a.asset_cost))),
        el("td", { className: "num" }, a.current_asset_value === undefined ? "" : money.format(Number(a.current_asset_value))),
        el("td", { className: "id" }, a.fixed_asset_id),
      ].map((td, i) => ((td.dataset.label = columns[i]), td)),
    );

  function showEmpty(count: number) {
    empty.hidden = count > 0;
    table.hidden = count === 0;
    if (count > 0) return;
    const all = filter.value === "Status.All";
    if (page > 1) empty.replaceChildren(`No more fixed assets${all ? "" : ` match “${filter.selectedOptions[0].text}”`} on page ${page}.`);
    else if (all) empty.replaceChildren("No fixed assets yet. ", el("a", { href: "#asset" }, "Create one"), ".");
    else {
      const showAll = el("button", { type: "button", className: "small secondary", textContent: "Show all" });
      showAll.addEventListener("click", () => {
        filter.value = "Status.All";
        filter.dispatchEvent(new Event("change"));
      });
      empty.replaceChildren(`No fixed assets match “${filter.selectedOptions[0].text}”. `, showAll);
    }
  }

  async function load() {
    loading?.abort();
    const controller = (loading = new AbortController());
    prev.disabled = next.disabled = true;
    root.dataset.state = "loading";
    msgs.replaceChildren();
    note.update();
    try {
      const result = await client.listFixedAssets(query(), { signal: controller.signal });
      body.replaceChildren(...result.items.map(row));
      showEmpty(result.items.length);
      pageNo.textContent = `Page ${page}`;
      root.dataset.page = String(page);
      prev.disabled = page <= 1;
      next.disabled = !result.page_context?.has_more_page;
      root.dataset.state = "done";
    } catch (e) {
      if (controller.signal.aborted) return;
      // The list has no form fields: every message goes to the list's own slot.
      const holder = el("div", {}, el("div", { dataset: { msgFor: "" } }));
      showError(holder, e);
      msgs.replaceChildren(...holder.firstElementChild!.childNodes);
      prev.disabled = page <= 1;
      root.dataset.state = "failed";
    }
  }

  prev.addEventListener("click", () => {
    page = Math.max(1, page - 1);
    load();
  });
  next.addEventListener("click", () => {
    page += 1;
    load();
  });
  for (const select of [filter, perPage]) {
    select.addEventListener("change", () => {
      page = 1;
      load();
    });
  }

  return {
    show() {
      load();
    },
  };
}
