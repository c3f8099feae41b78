// A worker of the fleet with a Client (tests/js/fleet-workerd.test.mjs): several of these, each its
// own isolate, share the organization's limits through durableObjectStore(env.SVC_LIMITER).
//   POST /calls { options, names }  one createAccount per name, all at once; answers how each ended
//               (options are the Client's; with `mint`, its token function mints one at that URL)
//   POST /die   { options, names, gate }  starts createAccount(names[0]), waits for GET gate (answered
//               once the sandbox received that call), then throws: workerd answers 500 and cancels
//               the call, so its slot is never released
import { Client } from "svc-sdk";
import { durableObjectStore } from "svc-sdk/cloudflare";

/** options.mint: the token is a function that mints one at the sandbox (POST /__sandbox/tokens). */
function client(env, { mint, ...options }) {
  const accessToken = mint ? async () => (await (await fetch(mint, { method: "POST" })).json()).token : options.accessToken;
  return new Client({ ...options, accessToken, rateLimit: { ...options.rateLimit, store: durableObjectStore(env.SVC_LIMITER) } });
}

const create = (c, name) => c.createAccount({ account_name: name, account_type: "cash" });

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const { options, names, gate } = await request.json();
    const c = client(env, options);
    if (url.pathname === "/die") {
      create(c, names[0]);
      await (await fetch(gate)).text();
      throw new Error("the request dies with its call in flight");
    }
    if (url.pathname !== "/calls") return new Response("not found", { status: 404 });
    const settled = await Promise.allSettled(names.map((name) => create(c, name)));
    return Response.json({
      results: settled.map((r) =>
        r.status === "fulfilled" ? { ok: true, name: r.value.account_name } : { ok: false, kind: r.reason?.kind, status: r.reason?.status, message: r.reason?.message },
      ),
      state: c.rateLimitState(),
    });
  },
};
