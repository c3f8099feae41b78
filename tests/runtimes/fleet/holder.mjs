// A worker of the fleet (tests/js/fleet-workerd.test.mjs): several of these, each its own isolate
// with its own wasm instance, bind the one SvcLimiter namespace hosted by limiter.mjs and reach it
// through durableObjectStore, as a Client's store does. The steps are fleet::Request as JSON
// ({ acquire: {...} }, { release: {...} }, "state"), written here as the Client's Rust writes them.
//   POST /step   { key, request }       one step; answers the reply text (502 { error } if the store rejected)
//   POST /cycles { key, cycles, limits, leaseMs, resource }
//                acquire (asking again when told to wait), GET resource, release, `cycles` times;
//                answers every reply's inFlight and what each release said
//   POST /die    { key, limits, leaseMs, resource, gate }  takes a slot and starts GET resource, waits
//                for GET gate (answered once that call is in flight), then throws: workerd answers 500
//                and cancels what the request left running, so the slot is never released
//   GET /checks  what durableObjectStore does with a wrong argument and with a store that cannot be reached
import { SvcError } from "svc-sdk";
import { durableObjectStore } from "svc-sdk/cloudflare";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function cycles(store, holder, { key, cycles, limits, leaseMs, resource }) {
  const inFlight = [];
  const released = [];
  let waits = 0;
  for (let i = 0; i < cycles; i++) {
    let lease;
    while (lease === undefined) {
      const reply = JSON.parse(await store.step(key, JSON.stringify({ acquire: { holder, limits, leaseMs } })));
      inFlight.push(reply.state.inFlight);
      const { granted, wait } = reply.outcome.acquire;
      if (granted) lease = granted.lease;
      else if (wait) {
        waits++;
        await sleep(Math.max(1, Math.min(wait.until - reply.now, 20)));
      } else throw new Error(`unexpected outcome ${JSON.stringify(reply.outcome)}`);
    }
    await (await fetch(resource)).text();
    const reply = JSON.parse(await store.step(key, JSON.stringify({ release: { lease } })));
    inFlight.push(reply.state.inFlight);
    released.push(reply.outcome.released);
  }
  return { inFlight, released, waits };
}

/** One call as a Client makes it: a slot, the call, the release. */
async function hold(store, holder, { key, limits, leaseMs, resource }) {
  const reply = JSON.parse(await store.step(key, JSON.stringify({ acquire: { holder, limits, leaseMs } })));
  const { granted } = reply.outcome.acquire;
  if (!granted) throw new Error(`no slot: ${JSON.stringify(reply)}`);
  await (await fetch(resource)).text();
  return JSON.parse(await store.step(key, JSON.stringify({ release: { lease: granted.lease } })));
}

async function checks() {
  const out = {};
  try {
    durableObjectStore({ idFromName: "no" });
    out.config = { thrown: false };
  } catch (e) {
    out.config = { thrown: true, instanceofSvcError: e instanceof SvcError, kind: e.kind, message: e.message };
  }
  const down = durableObjectStore({ idFromName: (n) => n, get: () => ({ fetch: () => Promise.reject(new Error("the object is unreachable")) }) });
  try {
    await down.step("org", '"state"');
    out.unreachable = { rejected: false };
  } catch (e) {
    out.unreachable = { rejected: true, message: e.message };
  }
  return out;
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const store = durableObjectStore(env.SVC_LIMITER);
    if (url.pathname === "/die") {
      const { gate, ...call } = await request.json();
      hold(store, env.HOLDER, call);
      await (await fetch(gate)).text();
      throw new Error("the request dies with its call in flight");
    }
    try {
      if (url.pathname === "/step") {
        const { key, request: step } = await request.json();
        return new Response(await store.step(key, step));
      }
      if (url.pathname === "/cycles") return Response.json(await cycles(store, env.HOLDER, await request.json()));
      if (url.pathname === "/checks") return Response.json(await checks());
      return new Response("not found", { status: 404 });
    } catch (e) {
      return Response.json({ error: e.message, name: e.name }, { status: 502 });
    }
  },
};
