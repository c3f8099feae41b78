// workerd host of the integrator's day: POST /receivables with { apiDomain, accessToken,
// organizationId } runs it in the worker and answers the report as JSON.
import { receivables } from "../receivables.mjs";

export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/ready") return new Response("ready");
    if (url.pathname !== "/receivables" || request.method !== "POST") return new Response("not found", { status: 404 });
    return Response.json(await receivables(await request.json()));
  },
};
