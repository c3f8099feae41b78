// svc-sdk/cloudflare: SvcLimiter, the Durable Object that keeps one organization's fleet state and
// runs each step on it with the wasm's fleet::apply (__fleetApply), and durableObjectStore, the store
// a Client in any worker reaches it through. The limiter itself is Rust; this is storage and HTTP.
import { SvcError } from "./workerd.js";

/** The wasm's fleet steps, on the instance of the workerd entry (scripts/build.mjs hangs them on its SvcError). */
const { __fleetApply, __fleetSweep } = SvcError[Symbol.for("svc-sdk.internal")];

/** The storage key of the fleet's state text. */
const KEY = "fleet";

/** A Durable Object class: one object per organization (durableObjectStore names it by the organization id). */
export class SvcLimiter {
  constructor(ctx, env) {
    this.ctx = ctx;
    this.env = env;
    /** The alarm this object last set, so that an unchanged wake time is not written again. */
    this.alarmAt = undefined;
  }

  /** POST the step's request text; the answer is the reply text (400: the request is not a step). */
  async fetch(request) {
    try {
      const text = await request.text();
      return new Response(await this.step(text), { headers: { "content-type": "application/json" } });
    } catch (e) {
      const status = e instanceof SvcError ? 400 : 500;
      return new Response(e instanceof Error ? e.message : String(e), { status, headers: { "content-type": "text/plain; charset=utf-8" } });
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
    const saved = await storage.get(KEY);
    const applied = __fleetApply(saved ?? null, Date.now(), text);
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
  let usable = false;
  try {
    usable = typeof namespace?.idFromName === "function" && typeof namespace.get === "function";
  } catch {}
  if (!usable) {
    throw new SvcError("config", "durableObjectStore needs a Durable Object namespace binding of SvcLimiter (env.SVC_LIMITER)");
  }
  return {
    async step(key, request) {
      const stub = namespace.get(namespace.idFromName(key));
      const res = await stub.fetch("https://svc-limiter/step", { method: "POST", body: request });
      const text = await res.text();
      if (!res.ok) throw new Error(`SvcLimiter answered ${res.status}: ${text}`);
      return text;
    },
  };
}
