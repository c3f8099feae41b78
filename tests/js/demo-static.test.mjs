// The static demo (`npm run demo:static`, `vite build --mode static`), in Debian's Chromium, served by a
// plain static file server on 127.0.0.1 with no proxy and no sandbox process: the page runs the sandbox
// in-process (svc-sdk/testing), seeded with www/demo-data.mjs. The same flows as the served demo: the
// seeded list, a form that validates as the user types, a create found in the list; and no request
// leaves the page for anything but the build's own files.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { WAIT, launchChromium, listPage, messages, noMessage, openView, screenshot, startStaticDemo } from "./support/demo-app.mjs";

const consumer = path.dirname(fileURLToPath(import.meta.url));
const h = await import(pathToFileURL(path.join(process.env.SVC_ROOT, "tests/runtimes/harness.mjs")));
const DESKTOP = { width: 1280, height: 900 };

let app;
let browser;

before(async () => {
  app = await startStaticDemo(consumer, "demo-static");
  browser = await launchChromium(h.ensureDir(path.join(consumer, "demo-static-state")));
}, { timeout: 90_000 });

after(async () => {
  await h.withTimeout(browser?.close() ?? Promise.resolve(), 10_000, "closing Chromium").catch(() => {});
  await app?.close();
});

/** The names of the demo's fixed assets, from the module the static build seeds with. */
function seededNames() {
  const source = readFileSync(path.join(app.appDir, "demo-data.mjs"), "utf8");
  return [...source.matchAll(/asset_name: "([^"]+)"/g)].map((m) => m[1]);
}

test("the static build bundles the installed package's client and sandbox wasm and no proxy path; the default build no sandbox", { timeout: 90_000 }, async () => {
  const installed = (p) => readFileSync(path.join(consumer, "node_modules/svc-sdk/pkg", p));
  const built = (dist, ext) => readdirSync(path.join(dist, "assets")).filter((f) => f.endsWith(ext)).map((f) => readFileSync(path.join(dist, "assets", f)));
  const wasm = built(app.dist, ".wasm");
  assert.ok(wasm.some((w) => w.equals(installed("page/svc_sdk_bg.wasm"))), "the client's wasm (its browser build)");
  assert.ok(wasm.some((w) => w.equals(installed("testing/svc_sdk_bg.wasm"))), "the sandbox's wasm");
  assert.ok(!built(app.dist, ".js").join("\n").includes("/api"), "no word of a proxy in the static build");

  const dist = path.join(app.appDir, "dist");
  await h.viteBuild(app.appDir, dist, { cwd: consumer });
  assert.ok(!built(dist, ".wasm").some((w) => w.equals(installed("testing/svc_sdk_bg.wasm"))), "the default build has no sandbox");
  assert.ok(built(dist, ".js").join("\n").includes("/api"), "the default build talks to its proxy");
});

test("the list shows the seeded assets, filters and pages, with every request answered in the page", { timeout: 40_000 }, async () => {
  const { page, done } = await openView(browser, app, "list", DESKTOP);
  await listPage(page, 1);
  assert.match(await page.textContent("#api-info"), /^API: http:\/\/sandbox\.localhost \(a sandbox in this page/);
  const names = [];
  const read = async () => names.push(...(await page.locator("#list-table tbody tr td:nth-child(2)").allTextContents()));
  await read();
  assert.equal(names.length, 5, "five rows per page");
  for (let n = 2; await page.isEnabled("#list-next"); n++) {
    await page.click("#list-next");
    await listPage(page, n);
    await read();
  }
  for (const name of seededNames()) assert.ok(names.includes(name), `the seeded "${name}" is listed: ${names}`);
  assert.match(await page.locator("#list-sent .sent-line").textContent(), /^GET http:\/\/sandbox\.localhost\/books\/v3\/fixedassets\?/);

  await page.selectOption("#list-filter", "Status.Draft");
  await listPage(page, 1);
  await page.waitForFunction(() => [...document.querySelectorAll("#list-table tbody .status")].every((s) => s.textContent === "Draft"), null, WAIT);
  const drafts = await page.locator("#list-table tbody tr td:nth-child(2)").allTextContents();
  assert.deepEqual(drafts.sort(), ["3D printer", "Office chairs (12)"], "the seeded drafts (those not marked active)");
  await screenshot(page, "demo-static-list");
  await done();
});

test("sign-up: quiet while typing, messages once the field is left, then live; the note names the in-page sandbox", { timeout: 30_000 }, async () => {
  const { page, done } = await openView(browser, app, "signup");
  const portal = page.locator("#org-portal");
  await portal.pressSequentially("ab-c");
  assert.equal(await messages(page, "portal_name").count(), 0, "nothing while the field is typed into for the first time");
  await portal.blur();
  await messages(page, "portal_name").nth(1).waitFor(WAIT);
  assert.deepEqual(await messages(page, "portal_name").allTextContents(), ["Portal name needs at least 5 characters", "Portal name may contain only letters and digits"]);
  assert.equal(await portal.getAttribute("aria-invalid"), "true");
  await portal.pressSequentially("xyz");
  await page.waitForFunction(() => document.querySelectorAll('[data-msg-for="portal_name"] > .msg').length === 1, null, WAIT);
  await portal.fill("");
  await portal.pressSequentially("acmeStatic");
  await noMessage(page, "portal_name");
  await page.fill("#org-name", "Acme Static Ltd");
  await page.waitForSelector("#signup-sent[data-state=ready]", WAIT);
  assert.equal(await page.locator("#signup-sent .sent-line").textContent(), "POST http://sandbox.localhost/books/v3/organizations");
  await page.click("#signup-form button[type=submit]");
  const result = page.locator("#signup-result");
  await result.waitFor({ state: "visible", ...WAIT });
  assert.match(await result.getAttribute("data-organization-id"), /^\d+$/);
  assert.ok((await result.textContent()).includes("Acme Static Ltd"));
  await done();
});

test("fixed asset: a submit with errors sends nothing; a valid one is created and found in the list of the same page", { timeout: 40_000 }, async () => {
  const { page, done } = await openView(browser, app, "asset", DESKTOP);
  await page.waitForSelector("#asset-form[data-loaded]", WAIT);
  const types = await page.locator("#fa-type option").allTextContents();
  assert.ok(["Machines", "Furniture", "Computer equipment", "Motor vehicles"].every((t) => types.includes(t)), `the seeded and the created types: ${types}`);
  await page.click("#asset-form button[type=submit]");
  await page.locator("#asset-summary li").first().waitFor(WAIT);
  assert.match(await page.locator("#asset-summary").textContent(), /Not sent: 3 problems to fix\./);

  const name = "Static plotter";
  await page.locator("#fa-name").pressSequentially(name);
  await noMessage(page, "asset_name");
  await page.selectOption("#fa-type", { label: "Machines" });
  await page.fill("#fa-cost", "2450.50");
  await page.fill("#fa-purchased", "2025-03-14");
  await page.fill("#fa-start", "2025-04-01");
  await page.click("#asset-form button[type=submit]");
  const result = page.locator("#asset-result");
  await result.waitFor({ state: "visible", ...WAIT });
  const id = await result.getAttribute("data-fixed-asset-id");
  assert.match(id, /^\d+$/);

  // The same page, so the same in-page sandbox: the new asset comes after the seeded ones.
  await page.click("#asset-result a[href='#list']");
  await listPage(page, 1);
  let pageNo = 1;
  while ((await page.locator(`#list-table tbody tr[data-id="${id}"]`).count()) === 0) {
    assert.equal(await page.isEnabled("#list-next"), true, `the asset ${id} is on no page (stopped at page ${pageNo})`);
    await page.click("#list-next");
    await listPage(page, ++pageNo);
  }
  const row = await page.locator(`#list-table tbody tr[data-id="${id}"]`).textContent();
  assert.ok(row.includes(name) && row.includes("Machines") && row.includes("2,450.50"), row);
  await screenshot(page, "demo-static-created");
  await done();
});

test("no request left the page for anything but the build's own files", () => {
  assert.ok(app.served.length > 0);
  for (const p of app.served) {
    const file = path.join(app.dist, p === "/" ? "index.html" : p);
    assert.ok(existsSync(file) && statSync(file).isFile(), `only files of the build were asked for: ${p}`);
    assert.doesNotMatch(p, /\/(api|books|billing)\//, `no API call reached the server: ${p}`);
  }
});
