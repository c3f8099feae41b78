// End to end: the demo app of www/, served as `npm start` serves it (support/demo-app.mjs: copied into
// the consumer project, so "svc-sdk" resolves from the installed tarball, built with Vite, served by
// www/server.mjs with the svc-sdk proxy at /api in front of a seeded sandbox), driven in Debian's
// Chromium with playwright-core. Every request of the page stays on its own origin and carries no
// token. Screenshots go to test-output/e2e-*.png.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "svc-sdk";
import { WAIT, daysAhead, launchChromium, listPage, messages, noMessage, openView, screenshot, startDemoApp } from "./support/demo-app.mjs";

const consumer = path.dirname(fileURLToPath(import.meta.url));
const h = await import(pathToFileURL(path.join(process.env.SVC_ROOT, "tests/runtimes/harness.mjs")));
const shot = (page, name) => screenshot(page, `e2e-${name}`);

let app;
let appDir;
let sandbox;
let browser;
let direct; // a server-side client straight to the sandbox, to check what the page did
const timings = {};

before(async () => {
  const started = performance.now();
  app = await startDemoApp(consumer, "e2e");
  ({ appDir, sandbox } = app);
  timings.viteBuildMs = app.buildMs;
  // The bundled wasm is the installed package's.
  const wasm = readdirSync(path.join(app.dist, "assets")).filter((f) => f.endsWith(".wasm"));
  const page = readFileSync(path.join(consumer, "node_modules/svc-sdk/pkg/page/svc_sdk_bg.wasm"));
  assert.ok(wasm.some((f) => readFileSync(path.join(app.dist, "assets", f)).equals(page)), "the app bundles the installed svc-sdk's browser build");
  direct = new Client({ apiDomain: sandbox.url, accessToken: app.token, organizationId: app.org, maxRetries: 0 });
  browser = await launchChromium(h.ensureDir(path.join(consumer, "e2e-state")));
  timings.setupMs = Math.round(performance.now() - started);
}, { timeout: 90_000 });

after(async () => {
  await h.withTimeout(browser?.close() ?? Promise.resolve(), 10_000, "closing Chromium").catch(() => {});
  await app?.close();
  console.log(`e2e timings: ${JSON.stringify(timings)}`);
});

const open = (view) => openView(browser, app, view);

test("sign-up: portal_name feedback once the field is left, then as the user types; then the new organization", { timeout: 30_000 }, async () => {
  const started = performance.now();
  const { page, done } = await open("signup");
  const portal = page.locator("#org-portal");
  await portal.pressSequentially("ab-c", { delay: 15 });
  assert.equal(await messages(page, "portal_name").count(), 0, "quiet while the field is being typed for the first time");
  await portal.blur();
  await messages(page, "portal_name").first().waitFor(WAIT);
  const shown = await messages(page, "portal_name").allTextContents();
  assert.ok(shown.some((m) => /at least 5/.test(m)), `too short: ${shown}`);
  assert.ok(shown.some((m) => /letters and digits/.test(m)), `letters and digits: ${shown}`);
  assert.equal(await portal.getAttribute("aria-invalid"), "true");
  assert.equal(await messages(page, "name").count(), 0, "untouched fields stay quiet");
  await shot(page, "signup-invalid");

  await portal.fill("");
  await portal.pressSequentially("acmeDemo2026", { delay: 5 });
  await noMessage(page, "portal_name");
  assert.equal(await portal.getAttribute("aria-invalid"), null);
  await page.fill("#org-name", "Acme Demo GmbH");
  await page.selectOption("#org-currency", "EUR");
  await page.selectOption("#org-tz", "Europe/Berlin");
  await page.selectOption("#org-fy", "april");
  await page.click("#signup-form button[type=submit]");
  const result = page.locator("#signup-result");
  await result.waitFor({ state: "visible", ...WAIT });
  const id = await result.getAttribute("data-organization-id");
  assert.match(id, /^\d+$/);
  const text = await result.textContent();
  assert.ok(text.includes(id) && text.includes("Acme Demo GmbH"), text);
  await shot(page, "signup-created");
  await done();

  const orgs = (await direct.listOrganizations()).items;
  const org = orgs.find((o) => o.organization_id === id);
  assert.equal(org?.name, "Acme Demo GmbH", "the organization exists in the service");
  assert.equal(org.currency_code, "EUR");
  timings.signupMs = Math.round(performance.now() - started);
});

test("fixed asset: pickers from the service, the percentage only for declining methods, then found in the paged list", { timeout: 40_000 }, async () => {
  const started = performance.now();
  const { page, done } = await open("asset");
  await page.waitForSelector("#asset-form[data-loaded]", WAIT);
  const types = await page.locator("#fa-type option").allTextContents();
  assert.ok(types.includes("Machines") && types.includes("Furniture"), `types from listFixedAssetTypes: ${types}`);
  const accounts = await page.locator("#fa-account option").allTextContents();
  assert.ok(accounts.some((a) => a.includes("Office Equipment")), `accounts from listAccounts: ${accounts}`);

  const percentage = page.locator("#fa-percentage-field");
  assert.equal(await page.inputValue("#fa-method"), "straight_line");
  assert.equal(await percentage.isHidden(), true, "no percentage for straight line");
  // Machines depreciate on a declining balance at 12 %: the type's defaults fill the form.
  await page.selectOption("#fa-type", { label: "Machines" });
  assert.equal(await page.inputValue("#fa-method"), "declining_method");
  assert.equal(await percentage.isVisible(), true, "the percentage for a declining method");
  assert.equal(await page.inputValue("#fa-percentage"), "12");
  await page.selectOption("#fa-method", "straight_line");
  await percentage.waitFor({ state: "hidden", ...WAIT });
  // The user's own choice now stays when the type changes.
  await page.selectOption("#fa-type", { label: "Furniture" });
  await page.selectOption("#fa-type", { label: "Machines" });
  assert.equal(await page.inputValue("#fa-method"), "straight_line");
  await page.selectOption("#fa-method", "200_declining_method");
  await percentage.waitFor({ state: "visible", ...WAIT });

  await page.fill("#fa-percentage", "150");
  await page.locator("#fa-percentage").blur();
  await messages(page, "depreciation_percentage").first().waitFor(WAIT);
  assert.match((await messages(page, "depreciation_percentage").allTextContents()).join(" "), /between 0 and 100/);
  await shot(page, "asset-invalid");
  await page.fill("#fa-percentage", "20");
  await noMessage(page, "depreciation_percentage");

  const name = `E2E plotter ${Date.now()}`;
  await page.fill("#fa-name", name);
  await page.fill("#fa-cost", "2450.50");
  await page.fill("#fa-purchased", "2025-03-14");
  await page.fill("#fa-start", "2025-04-01");
  await page.click("#asset-form button[type=submit]");
  const result = page.locator("#asset-result");
  await result.waitFor({ state: "visible", ...WAIT });
  const id = await result.getAttribute("data-fixed-asset-id");
  assert.match(id, /^\d+$/);
  assert.ok((await result.textContent()).includes(name));
  await shot(page, "asset-created");

  // The list, per_page 5: the new asset comes after the seeded ones, so it sits on a later page.
  await page.click("#asset-result a[href='#list']");
  const list = page.locator("#view-list");
  await listPage(page, 1);
  assert.equal(await page.locator("#list-table tbody tr").count(), 5, "five rows per page");
  assert.equal(await page.isDisabled("#list-prev"), true);
  const firstPage = await page.locator("#list-table tbody tr").evaluateAll((rows) => rows.map((r) => r.dataset.id));
  let pageNo = 1;
  while ((await page.locator(`#list-table tbody tr[data-id="${id}"]`).count()) === 0) {
    assert.equal(await page.isEnabled("#list-next"), true, `the asset ${id} is on no page (stopped at page ${pageNo})`);
    await page.click("#list-next");
    await listPage(page, ++pageNo);
  }
  assert.ok(pageNo >= 2, "found after turning a page");
  assert.ok(!firstPage.includes(id));
  const row = await page.locator(`#list-table tbody tr[data-id="${id}"]`).textContent();
  assert.ok(row.includes(name) && row.includes("Machines") && row.includes("2,450.50"), row);
  assert.equal(await page.isDisabled("#list-next"), true, "the last page");
  assert.equal(await list.getAttribute("data-page"), String(pageNo));
  await shot(page, "list");
  await page.click("#list-prev");
  await listPage(page, pageNo - 1);
  await done();
  timings.assetMs = Math.round(performance.now() - started);
});

test("notification channel: 11 condition fields are refused (too_many), 10 are saved", { timeout: 40_000 }, async () => {
  const started = performance.now();
  const received = async () => (await sandbox.counters()).operations?.updateNotificationChannels?.received ?? 0;
  const before = await received();
  const { page, done } = await open("channel");
  // The expiry: at most one week ahead.
  const expiry = page.locator('[data-key="watch.0.channel_expiry"]');
  const kept = await expiry.inputValue();
  const eightDays = await daysAhead(page, 8);
  await expiry.fill(eightDays);
  await expiry.blur();
  await messages(page, "watch.0.channel_expiry").first().waitFor(WAIT);
  assert.match(await messages(page, "watch.0.channel_expiry").first().getAttribute("data-code"), /out_of_range/);
  await expiry.fill(kept);
  await noMessage(page, "watch.0.channel_expiry");

  await page.click("[data-action=add-condition]");
  const top = "watch.0.notification_condition.0.field_selection.group";
  const fieldInput = (key) => page.locator(`[data-key="${key}.field.api_name"]`);
  const names = ["Amount", "Stage", "Closing_Date", "Owner", "Probability", "Deal_Name", "Account_Name", "Lead_Source"];
  // Eight fields in the condition's group ...
  for (const [i, n] of names.entries()) {
    if (i > 0) await page.click(`[data-action=add-field][data-group="${top}"]`);
    await fieldInput(`${top}.${i}`).fill(n);
  }
  // ... and three in a nested group: eleven, however nested.
  await page.click(`[data-action=add-group][data-group="${top}"]`);
  const nested = `${top}.8.group`;
  for (const [i, n] of ["Type", "Campaign_Source", "Contact_Name"].entries()) {
    if (i > 0) await page.click(`[data-action=add-field][data-group="${nested}"]`);
    await fieldInput(`${nested}.${i}`).fill(n);
  }
  await page.selectOption(`[data-key="${nested.slice(0, -".group".length)}.group_operator"]`, "and");
  const tooMany = page.locator(`[data-msg-for="${top}"] > .msg[data-code=too_many]`);
  await tooMany.waitFor(WAIT);
  assert.match(await page.locator("[data-count-for='0']").textContent(), /11 of 10/);

  await page.click("#channel-form button[type=submit]");
  await page.waitForSelector("#view-channel[data-outcome=refused]", WAIT);
  assert.match(await tooMany.textContent(), /at most 10 fields/);
  assert.match(await page.locator("#channel-summary").textContent(), /Not sent: 1 problem to fix/);
  assert.equal(await page.locator("#channel-result").isHidden(), true);
  await shot(page, "channel-refused");
  assert.equal(await received(), before, "the refused channel never reached the service");

  await page.click(`[data-action=remove-field][data-field="${nested}.2"]`);
  await noMessage(page, top);
  assert.match(await page.locator("[data-count-for='0']").textContent(), /10 of 10/);
  await page.click("#channel-form button[type=submit]");
  await page.waitForSelector("#view-channel[data-outcome=saved]", WAIT);
  const result = await page.locator("#channel-result").textContent();
  assert.match(result, /Channel saved/);
  assert.match(result, /Deals/);
  await shot(page, "channel-saved");
  await done();
  assert.equal(await received(), before + 1, "the valid channel was sent once");
  timings.channelMs = Math.round(performance.now() - started);
});

test("the app's TypeScript checks against the installed package's declarations", { timeout: 60_000 }, async () => {
  const r = await h.runChild(h.bin("tsc"), ["-p", appDir], { cwd: consumer, env: h.toolEnv(), timeoutMs: 50_000, label: "tsc" });
  assert.equal(r.code, 0, r.output);
  timings.tscMs = r.ms;
});
