// The form examples (examples/forms/: react-hook-form, TanStack Form) built by Vite in the consumer
// project, as a user builds them (svc-sdk/validate and the form libraries from their installed packages),
// and used in headless Chromium: a blank form shows the worded "required" messages, a blank optional
// <select> and an empty number are not given, and the submit handler receives the params without blanks.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { cpSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { launchChromium } from "./support/chromium.mjs";

const consumer = path.dirname(fileURLToPath(import.meta.url));
const h = await import(pathToFileURL(path.join(process.env.SVC_ROOT, "tests/runtimes/harness.mjs")));
const work = path.join(consumer, "forms");
const EXAMPLES = ["react-hook-form", "tanstack-form"];

const sites = {};
let browser;

before(async () => {
  rmSync(work, { recursive: true, force: true });
  for (const name of EXAMPLES) {
    const [page, dist] = [path.join(work, name), path.join(work, `${name}-dist`)];
    cpSync(path.join(h.root, "examples/forms", name), page, { recursive: true });
    await h.viteBuild(page, dist, { cwd: consumer, timeoutMs: 120_000 });
    sites[name] = await h.serveStatic(dist);
  }
  browser = await launchChromium(h.ensureDir(path.join(work, ".state")));
}, { timeout: 240_000 });
after(async () => {
  await h.withTimeout(browser?.close() ?? Promise.resolve(), 10_000, "closing Chromium").catch(() => {});
  for (const site of Object.values(sites)) await h.closeServer(site);
});

/** Opens an example, runs `steps(page)` on it, and fails on any page error or failed load. */
async function onPage(name, steps) {
  const page = await browser.newPage();
  const logs = [];
  page.on("pageerror", (e) => logs.push(`pageerror: ${e.message}`));
  // Chromium asks for /favicon.ico, which the examples do not have.
  page.on("response", (r) => r.status() >= 400 && !r.url().endsWith("/favicon.ico") && logs.push(`${r.status()} ${r.url()}`));
  try {
    await page.goto(`http://127.0.0.1:${sites[name].address().port}/`);
    await steps(page);
    assert.deepEqual(logs, []);
  } catch (e) {
    e.message += `\n${logs.join("\n")}`;
    throw e;
  } finally {
    await page.close();
  }
}

/** What each field's error slot shows once the form was submitted. */
async function shown(page, names) {
  const error = (name) => page.locator(`output[data-error-for="${name}"]`);
  await error(names[0]).filter({ hasText: /./ }).waitFor();
  return Object.fromEntries(await Promise.all(names.map(async (n) => [n, await error(n).textContent()])));
}

const sent = async (page) => (await page.locator("#sent").filter({ hasText: /./ }).waitFor(), JSON.parse(await page.locator("#sent").textContent()));

test("react-hook-form with standardSchemaResolver(schemaFor(...)): labelled messages, blanks not given", { timeout: 60_000 }, () =>
  onPage("react-hook-form", async (page) => {
    await page.click("button[type=submit]");
    const names = ["asset_cost", "asset_name", "fixed_asset_type_id", "asset_account_id", "asset_purchase_date", "depreciation_method"];
    assert.deepEqual(await shown(page, names), {
      asset_name: "Name is required",
      fixed_asset_type_id: "Asset type is required",
      asset_account_id: "Asset account is required",
      asset_cost: "Cost is required",
      asset_purchase_date: "Purchase date is required",
      depreciation_method: "",
    });
    await page.fill("input[name=asset_name]", "Laptop");
    await page.selectOption("select[name=fixed_asset_type_id]", "460000000038001");
    await page.fill("input[name=asset_account_id]", "460000000038003");
    await page.fill("input[name=asset_cost]", "1200");
    await page.fill("input[name=asset_purchase_date]", "2026-01-15");
    await page.click("button[type=submit]");
    assert.deepEqual(await sent(page), {
      asset_name: "Laptop",
      fixed_asset_type_id: "460000000038001",
      asset_account_id: "460000000038003",
      asset_cost: 1200,
      asset_purchase_date: "2026-01-15",
    });
  }));

test("TanStack Form with schemaFor(...) as its validator: the form's own words, blanks not given", { timeout: 60_000 }, () =>
  onPage("tanstack-form", async (page) => {
    await page.click("button[type=submit]");
    assert.deepEqual(await shown(page, ["asset_name", "fixed_asset_type_id", "asset_cost", "depreciation_method"]), {
      asset_name: "Please give the name",
      fixed_asset_type_id: "Please give the asset type",
      asset_cost: "Please give the cost",
      depreciation_method: "",
    });
    await page.fill("input[name=asset_name]", "Laptop");
    await page.selectOption("select[name=fixed_asset_type_id]", "460000000038001");
    await page.fill("input[name=asset_cost]", "1200");
    await page.click("button[type=submit]");
    assert.deepEqual(await sent(page), {
      asset_name: "Laptop",
      fixed_asset_type_id: "460000000038001",
      asset_account_id: "460000000038003",
      asset_cost: 1200,
      asset_purchase_date: "2026-01-15",
    });
  }));
