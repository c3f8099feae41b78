// The README's fleet worker (examples/workerd-fleet/worker.mjs) in TypeScript, against the Env that
// `wrangler types` writes for the README's binding: SVC_LIMITER is a
// DurableObjectNamespace<import("./wrangler-worker").SvcLimiter>, whose class must be a Durable Object
// class to Cloudflare's types (tests/js/types.test.mjs runs wrangler types, then tsc with skipLibCheck: false).
import { Client, SvcError } from "svc-sdk";
import { durableObjectStore, SvcLimiter } from "svc-sdk/cloudflare";

// The Durable Object class of the SVC_LIMITER binding: one object per organization.
export { SvcLimiter } from "svc-sdk/cloudflare";

// A subclass is a Durable Object class too, constructed with the runtime's state and the worker's Env.
export class CountingLimiter extends SvcLimiter {
  calls = 0;
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
  }
  override async fetch(request: Request): Promise<Response> {
    this.calls++;
    return super.fetch(request);
  }
}

export default {
  async fetch(request, env) {
    // A Client per request: the limits live in the object, not in the isolate.
    const client = new Client({
      accessToken: env.SVC_TOKEN,
      organizationId: env.SVC_ORGANIZATION_ID,
      region: env.SVC_REGION,
      rateLimit: { store: durableObjectStore(env.SVC_LIMITER) },
    });
    const { pathname } = new URL(request.url);
    try {
      if (pathname === "/accounts") return Response.json((await client.listAccounts()).items);
      if (pathname === "/limits") return Response.json(client.rateLimitState());
      // The typed stub of the binding answers fetch, as any Durable Object's does.
      const stub = env.SVC_LIMITER.get(env.SVC_LIMITER.idFromName(env.SVC_ORGANIZATION_ID));
      const answer: Response = await stub.fetch("https://limiter.invalid/");
      return new Response(null, { status: answer.status === 200 ? 404 : answer.status });
    } catch (e) {
      if (e instanceof SvcError) return Response.json({ kind: e.kind, message: e.message }, { status: 502 });
      throw e;
    }
  },
} satisfies ExportedHandler<Env>;

// @ts-expect-error: a stub is not a namespace
durableObjectStore({} as DurableObjectStub<SvcLimiter>);
