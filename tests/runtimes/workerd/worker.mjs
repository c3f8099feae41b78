// workerd host: POST /smoke with { apiDomain, accessToken, organizationId } runs the scenario in the
// worker and answers the report as JSON.
import { smoke } from "../scenario.mjs";

export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname !== "/smoke" || request.method !== "POST") return new Response("not found", { status: 404 });
    const report = await smoke(await request.json());
    report.runtime = { name: "workerd", userAgent: globalThis.navigator?.userAgent };
    return Response.json(report);
  },
};
