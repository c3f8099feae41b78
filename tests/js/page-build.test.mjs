// Issue 38, item 3: a page pays for what it runs. Vite builds pages in the consumer project from the
// installed package (the `browser` condition: pkg/page/, the client's wasm without the proxy, the
// receivers and the fleet stores); headless Chromium runs them and the test counts the wasm each fetched.
// A page that imports svc-sdk and then svc-sdk/validate fetches one wasm and gets one SvcError; what runs
// on a server only is a config error there that says so.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { launchChromium } from "./support/chromium.mjs";

const consumer = path.dirname(fileURLToPath(import.meta.url));
const h = await import(pathToFileURL(path.join(process.env.SVC_ROOT, "tests/runtimes/harness.mjs")));
const installed = path.join(consumer, "node_modules/svc-sdk/pkg");
const pageWasm = path.join(installed, "page/svc_sdk_bg.wasm");
const fullWasm = path.join(installed, "svc_sdk_bg.wasm");

/** What the page reports: each server-only export's error, and whether the two entries share their functions. */
const MAIN = `import { Client, SvcError, createProxy, parseEvent, parseWatchNotification, schemaFor, validate } from "svc-sdk";
import * as alone from "svc-sdk/validate";
const failure = (f) => { try { f(); return null; } catch (e) { return { svc: e instanceof SvcError, kind: e.kind, message: e.message }; } };
const report = {
  proxy: failure(() => createProxy({ allow: ["listCurrencies"], accessToken: "page-token-1234", organizationId: "1", apiDomain: "http://127.0.0.1:1" })),
  event: failure(() => parseEvent("{}", { token: "t", url: "http://127.0.0.1/x?token=t" })),
  watch: failure(() => parseWatchNotification("{}", { token: "t" })),
  store: failure(() => new Client({ accessToken: "page-token-1234", organizationId: "1", rateLimit: { store: { step() {} } } })),
  shared: alone.validate === validate && alone.SvcError === SvcError && alone.schemaFor === schemaFor,
  checked: (await schemaFor("createFixedAsset")["~standard"].validate({})).issues.length > 0,
  client: typeof new Client({ accessToken: "page-token-1234", organizationId: "1" }).listCurrencies,
};
document.getElementById("result").textContent = JSON.stringify(report);
document.body.dataset.status = "done";
`;

let browser;
let site;
let dist;

before(async () => {
  const dir = path.join(consumer, "pages", "page-build");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "index.html"), '<!doctype html>\n<html lang="en"><head><meta charset="utf-8" /><title>page</title></head>\n<body><pre id="result"></pre><script type="module" src="./main.mjs"></script></body></html>\n');
  writeFileSync(path.join(dir, "main.mjs"), MAIN);
  dist = path.join(consumer, "pages", "page-build-dist");
  await h.viteBuild(dir, dist, { cwd: consumer, timeoutMs: 120_000 });
  site = await h.serveStatic(dist);
  browser = await launchChromium(h.ensureDir(path.join(consumer, "pages", ".state")));
}, { timeout: 180_000 });
after(async () => {
  await h.withTimeout(browser?.close() ?? Promise.resolve(), 10_000, "closing Chromium").catch(() => {});
  await h.closeServer(site);
});

test("the page wasm leaves out the proxy: its words are in the server build only", () => {
  const [page, full] = [readFileSync(pageWasm), readFileSync(fullWasm)];
  assert.ok(full.includes("createProxy needs allow"), "the server build holds the proxy");
  assert.ok(!page.includes("createProxy needs allow"), "the page build does not");
  assert.ok(statSync(pageWasm).size < statSync(fullWasm).size);
});

test("Chromium: a page importing svc-sdk and svc-sdk/validate fetches one wasm; the proxy, the receivers and a store are config errors there", { timeout: 60_000 }, async () => {
  const page = await browser.newPage();
  const logs = [];
  const wasm = [];
  page.on("pageerror", (e) => logs.push(`pageerror: ${e.message}`));
  page.on("console", (m) => logs.push(`console.${m.type()}: ${m.text()}`));
  page.on("response", (r) => r.url().endsWith(".wasm") && wasm.push(r));
  await page.goto(`http://127.0.0.1:${site.address().port}/index.html`, { timeout: 20_000 });
  try {
    await page.waitForSelector("body[data-status]", { timeout: 20_000 });
  } catch (e) {
    throw new Error(`the page never finished: ${e.message}\n${logs.join("\n")}`);
  }
  const report = JSON.parse(await page.textContent("#result"));
  const fetched = await Promise.all(wasm.map(async (r) => (await r.body()).length));
  await page.close();

  assert.deepEqual(fetched, [statSync(pageWasm).size], "one wasm fetched: svc-sdk's page build");
  assert.equal(report.shared, true, "svc-sdk/validate gave svc-sdk's functions and SvcError");
  assert.equal(report.checked, true);
  assert.equal(report.client, "function");
  for (const [what, name] of [["proxy", "createProxy"], ["event", "parseEvent"], ["watch", "parseWatchNotification"]]) {
    assert.deepEqual(
      report[what],
      { svc: true, kind: "config", message: `${name} runs on a server or an edge worker (Node, Deno, workerd), not in a page: svc-sdk's browser build leaves it out` },
    );
  }
  assert.equal(report.store.kind, "config");
  assert.match(report.store.message, /^rateLimit\.store runs on a server or an edge worker/);
});
