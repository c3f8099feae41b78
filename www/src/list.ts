// The fixed asset list, one small page at a time, with previous / next from the page context.
import type { Client, FixedAssetFilter } from "svc-sdk";
import { el, showError } from "./issues.ts";

const money = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function mountList(root: HTMLElement, client: Client) {
  const body = root.querySelector<HTMLTableSectionElement>("#list-table tbody")!;
  const empty = root.querySelector<HTMLElement>("#list-empty")!;
  const prev = root.querySelector<HTMLButtonElement>("#list-prev")!;
  const next = root.querySelector<HTMLButtonElement>("#list-next")!;
  const pageNo = root.querySelector<HTMLElement>("#list-page")!;
  const filter = root.querySelector<HTMLSelectElement>("#list-filter")!;
  const perPage = root.querySelector<HTMLSelectElement>("#list-per-page")!;
  const msgs = root.querySelector<HTMLElement>("#list-msgs")!;
  let page = 1;
  let loading: AbortController | undefined;

  async function load() {
    loading?.abort();
    const controller = (loading = new AbortController());
    prev.disabled = next.disabled = true;
    root.dataset.state = "loading";
    msgs.replaceChildren();
    try {
      const result = await client.listFixedAssets(
        { page, per_page: Number(perPage.value), filter_by: filter.value as FixedAssetFilter, sort_column: "created_time", sort_order: "A" },
        { signal: controller.signal },
      );
      const ctx = result.page_context ?? {};
      body.replaceChildren(
        ...result.items.map((a) =>
          el(
            "tr",
            { dataset: { id: a.fixed_asset_id } },
            el("td", {}, a.asset_number ?? ""),
            el("td", {}, a.asset_name ?? ""),
            el("td", {}, a.fixed_asset_type_name ?? ""),
            el("td", {}, el("span", { className: "status" }, a.status ?? "")),
            el("td", { className: "num" }, a.asset_cost === undefined ? "" : money.format(a.asset_cost)),
            el("td", { className: "num" }, a.current_asset_value === undefined ? "" : money.format(a.current_asset_value)),
            el("td", { className: "id" }, a.fixed_asset_id),
          ),
        ),
      );
      empty.hidden = result.items.length > 0 || page > 1;
      pageNo.textContent = `Page ${page}`;
      root.dataset.page = String(page);
      prev.disabled = page <= 1;
      next.disabled = !ctx.has_more_page;
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
