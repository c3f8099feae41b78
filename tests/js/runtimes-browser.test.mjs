// Chromium smoke test: Vite builds a page (in the consumer project, importing the installed package
// by name, `browser` export condition); a loopback static server serves it (.wasm as application/wasm);
// Debian's Chromium, driven by playwright-core, runs the shared scenario against a loopback recording
// server (CORS, another port) and the test reads the report from the DOM. A screenshot goes to
// test-output/runtimes-browser.png.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startRecordingServer } from "./support/recording-server.mjs";
import { launchChromium } from "./support/chromium.mjs";

const consumer = path.dirname(fileURLToPath(import.meta.url));
const h = await import(pathToFileURL(path.join(process.env.SVC_ROOT, "tests/runtimes/harness.mjs")));
const TOKEN = "smoke-token-browser";

let server;
let site;
let siteUrl;
let browser;
let buildMs;
/** What the page's own origin got under /api: a client with apiDomain "/api" calls there. */
const apiSeen = [];

/** The page's own origin answers under /api: a client with apiDomain "/api" calls there. */
function answerApi(req, res, pathname) {
  if (!pathname.startsWith("/api/")) return false;
  apiSeen.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
  if (pathname === "/api/books/v3/redirected") {
    res.writeHead(307, { location: "/api/books/v3/chartofaccounts?followed=1" });
    res.end();
    return true;
  }
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify({ code: 0, message: "answered by the page's origin" }));
  return true;
}

before(async () => {
  const pageDir = h.installRuntime(consumer, "browser");
  const dist = path.join(path.dirname(pageDir), "dist");
  buildMs = await h.viteBuild(pageDir, dist, { cwd: consumer });
  server = await h.startScenarioServer(startRecordingServer);
  site = await h.serveStatic(dist, answerApi);
  siteUrl = `http://127.0.0.1:${site.address().port}`;
  const state = h.ensureDir(path.join(path.dirname(pageDir), ".state"));
  browser = await launchChromium(state);
}, { timeout: 90_000 });
after(async () => {
  await h.withTimeout(browser?.close() ?? Promise.resolve(), 10_000, "closing Chromium").catch(() => {});
  await h.closeServer(site);
  await server?.close();
});

test("Chromium (Vite build): import by name, one call, a caught SvcError, still working after bad calls", { timeout: 60_000 }, async () => {
  const started = performance.now();
  const page = await browser.newPage({ viewport: { width: 900, height: 1400 } });
  const logs = [];
  page.on("console", (m) => logs.push(`console.${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => logs.push(`pageerror: ${e.message}`));
  page.on("requestfailed", (r) => logs.push(`requestfailed: ${r.url()} ${r.failure()?.errorText}`));
  const wasmResponses = [];
  page.on("response", (r) => r.url().endsWith(".wasm") && wasmResponses.push([r.status(), r.headers()["content-type"]]));

  const q = new URLSearchParams({ api: server.url, token: TOKEN, org: h.ORG });
  await page.goto(`${siteUrl}/?${q}`, { timeout: 20_000 });
  try {
    await page.waitForSelector("body[data-status]", { timeout: 20_000 });
  } catch (e) {
    throw new Error(`the page never finished: ${e.message}\n${logs.join("\n")}`);
  }
  const report = JSON.parse(await page.textContent("#result"));
  await page.screenshot({ path: path.join(h.ensureDir(path.join(h.root, "test-output")), "runtimes-browser.png"), fullPage: true, timeout: 10_000 });
  await page.close();

  assert.deepEqual(wasmResponses, [[200, "application/wasm"]], "the wasm was fetched once, as application/wasm");
  assert.equal(report.runtime.name, "browser");
  assert.match(report.runtime.userAgent, /Chrome\//);
  h.checkScenario(report, server, TOKEN);
  assert.ok(server.requests.every((r) => r.headers.origin === siteUrl), "the calls came from the page");
  assert.deepEqual(report.relative, { status: 200, url: `${siteUrl}/api/books/v3/chartofaccounts`, message: "answered by the page's origin" });
  assert.deepEqual(report.redirect, { kind: "api", message: "the service answered with a redirect, which is not followed (the browser does not tell where to): point apiDomain at the host that answers without redirecting" });
  assert.equal(report.oauth.kind, "config", JSON.stringify(report.oauth));
  assert.match(report.oauth.message, /createProxy/);
  assert.ok(!report.oauth.message.includes("page-secret"));
  assert.deepEqual(apiSeen, [
    { method: "GET", url: "/api/books/v3/chartofaccounts", authorization: undefined },
    { method: "GET", url: "/api/books/v3/redirected", authorization: undefined },
  ], "apiDomain \"/api\" resolved against the page's origin; the redirect was not followed");
  console.log(`${report.runtime.userAgent.match(/Chrome\/[\d.]+/)[0]}: vite build ${buildMs} ms, page ${Math.round(performance.now() - started)} ms`);
});
