// workerd host of svc-sdk/testing: GET /scenario runs the scenario against an in-process sandbox and
// answers its recorded answers as JSON (the worker makes no request of its own).
import { Client, SvcError } from "svc-sdk";
import { Sandbox } from "svc-sdk/testing";
import { FAULTS, TOKENS, recorded, scenario } from "./scenario.mjs";

export default {
  async fetch(request) {
    if (new URL(request.url).pathname !== "/scenario") return new Response("not found", { status: 404 });
    const sandbox = new Sandbox({ tokens: TOKENS });
    const faulty = new Sandbox(FAULTS);
    const log = [];
    await scenario({ Client, SvcError }, sandbox.url, recorded(sandbox.fetch, sandbox.url, log), sandbox.organizationId, { url: faulty.url, fetch: recorded(faulty.fetch, faulty.url, log) });
    return Response.json({ userAgent: globalThis.navigator?.userAgent, log });
  },
};
