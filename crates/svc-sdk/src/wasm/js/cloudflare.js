// svc-sdk/cloudflare: SvcLimiter, the Durable Object that keeps one organization's fleet state, and
// durableObjectStore, the store a Client in any worker reaches it through. The platform makes this JS:
// workerd constructs a Durable Object from a JS class and calls its fetch and alarm, and a store must
// outlive a restart of the core. Each step, on the storage or over HTTP, is the wasm's (limiter.rs).
import { SvcError } from "./workerd.js";

/** The wasm's steps, on the instance of the workerd entry (scripts/build.mjs hangs them on its SvcError). */
const { __durableConnection, __durableStep, __fleetNamespace, __limiterAlarm, __limiterFetch } = SvcError[Symbol.for("svc-sdk.internal")];

/** A Durable Object class: one object per organization (durableObjectStore names it by the organization id). */
export class SvcLimiter {
  constructor(ctx, env) {
    // alarmAt: the alarm this object last set, so that an unchanged wake time is not written again.
    Object.assign(this, { ctx, env, alarmAt: undefined });
  }

  /** POST the step's request text; the answer is the reply text (400: the request is not a step). */
  fetch(request) {
    return __limiterFetch(this, request);
  }

  /** Sweeps the leases and claims whose time is up, though nobody asks, and waits for the next end. */
  alarm() {
    return __limiterAlarm(this);
  }
}

/**
 * The fleet store of Clients in a worker: each step is POSTed to the SvcLimiter object of the
 * organization (`key`) in `namespace`, the Durable Object binding of SvcLimiter.
 */
export function durableObjectStore(namespace) {
  __fleetNamespace(namespace);
  return { step: (key, request) => __durableStep(namespace, key, request) };
}

/** A ConnectionStore (createConnections' `store`) in Durable Object storage: each key in the SvcLimiter object named after it, in `namespace`. */
export function durableObjectConnectionStore(namespace) {
  __fleetNamespace(namespace);
  const op = (name, key, value) => __durableConnection(namespace, name, key, value);
  return { get: (key) => op("get", key), set: (key, value) => op("set", key, value).then(() => {}), delete: (key) => op("delete", key).then(() => {}) };
}
