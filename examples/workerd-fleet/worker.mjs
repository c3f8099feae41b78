// A Cloudflare worker whose Clients share one organization's limits (per minute, in flight, per
// day) through the SvcLimiter Durable Object, however many isolates run it; other workers bound
// to the same object (script_name = "svc-sdk-fleet-example") share them too.
//   GET /accounts   the chart of accounts, one call through a fleet-limited Client
//   GET /limits     what the fleet allows now
// Bindings: SVC_TOKEN (secret), SVC_ORGANIZATION_ID, SVC_REGION or SVC_API_DOMAIN (vars), SVC_LIMITER.
import { Client, SvcError } from "svc-sdk";
import { durableObjectStore } from "svc-sdk/cloudflare";

// The Durable Object class of the SVC_LIMITER binding: one object per organization.
export { SvcLimiter } from "svc-sdk/cloudflare";

export default {
  async fetch(request, env) {
    // A Client per request: the limits live in the object, not in the isolate.
    const client = new Client({
      accessToken: env.SVC_TOKEN,
      organizationId: env.SVC_ORGANIZATION_ID,
      ...(env.SVC_API_DOMAIN ? { apiDomain: env.SVC_API_DOMAIN } : { region: env.SVC_REGION ?? "us" }),
      rateLimit: { store: durableObjectStore(env.SVC_LIMITER) },
    });
    const { pathname } = new URL(request.url);
    try {
      if (pathname === "/accounts") return Response.json((await client.listAccounts()).items);
      if (pathname === "/limits") return Response.json(client.rateLimitState());
      return new Response("not found", { status: 404 });
    } catch (e) {
      if (e instanceof SvcError) return Response.json({ kind: e.kind, message: e.message }, { status: 502 });
      throw e;
    }
  },
};
