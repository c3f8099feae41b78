// "Connect an organization" in the demo app (issue 49), end to end in Debian's Chromium: the app as
// `npm start` serves it (www/connect.mjs: createConnections with the sandbox's demo client), the
// sandbox binary's real consent page, the redirect back, the connected organization's data in the
// page. The page and the consent page are the only origins the browser talks to; the client secret
// and the tokens never reach it. Screenshots in test-output/demo-connect-*.png.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { WAIT, launchChromium, screenshot, startDemoApp } from "./support/demo-app.mjs";

const consumer = path.dirname(fileURLToPath(import.meta.url));
const h = await import(pathToFileURL(path.join(process.env.SVC_ROOT, "tests/runtimes/harness.mjs")));

let app;
let browser;

before(async () => {
  app = await startDemoApp(consumer, "demo-connect");
  browser = await launchChromium(h.ensureDir(path.join(consumer, "demo-connect-state")));
}, { timeout: 90_000 });

after(async () => {
  await h.withTimeout(browser?.close() ?? Promise.resolve(), 10_000, "closing Chromium").catch(() => {});
  await app?.close();
});

const accounts = async () => (await fetch(`${app.sandbox.url}/__sandbox/accounts`)).json();

/**
 * A page in a context of its own (its own cookies) at the connect view. done() closes it and fails on a
 * page error, a failed request, a request to any origin but the app's and the sandbox's, an
 * Authorization header, or the client secret or a token in anything the browser received.
 */
async function openConnect() {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  page.setDefaultTimeout(WAIT.timeout);
  const problems = [];
  const bodies = [];
  const origins = [app.url, app.sandbox.url];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => m.type() === "error" && !/favicon/.test(m.location().url) && problems.push(`console.error: ${m.text()}`));
  page.on("requestfailed", (r) => problems.push(`requestfailed: ${r.url()} ${r.failure()?.errorText}`));
  page.on("request", (r) => {
    if (!origins.some((o) => r.url().startsWith(`${o}/`))) problems.push(`a request left the app and the accounts server: ${r.url()}`);
    if (Object.keys(r.headers()).some((k) => k.toLowerCase() === "authorization")) problems.push(`a request carried Authorization: ${r.url()}`);
    if (r.url().includes(app.sandbox.oauth.clientSecret)) problems.push(`the client secret in a URL: ${r.url()}`);
  });
  page.on("response", (r) => {
    bodies.push(
      r.text().then(
        (text) => {
          const seen = text + JSON.stringify(r.headers());
          if (seen.includes(app.sandbox.oauth.clientSecret)) problems.push(`the client secret reached the browser: ${r.url()}`);
          const ours = r.url().startsWith(`${app.url}/svc/`);
          if (ours && /refresh_?token|access_?token|sealed|\b1000\.[\w.-]{20,}/i.test(seen)) problems.push(`a token reached the browser: ${r.url()}`);
        },
        () => {},
      ),
    );
  });
  await page.goto(`${app.url}/#connect`);
  await page.waitForSelector("#view-connect[data-state=none]", WAIT);
  return {
    page,
    async done() {
      await Promise.all(bodies);
      await page.context().close();
      assert.deepEqual(problems, [], "no page errors, only the app's and the accounts server's origins, no secret in the browser");
    },
  };
}

/** From the app's button to the sandbox's consent page; resolves with the consent page's URL. */
async function toConsent(page) {
  await page.click("#connect-start");
  await page.waitForURL(`${app.sandbox.url}/oauth/v2/auth?**`, WAIT);
  return page.url();
}

const connected = (page) => page.waitForSelector("#view-connect[data-state=connected]", WAIT);

test("connect: the consent page approved as the sandbox's user, back in the app with its organizations and contacts", { timeout: 40_000 }, async () => {
  const { page, done } = await openConnect();
  const consent = new URL(await toConsent(page));
  assert.equal(consent.searchParams.get("redirect_uri"), `${app.url}/svc/callback`);
  assert.equal(await page.textContent("#client"), app.sandbox.oauth.clientId);
  assert.ok((await page.locator("#scopes li").count()) >= 1, "the consent page lists the scopes asked for");
  assert.equal(await page.locator('input[name=user]:checked').getAttribute("value"), "john.david@example.com", "the sandbox's own user, who reaches every organization");
  await screenshot(page, "demo-connect-consent");
  await page.click('button[value="approve"]');
  await connected(page);
  assert.equal(new URL(page.url()).search, "", "the outcome is taken from the address once");
  assert.equal(await page.textContent("#connect-outcome"), "Connected: the organization's data is below.");
  assert.deepEqual(await page.locator("#connect-org option").allTextContents(), ["Sandbox Trading Co (10234695)"]);
  const names = await page.locator("#connect-contacts tbody td:first-child").allTextContents();
  assert.deepEqual(names.sort(), ["Blue Fern Studio", "Harbor Supplies", "Northwind Traders"], "the demo's contacts, read through the connection");
  assert.match(await page.textContent("#connect-details"), /Active/);
  await screenshot(page, "demo-connect-connected");
  await page.setViewportSize({ width: 390, height: 844 });
  const width = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(width[0] <= width[1], `no horizontal scroll at 390 px (${width[0]} > ${width[1]})`);
  await screenshot(page, "demo-connect-connected-390");

  const revoked = (await accounts()).revocations.by_request;
  await page.click("#connect-disconnect");
  await page.waitForSelector("#view-connect[data-state=none]", WAIT);
  assert.equal(await page.textContent("#connect-outcome"), "Disconnected: access was revoked at the accounts server.");
  assert.equal((await accounts()).revocations.by_request, revoked + 1, "revoked at the accounts server");
  await done();
});

test("connect as another user typed on the consent page: a tenant apart, its own organization, no contacts", { timeout: 40_000 }, async () => {
  const { page, done } = await openConnect();
  await toConsent(page);
  await page.check('input[name=user][value=""]');
  await page.fill("input[name=email]", "ann@acme.example");
  await page.click('button[value="approve"]');
  await connected(page);
  const [only, ...others] = await page.locator("#connect-org option").allTextContents();
  assert.deepEqual(others, [], "one organization");
  assert.match(only, /ann/i);
  assert.doesNotMatch(only, /10234695/, "not the sandbox's organization");
  assert.equal(await page.isVisible("#connect-empty"), true);
  assert.equal(await page.textContent("#connect-empty"), "No contacts in this organization yet.");
  await done();
});

test("declined on the consent page: a clear message, nothing connected, the button again", { timeout: 40_000 }, async () => {
  const declined = (await accounts()).codes.declined;
  const { page, done } = await openConnect();
  await toConsent(page);
  await page.click('button[value="decline"]');
  await page.waitForSelector("#connect-outcome:not([hidden])", WAIT);
  await page.waitForSelector("#view-connect[data-state=none]", WAIT);
  assert.equal(await page.textContent("#connect-outcome"), "You declined on the consent page, so nothing was connected.");
  assert.equal(await page.getAttribute("#connect-outcome", "data-tone"), "bad");
  assert.equal(await page.isVisible("#connect-start"), true);
  assert.equal(await page.isHidden("#connect-data"), true);
  assert.equal((await accounts()).codes.declined, declined + 1);
  await screenshot(page, "demo-connect-declined");
  await done();
});

test("a redirect taken twice, or a consent started in another browser, connects nothing", { timeout: 40_000 }, async () => {
  const { page, done } = await openConnect();
  let callback;
  page.on("request", (r) => r.url().startsWith(`${app.url}/svc/callback?`) && (callback ??= r.url()));
  const consent = await toConsent(page);
  await page.click('button[value="approve"]');
  await connected(page);
  await page.goto(callback);
  await page.waitForSelector("#connect-outcome:not([hidden])", WAIT);
  assert.equal(await page.textContent("#connect-outcome"), "That consent link expired or was already used. Connect again.");

  // The consent page of this browser's connection, approved in another browser (no cookie of it): undone.
  const other = await openConnect();
  const revoked = (await accounts()).revocations.by_request;
  await other.page.goto(consent.replace(/state=[^&]+/, `state=${await stateOf(page)}`));
  await other.page.click('button[value="approve"]');
  await other.page.waitForSelector("#connect-outcome:not([hidden])", WAIT);
  assert.equal(await other.page.textContent("#connect-outcome"), "That consent was started in another browser, so it was undone.");
  assert.equal(await other.page.isHidden("#connect-data"), true);
  assert.equal((await accounts()).revocations.by_request, revoked + 2, "the grant it replaced, and the one given in the other browser, revoked");
  await other.done();
  await done();
});

/** A fresh authorization's state for the page's own connection (its cookie), from the app's /svc/connect. */
async function stateOf(page) {
  const response = await page.request.get(`${app.url}/svc/connect`, { maxRedirects: 0 });
  return new URL(response.headers().location).searchParams.get("state");
}
