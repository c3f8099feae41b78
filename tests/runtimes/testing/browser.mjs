// The page that Vite builds: the scenario against an in-process sandbox; its recorded answers (or the
// error) go to #result and body[data-status].
import { Client, SvcError } from "svc-sdk";
import { Sandbox } from "svc-sdk/testing";
import { FAULTS, TOKENS, recorded, scenario } from "./scenario.mjs";

const sandbox = new Sandbox({ tokens: TOKENS });
const faulty = new Sandbox(FAULTS);
const log = [];
try {
  await scenario({ Client, SvcError }, sandbox.url, recorded(sandbox.fetch, sandbox.url, log), sandbox.organizationId, { url: faulty.url, fetch: recorded(faulty.fetch, faulty.url, log) });
  document.querySelector("#result").textContent = JSON.stringify({ userAgent: navigator.userAgent, log });
  document.body.dataset.status = "done";
} catch (e) {
  document.querySelector("#result").textContent = JSON.stringify({ error: String(e?.stack ?? e) });
  document.body.dataset.status = "failed";
}
