// svc-sdk/cloudflare: SvcLimiter, the Durable Object that keeps one organization's fleet state, and
// durableObjectStore, the store a Client in any worker reaches it through. The platform makes this JS:
// workerd constructs a Durable Object from a JS class and calls its fetch and alarm, and its storage
// is awaited JS. Each step on the state is the wasm's (fleet::apply, __fleetApply); this is storage and HTTP.
import { SvcError } from "./workerd.js";

/** The wasm's fleet steps, on the instance of the workerd entry (scripts/build.mjs hangs them on its SvcError). */
const { __fleetApply, __fleetNamespace, __fleetSweep } = SvcError[Symbol.for("svc-sdk.internal")];

/** The storage key of the fleet's state text. */
const KEY = "fleet";

/** A Durable Object class: one object per organization (durableObjectStore names it by the organization id). */
export class SvcLimiter {
  constructor(ctx, env) {
    // alarmAt: the alarm this object last set, so that an unchanged wake time is not written again.
    Object.assign(this, { ctx, env, alarmAt: undefined });
  }

  /** POST the step's request text; the answer is the reply text (400: the request is not a step). */
  async fetch(request) {
    try {
      return new Response(await this.step(await request.text()), { headers: { "content-type": "application/json" } });
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      return new Response(message, { status: e instanceof SvcError ? 400 : 500, headers: { "content-type": "text/plain; charset=utf-8" } });
    }
  }

  /** Sweeps the leases and claims whose time is up, though nobody asks, and waits for the next end. */
  async alarm() {
    this.alarmAt = undefined;
    await this.step(__fleetSweep());
  }

  /**
   * One step, atomic: between the load and the put only storage is awaited, so the object's input
   * gate holds every other request and alarm until the step's writes are in its storage.
   */
  async step(text) {
    const storage = this.ctx.storage;
    const applied = __fleetApply((await storage.get(KEY)) ?? null, Date.now(), text);
    if (applied.state !== undefined) await storage.put(KEY, applied.state);
    if (applied.wakeAt !== undefined && applied.wakeAt !== this.alarmAt) {
      await storage.setAlarm(applied.wakeAt);
      this.alarmAt = applied.wakeAt;
    }
    return applied.reply;
  }
}

/**
 * The fleet store of Clients in a worker: each step is POSTed to the SvcLimiter object of the
 * organization (`key`) in `namespace`, the Durable Object binding of SvcLimiter.
 */
export function durableObjectStore(namespace) {
  __fleetNamespace(namespace);
  return {
    async step(key, request) {
      const res = await namespace.get(namespace.idFromName(key)).fetch("https://svc-limiter/step", { method: "POST", body: request });
      const text = await res.text();
      if (!res.ok) throw new Error(`SvcLimiter answered ${res.status}: ${text}`);
      return text;
    },
  };
}
