// The react-hook-form example (examples/forms/react-hook-form) built by Vite in the consumer project,
// as a user builds it (svc-sdk/validate, react-hook-form and @hookform/resolvers from their installed
// packages), and used in headless Chromium: a blank form shows the labelled "required" messages, a
// blank optional <select> is not given, and the submit handler receives the params without blanks.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { cpSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { launchChromium } from "./support/chromium.mjs";

const consumer = path.dirname(fileURLToPath(import.meta.url));
const h = await import(pathToFileURL(path.join(process.env.SVC_ROOT, "tests/runtimes/harness.mjs")));
const work = path.join(consumer, "forms-react-hook-form");

let site;
let browser;

before(async () => {
  rmSync(work, { recursive: true, force: true });
  cpSync(path.join(h.root, "examples/forms/react-hook-form"), path.join(work, "page"), { recursive: true });
  await h.viteBuild(path.join(work, "page"), path.join(work, "dist"), { cwd: consumer, timeoutMs: 120_000 });
  site = await h.serveStatic(path.join(work, "dist"));
  browser = await launchChromium(h.ensureDir(path.join(work, ".state")));
}, { timeout: 180_000 });
after(async () => {
  await h.withTimeout(browser?.close() ?? Promise.resolve(), 10_000, "closing Chromium").catch(() => {});
  await h.closeServer(site);
});

test("react-hook-form with standardSchemaResolver(schemaFor(...)): labelled messages, blanks not given", { timeout: 60_000 }, async () => {
  const page = await browser.newPage();
  const logs = [];
  page.on("pageerror", (e) => logs.push(`pageerror: ${e.message}`));
  // Chromium asks for /favicon.ico, which the example does not have.
  page.on("response", (r) => r.status() >= 400 && !r.url().endsWith("/favicon.ico") && logs.push(`${r.status()} ${r.url()}`));
  try {
    await page.goto(`http://127.0.0.1:${site.address().port}/`);
    const error = (name) => page.locator(`output[data-error-for="${name}"]`);
    await page.click("button[type=submit]");
    await error("asset_cost").filter({ hasText: /./ }).waitFor();
    const shown = {};
    for (const name of ["asset_name", "fixed_asset_type_id", "asset_account_id", "asset_cost", "asset_purchase_date", "depreciation_method"]) {
      shown[name] = await error(name).textContent();
    }
    assert.deepEqual(shown, {
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
    await page.locator("#sent").filter({ hasText: /./ }).waitFor();
    assert.deepEqual(JSON.parse(await page.locator("#sent").textContent()), {
      asset_name: "Laptop",
      fixed_asset_type_id: "460000000038001",
      asset_account_id: "460000000038003",
      asset_cost: 1200,
      asset_purchase_date: "2026-01-15",
    });
    assert.deepEqual(logs, []);
  } catch (e) {
    e.message += `\n${logs.join("\n")}`;
    throw e;
  } finally {
    await page.close();
  }
});
