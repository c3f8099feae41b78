// The demo as a product page (issue 18), in Debian's Chromium against the app served as `npm start`
// serves it: every view at 1280 and 390 px wide without horizontal overflow (screenshots in
// test-output/demo-<view>-<width>.png), messages in the form's words once a field is left or the form
// submitted, labels and aria-invalid / aria-describedby checked in the page, an honest empty state per
// filter, the note of the request client.prepare() would send, and the words of each issue code.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { WAIT, daysAhead, launchChromium, messages, openView, screenshot, startDemoApp } from "./support/demo-app.mjs";

const consumer = path.dirname(fileURLToPath(import.meta.url));
const h = await import(pathToFileURL(path.join(process.env.SVC_ROOT, "tests/runtimes/harness.mjs")));

let app;
let browser;

before(async () => {
  app = await startDemoApp(consumer, "demo");
  browser = await launchChromium(h.ensureDir(path.join(consumer, "demo-state")));
}, { timeout: 90_000 });

after(async () => {
  await h.withTimeout(browser?.close() ?? Promise.resolve(), 10_000, "closing Chromium").catch(() => {});
  await app?.close();
});

/** Each view: what says it is ready, and for a form how to make a submit fail. */
const VIEWS = {
  signup: { ready: "#signup-sent[data-state]", form: "#signup-form" },
  asset: { ready: "#asset-form[data-loaded]", form: "#asset-form" },
  channel: { ready: "#channel-sent[data-state]", form: "#channel-form", spoil: (page) => page.fill('[data-key="watch.0.channel_id"]', "12a") },
  list: { ready: "#view-list[data-state=done]" },
  connect: { ready: "#view-connect[data-state=none]" },
};
const WIDTHS = [1280, 390];
const DESKTOP = { width: 1280, height: 900 };

/** In the page: how wide the document is, and on how many lines the brand sits. */
function layout() {
  const range = document.createRange();
  range.selectNodeContents(document.querySelector(".brand"));
  const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
  const table = document.querySelector("#list-table");
  return {
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    brandLines: lines.size,
    table: table && !table.closest("[hidden]") ? { width: table.scrollWidth, card: table.parentElement.clientWidth } : null,
  };
}

/**
 * In the page, axe-style: every control has a label; every label[for] names a control; a control marked
 * invalid is described by an element holding its message; messages sit in a live region, and a control
 * whose slot holds a message is marked invalid; no message shows a wire name (snake_case). Returns the
 * problems found.
 */
function accessibility() {
  const problems = [];
  const text = (node) => (node?.textContent ?? "").replace(/\s+/g, " ").trim();
  const name = (c) => `${c.tagName.toLowerCase()}#${c.id || c.dataset.key || c.name || "?"}`;
  for (const c of document.querySelectorAll("input, select, textarea")) {
    if (c.type === "hidden") continue;
    const byLabel = [...(c.labels ?? [])].some((l) => text(l) !== "");
    const byAria = (c.getAttribute("aria-label") ?? "").trim() !== "";
    const byId = (c.getAttribute("aria-labelledby") ?? "").split(/\s+/).some((id) => text(document.getElementById(id)) !== "");
    if (!byLabel && !byAria && !byId) problems.push(`${name(c)} has no label`);
  }
  for (const l of document.querySelectorAll("label[for]")) {
    if (!document.getElementById(l.htmlFor)?.matches("input, select, textarea")) problems.push(`label "${text(l)}" names no control (${l.htmlFor})`);
  }
  for (const c of document.querySelectorAll('[aria-invalid="true"]')) {
    const described = (c.getAttribute("aria-describedby") ?? "").split(/\s+/).map((id) => document.getElementById(id));
    if (!described.some((d) => d?.querySelector(".msg") && text(d) !== "")) problems.push(`${name(c)} is invalid but described by no message`);
  }
  for (const slot of document.querySelectorAll("[data-msg-for]")) {
    if (!slot.querySelector(".msg")) continue;
    if (!slot.closest("[aria-live], [role=alert], [role=status]")) problems.push(`the messages of "${slot.dataset.msgFor}" are not announced`);
    if (slot.dataset.msgFor === "") continue;
    for (const c of document.querySelectorAll(`[data-key="${CSS.escape(slot.dataset.msgFor)}"]`)) {
      if (c.getAttribute("aria-invalid") !== "true") problems.push(`${name(c)} has a message but is not aria-invalid`);
    }
  }
  for (const m of document.querySelectorAll(".msg, .summary li")) {
    if (/\b[a-z]+_[a-z_]+\b/.test(m.textContent)) problems.push(`a message shows a wire name: ${m.textContent}`);
  }
  return problems;
}

async function checkLayout(page, what) {
  const l = await page.evaluate(layout);
  assert.ok(l.scrollWidth <= l.innerWidth, `${what}: no horizontal scroll (${l.scrollWidth} > ${l.innerWidth})`);
  assert.equal(l.brandLines, 1, `${what}: the brand on one line`);
  if (l.table) assert.ok(l.table.width <= l.table.card, `${what}: the table fits its card (${l.table.width} > ${l.table.card})`);
}

async function checkAccessibility(page, what) {
  assert.deepEqual(await page.evaluate(accessibility), [], what);
}

for (const [view, { ready, form, spoil }] of Object.entries(VIEWS)) {
  for (const width of WIDTHS) {
    test(`${view} at ${width} px: no horizontal overflow, labelled controls${form ? ", a failed submit in words" : ""}`, { timeout: 30_000 }, async () => {
      const { page, done } = await openView(browser, app, view, { width, height: width > 600 ? DESKTOP.height : 844 });
      await page.waitForSelector(ready, WAIT);
      await checkLayout(page, `${view} ${width}`);
      await checkAccessibility(page, `${view} ${width}`);
      await screenshot(page, `demo-${view}-${width}`);
      if (form) {
        await spoil?.(page);
        await page.click(`${form} button[type=submit]`);
        await page.locator(`${form} .summary li`).first().waitFor(WAIT);
        await checkLayout(page, `${view} ${width} with errors`);
        await checkAccessibility(page, `${view} ${width} with errors`);
        await screenshot(page, `demo-${view}-${width}-errors`);
      }
      await done();
    });
  }
}

test("sign-up: quiet while typing, messages with the form's labels once the field is left, then live", { timeout: 30_000 }, async () => {
  const { page, done } = await openView(browser, app, "signup");
  const portal = page.locator("#org-portal");
  await portal.pressSequentially("ab-c");
  assert.equal(await messages(page, "portal_name").count(), 0, "nothing while the field is typed into for the first time");
  assert.equal(await portal.getAttribute("aria-invalid"), null);
  await portal.blur();
  await messages(page, "portal_name").nth(1).waitFor(WAIT);
  assert.deepEqual(await messages(page, "portal_name").allTextContents(), ["Portal name needs at least 5 characters", "Portal name may contain only letters and digits"]);
  assert.equal(await portal.getAttribute("aria-invalid"), "true");
  const slot = await page.locator('[data-msg-for="portal_name"]').getAttribute("id");
  assert.deepEqual((await portal.getAttribute("aria-describedby")).split(" ").sort(), ["org-portal-hint", slot].sort(), "described by its hint and its messages");
  assert.equal(await messages(page, "name").count(), 0, "untouched fields stay quiet");
  await checkAccessibility(page, "sign-up after blur");

  // Live from now on: the length is enough after three more characters; the dash is still wrong.
  await portal.pressSequentially("xyz");
  await page.waitForFunction(() => document.querySelectorAll('[data-msg-for="portal_name"] > .msg').length === 1, null, WAIT);
  assert.deepEqual(await messages(page, "portal_name").allTextContents(), ["Portal name may contain only letters and digits"]);

  // Leaving a required field empty names it by its label.
  await page.focus("#org-name");
  await page.locator("#org-name").blur();
  await messages(page, "name").first().waitFor(WAIT);
  assert.deepEqual(await messages(page, "name").allTextContents(), ["Organization name is required"]);
  await checkAccessibility(page, "sign-up, two fields left");
  await done();
});

test("fixed asset: a submit shows every message in words, a summary, the focus on the first field, and sends nothing", { timeout: 30_000 }, async () => {
  const received = async () => (await app.sandbox.counters()).operations?.createFixedAsset?.received ?? 0;
  const before = await received();
  const { page, done } = await openView(browser, app, "asset");
  await page.waitForSelector("#asset-form[data-loaded]", WAIT);
  assert.equal(await page.locator("#asset-form .msg").count(), 0, "a fresh form is quiet");
  await page.click("#asset-form button[type=submit]");
  const summary = page.locator("#asset-summary");
  await summary.locator("li").first().waitFor(WAIT);
  assert.equal(await summary.getAttribute("role"), "alert");
  assert.match(await summary.textContent(), /Not sent: 3 problems to fix\./);
  assert.deepEqual(await messages(page, "asset_name").allTextContents(), ["Name is required"]);
  assert.deepEqual(await messages(page, "fixed_asset_type_id").allTextContents(), ["Fixed asset type is required"]);
  assert.deepEqual(await messages(page, "asset_cost").allTextContents(), ["Cost is required"]);
  assert.equal(await page.evaluate(() => document.activeElement?.id), "fa-name", "the focus on the first field to fix");
  await checkAccessibility(page, "fixed asset after submit");

  // After a submit every field is live: a name clears its message as it is typed.
  await page.locator("#fa-name").pressSequentially("Label printer");
  await page.waitForFunction(() => !document.querySelector('[data-msg-for="asset_name"] > .msg'), null, WAIT);
  assert.equal(await page.locator("#fa-name").getAttribute("aria-invalid"), null);
  await done();
  assert.equal(await received(), before, "nothing reached the service");
});

test("notification channel: a number and an expiry in the form's words, the bounds as dates", { timeout: 30_000 }, async () => {
  const { page, done } = await openView(browser, app, "channel");
  const id = page.locator('[data-key="watch.0.channel_id"]');
  await id.fill("12a");
  await id.blur();
  await messages(page, "watch.0.channel_id").first().waitFor(WAIT);
  assert.deepEqual(await messages(page, "watch.0.channel_id").allTextContents(), ["Channel id must be a whole number"]);

  const expiry = page.locator('[data-key="watch.0.channel_expiry"]');
  const eightDays = await daysAhead(page, 8);
  await expiry.fill(eightDays);
  await expiry.blur();
  await messages(page, "watch.0.channel_expiry").first().waitFor(WAIT);
  const said = await messages(page, "watch.0.channel_expiry").first().textContent();
  assert.match(said, /^Expiry must be between .+ and .+$/);
  assert.doesNotMatch(said, /\d{4}-\d{2}-\d{2}T/, "no raw timestamps");
  await checkAccessibility(page, "channel after blur");
  await done();
});

test("the note of what is sent follows the form: client.prepare's method, URL and body, and its refusals", { timeout: 30_000 }, async () => {
  const { page, done } = await openView(browser, app, "signup");
  const note = page.locator("#signup-sent");
  await page.waitForSelector("#signup-sent[data-state=refused]", WAIT);
  assert.match(await note.textContent(), /name: required/);
  await page.fill("#org-name", "Acme Note Ltd");
  await page.fill("#org-portal", "acmenote");
  await page.waitForSelector("#signup-sent[data-state=ready]", WAIT);
  assert.equal(await note.locator(".sent-line").textContent(), `POST ${app.url}/api/books/v3/organizations`);
  const body = JSON.parse(await note.locator(".sent-body").textContent());
  assert.equal(body.name, "Acme Note Ltd");
  assert.equal(body.portal_name, "acmenote");
  assert.ok(!(await note.textContent()).includes(app.token), "no token in the note");
  await page.fill("#org-portal", "acme note");
  await page.waitForSelector("#signup-sent[data-state=refused]", WAIT);
  assert.match(await note.textContent(), /portal_name: invalid_format/);
  await done();

  const list = await openView(browser, app, "list");
  await list.page.waitForSelector("#view-list[data-state=done]", WAIT);
  await list.page.selectOption("#list-filter", "Status.Draft");
  await list.page.waitForFunction(() => document.querySelector("#list-sent .sent-line")?.textContent.includes("filter_by=Status.Draft"), null, WAIT);
  assert.match(await list.page.locator("#list-sent .sent-line").textContent(), /^GET http:\/\/127\.0\.0\.1:\d+\/api\/books\/v3\/fixedassets\?.*per_page=5/);
  assert.equal(await list.page.locator("#list-sent .sent-body").textContent(), "(no body)");
  await list.done();
});

test("fixed asset list: a filter with no match says so, an unfiltered list shows its rows", { timeout: 30_000 }, async () => {
  const { page, done } = await openView(browser, app, "list", DESKTOP);
  const settled = () => page.waitForSelector("#view-list[data-state=done]", WAIT);
  await settled();
  assert.ok((await page.locator("#list-table tbody tr").count()) > 0);
  assert.equal(await page.locator("#list-empty").isHidden(), true);

  await page.selectOption("#list-filter", "Status.Draft");
  await page.waitForFunction(() => [...document.querySelectorAll("#list-table tbody .status")].every((s) => s.textContent === "Draft"), null, WAIT);
  await settled();
  const drafts = await page.locator("#list-table tbody tr").count();
  assert.ok(drafts > 0, "the seeded drafts");

  await page.selectOption("#list-filter", "Status.Sold");
  const empty = page.locator("#list-empty");
  await empty.waitFor({ state: "visible", ...WAIT });
  assert.equal(await empty.textContent(), "No fixed assets match “Sold”. Show all");
  assert.equal(await page.locator("#list-table").isHidden(), true, "no empty table");
  await screenshot(page, "demo-list-1280-empty");
  await page.click("#list-empty button");
  await empty.waitFor({ state: "hidden", ...WAIT });
  assert.equal(await page.inputValue("#list-filter"), "Status.All");
  assert.equal(await page.locator("#list-table tbody tr").count(), 5);
  await done();
});

test("the words of an issue: each code and its details with the form's label; date bounds as dates, whatever their precision", async () => {
  // The app's wording module, compiled on its own (its one import is a type).
  const esbuild = await import(pathToFileURL(path.join(h.root, "node_modules/esbuild/lib/main.js")));
  const { code } = await esbuild.transform(readFileSync(path.join(app.appDir, "src/words.ts"), "utf8"), { loader: "ts", format: "esm" });
  const file = path.join(app.appDir, "words.mjs");
  writeFileSync(file, code);
  const { sentence } = await import(pathToFileURL(file));
  const at = (label, more = {}) => ({ label, ...more });
  const say = (issue, place) => sentence({ path: ["x"], message: "the rules' own message", ...issue }, place);

  assert.equal(say({ code: "required" }, at("Portal name")), "Portal name is required");
  assert.equal(say({ code: "required" }, at("The channel", { one: "event", many: "events" })), "The channel needs at least one event");
  assert.equal(say({ code: "too_short", minimum: 5 }, at("Portal name")), "Portal name needs at least 5 characters");
  assert.equal(say({ code: "too_long", maximum: 1 }, at("Initial")), "Initial may have at most 1 character");
  assert.equal(say({ code: "invalid_type", expected: "integer" }, at("Channel id")), "Channel id must be a whole number");
  assert.equal(say({ code: "out_of_range", minimum: 0, maximum: 100 }, at("Rate")), "Rate must be between 0 and 100");
  assert.equal(say({ code: "invalid_value", allowed: ["small scale", "large scale"] }, at("Company size", { choice: (v) => v.split(" ")[0] })), "Company size must be one of: small, large");
  assert.equal(say({ code: "invalid_format", format: "alphanumeric" }, at("Portal name")), "Portal name may contain only letters and digits");
  assert.equal(say({ code: "invalid_format", format: "a format no form knows" }, at("Code")), "Code is not in the expected form");
  assert.equal(say({ code: "too_many", maximum: 10 }, at("Condition 1", { one: "field", many: "fields" })), "Condition 1 may have at most 10 fields");
  assert.equal(say({ code: "not_allowed" }, at("Rate")), "Rate does not apply with these choices");
  assert.equal(say({ code: "a_new_code" }, at("Rate")), "the rules' own message", "a code the page does not know keeps the rules' message");

  const dates = say({ code: "out_of_range", minimum: "2026-01-01", maximum: "2026-12-31" }, at("Purchase date"));
  assert.match(dates, /^Purchase date must be between \S.*2026 and \S.*2026$/);
  assert.doesNotMatch(dates, /2026-\d\d-\d\d/, "dates in words, not as sent");
  const moments = say({ code: "out_of_range", minimum: "2026-11-23T08:41:22Z", maximum: "2026-11-30T08:41:22.930Z" }, at("Expiry"));
  assert.match(moments, /^Expiry must be between .+ and .+$/);
  assert.doesNotMatch(moments, /\d{4}-\d\d-\d\dT/, "no raw timestamps");
  // A date field shows a bound that comes with a time as its date, the date written in the bound.
  assert.equal(say({ code: "out_of_range", maximum: "2026-11-30T23:30:00-05:00" }, at("Warranty until", { dateOnly: true })), say({ code: "out_of_range", maximum: "2026-11-30" }, at("Warranty until")));
  assert.match(say({ code: "out_of_range", minimum: "2026-11-30" }, at("Warranty until")), /^Warranty until must be on or after \S/);
  assert.equal(say({ code: "out_of_range", minimum: 1 }, at("Useful life")), "Useful life must be at least 1");
});
