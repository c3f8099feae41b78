// A worker of the fleet with a Client (tests/js/fleet-workerd.test.mjs): several of these, each its
// own isolate, share the organization's limits through durableObjectStore(env.SVC_LIMITER).
//   POST /calls { options, names, deadlineMs? }  one createAccount per name, all at once; answers how
//               each ended. options are the Client's; with `mint`, its token function mints one at
//               that URL; with `record`, the name of every request is POSTed there before the
//               request is sent. With deadlineMs, every call gets a signal that aborts it then (as
//               AbortSignal.timeout does), or sooner when GET stop answers.
//   POST /die   { options, names, gate, deadlineMs? }  starts the same calls, waits for the first
//               request to be sent, then for GET gate (answered once the sandbox received it), then
//               throws: workerd answers 500 and cancels what the request left running, so the slots
//               it held are never released
import { Client } from "svc-sdk";
import { durableObjectStore } from "svc-sdk/cloudflare";

/** The Client of one request; `sent` is told the account name of every request it sends. */
function client(env, { mint, record, ...options }, sent) {
  const accessToken = mint ? async () => (await (await fetch(mint, { method: "POST" })).json()).token : options.accessToken;
  const send = async (url, init) => {
    // The OAuth grant (a form to the accounts server) is sent as it is.
    if (String(url).endsWith("/oauth/v2/token")) return fetch(url, init);
    const name = JSON.parse(init.body).account_name;
    if (record) await (await fetch(record, { method: "POST", body: name })).arrayBuffer();
    sent(name);
    return fetch(url, init);
  };
  return new Client({ ...options, accessToken, fetch: send, rateLimit: { ...options.rateLimit, store: durableObjectStore(env.SVC_LIMITER) } });
}

/** A signal that aborts as AbortSignal.timeout(ms) does, at `ms` or once GET `stop` answers. */
function runEnd(ms, stop) {
  const c = new AbortController();
  const end = () => c.abort(new DOMException("the run is over", "TimeoutError"));
  setTimeout(end, ms);
  if (stop) fetch(stop).then((r) => r.arrayBuffer()).then(end, end);
  return c.signal;
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname !== "/calls" && url.pathname !== "/die") return new Response("not found", { status: 404 });
    const { options, names, gate, deadlineMs, stop } = await request.json();
    let first;
    const firstSent = new Promise((resolve) => (first = resolve));
    const c = client(env, options, first);
    const signal = deadlineMs === undefined ? undefined : runEnd(deadlineMs, stop);
    const calls = names.map((name) => c.createAccount({ account_name: name, account_type: "cash" }, { signal }));
    if (url.pathname === "/die") {
      await firstSent;
      await (await fetch(gate)).text();
      throw new Error("the request dies with its calls in flight");
    }
    const settled = await Promise.allSettled(calls);
    return Response.json({
      results: settled.map((r) =>
        r.status === "fulfilled" ? { ok: true, name: r.value.account_name } : { ok: false, kind: r.reason?.kind, status: r.reason?.status, message: r.reason?.message },
      ),
      state: c.rateLimitState(),
    });
  },
};
