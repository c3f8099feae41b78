// The demo app for the browser tests, served as `npm start` serves it (www/demo.mjs) on ports the OS picks
// on 127.0.0.1: www/ copied into the consumer project (so "svc-sdk" is the installed package), built by
// Vite, a sandbox seeded with the demo assets; and Debian's Chromium driven by playwright-core, whose
// pages record anything that would betray a leak or a broken page.
import assert from "node:assert/strict";
import { cpSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { startSandbox } from "./sandbox.mjs";

const h = await import(pathToFileURL(path.join(process.env.SVC_ROOT, "tests/runtimes/harness.mjs")));

export const WAIT = { timeout: 10_000 };

/** Waits until the list view shows page `n`, its answer in. */
export const listPage = (page, n) => page.waitForSelector(`#view-list[data-state=done][data-page="${n}"]`, WAIT);

/**
 * Copies www/ into <consumer>/<name>-www, builds it while a sandbox starts, seeds the sandbox and serves
 * the app. Resolves with { url, appDir, sandbox, token, org, seeded, buildMs, close }; close() stops
 * what was started, also after a failure half-way (call it from after()).
 */
export async function startDemoApp(consumer, name) {
  const appDir = copyApp(consumer, name);
  const dist = path.join(appDir, "dist");
  const app = { appDir, dist };
  app.close = async () => {
    await h.withTimeout(app.server?.close() ?? Promise.resolve(), 5_000, "closing the app server").catch(() => {});
    await app.sandbox?.close();
  };
  const starting = startSandbox(["--no-rate-limit"]).then((sb) => (app.sandbox = sb));
  [app.buildMs] = await Promise.all([h.viteBuild(appDir, dist, { cwd: consumer }), starting]);
  const demo = await import(pathToFileURL(path.join(appDir, "demo.mjs")));
  app.server = await demo.serveDemo({ dist, sandboxUrl: app.sandbox.url, oauth: app.sandbox.oauth, port: 0 });
  return Object.assign(app, { url: app.server.url, seeded: app.server.seeded, token: demo.SANDBOX_TOKEN, org: demo.SANDBOX_ORG });
}

/** www/ copied into <consumer>/<name>-www (so "svc-sdk" is the installed package); returns its path. */
function copyApp(consumer, name) {
  const src = path.join(h.root, "www");
  const appDir = path.join(consumer, `${name}-www`);
  rmSync(appDir, { recursive: true, force: true });
  cpSync(src, appDir, { recursive: true, filter: (p) => !/^(node_modules|dist|dist-static|package-lock\.json)(\/|$)/.test(path.relative(src, p)) });
  return appDir;
}

/**
 * The static demo (`npm run demo:static`): www/ built with `vite build --mode static` into dist-static
 * and served by a plain static file server on 127.0.0.1: no proxy, no sandbox process. Resolves with
 * { url, appDir, dist, served, buildMs, close }; `served` gets the path of every request the server answers.
 */
export async function startStaticDemo(consumer, name) {
  const appDir = copyApp(consumer, name);
  const dist = path.join(appDir, "dist-static");
  const buildMs = await h.viteBuild(appDir, dist, { cwd: consumer, mode: "static" });
  const served = [];
  const site = await h.serveStatic(dist, (req, res, pathname) => (served.push(pathname), false));
  const url = `http://127.0.0.1:${site.address().port}`;
  return { url, appDir, dist, served, buildMs, token: "dev-token", close: () => h.closeServer(site) };
}

export { launchChromium } from "./chromium.mjs";

/**
 * A fresh page at one of the app's views. done() closes it and fails on a console error, a page error,
 * a failed request, a request off the page's origin, an Authorization header, or the token in an answer.
 */
export async function openView(browser, app, view, viewport = { width: 1100, height: 900 }) {
  const page = await browser.newPage({ viewport });
  page.setDefaultTimeout(WAIT.timeout);
  const problems = [];
  const bodies = [];
  page.on("console", (m) => m.type() === "error" && problems.push(`console.error: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`requestfailed: ${r.url()} ${r.failure()?.errorText}`));
  page.on("request", (r) => {
    if (!r.url().startsWith(app.url + "/")) problems.push(`a request left the origin: ${r.url()}`);
    const auth = Object.keys(r.headers()).find((k) => k.toLowerCase() === "authorization");
    if (auth) problems.push(`a request carried ${auth}: ${r.url()}`);
  });
  page.on("response", (r) => {
    if (!new URL(r.url()).pathname.startsWith("/api/")) return;
    bodies.push(
      r.text().then(
        (text) => {
          if (text.includes(app.token) || JSON.stringify(r.headers()).includes(app.token)) problems.push(`the token reached the page: ${r.url()}`);
        },
        () => {},
      ),
    );
  });
  await page.goto(`${app.url}/#${view}`, { timeout: 15_000 });
  await page.waitForSelector("body[data-ready]", WAIT);
  return {
    page,
    async done() {
      await Promise.all(bodies);
      await page.close();
      assert.deepEqual(problems, [], "no page errors, every request on the page's origin, no token in the page");
      return bodies.length;
    },
  };
}

/** A screenshot of the whole page in test-output/. */
export function screenshot(page, name) {
  return page.screenshot({ path: path.join(h.ensureDir(path.join(h.root, "test-output")), `${name}.png`), fullPage: true, timeout: 10_000 });
}

/** The slot's messages of a field (its data-key / data-msg-for). */
/** A datetime-local value `days` from now in the page's time zone. */
export const daysAhead = (page, days) =>
  page.evaluate((d) => {
    const t = Date.now() + d * 24 * 3600 * 1000;
    return new Date(t - new Date(t).getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  }, days);

export const messages = (page, key) => page.locator(`[data-msg-for="${key}"] > .msg`);
export const noMessage = (page, key) => page.waitForFunction((k) => !document.querySelector(`[data-msg-for="${k}"] > .msg`), key, WAIT);
