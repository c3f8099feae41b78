// Browser host, built by Vite: the page reads ?api=&token=&org=, runs the scenario, one call through apiDomain "/api" and one that is redirected, and writes the
// report into the DOM (#result, and body[data-status] once done).
import { Client } from "svc-sdk";
import { smoke } from "../scenario.mjs";

const q = new URLSearchParams(location.search);
const report = await smoke({ apiDomain: q.get("api"), accessToken: q.get("token"), organizationId: q.get("org") });
report.runtime = { name: "browser", userAgent: navigator.userAgent };
// A client behind a same-origin proxy: apiDomain "/api" resolves against the page's origin.
const { data, response } = await new Client({ apiDomain: "/api", viaProxy: true }).request("GET", "books", "/chartofaccounts").withResponse();
report.relative = { status: response.status, url: response.url, message: data.message };
// A redirect is not followed: what the browser gives for it (opaque, no status) is an api error.
report.redirect = await new Client({ apiDomain: "/api", viaProxy: true, maxRetries: 0 })
  .request("GET", "books", "/redirected")
  .then((data) => ({ followed: data }), (e) => ({ kind: e.kind, status: e.status, message: e.message }));
// oauth in a page is refused: its secrets would be the page's.
try {
  new Client({ oauth: { clientId: "1000.page", clientSecret: "page-secret", refreshToken: "1000.page.refresh" }, organizationId: "1" });
  report.oauth = { constructed: true };
} catch (e) {
  report.oauth = { kind: e.kind, message: e.message };
}
document.getElementById("result").textContent = JSON.stringify(report, null, 2);
document.getElementById("title").textContent = `svc-sdk smoke in the browser: ${report.ok ? "passed" : "failed"}`;
document.body.dataset.status = report.ok ? "passed" : "failed";
