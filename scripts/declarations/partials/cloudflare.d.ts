// pkg/cloudflare.d.ts: svc-sdk/cloudflare, shaped like Cloudflare's types, so that neither needs
// @cloudflare/workers-types.

import type { ConnectionStore, FleetStore } from "./index.js";
export type { ConnectionStore, FleetStore };

/** What SvcLimiter uses of its DurableObjectState: the storage, and its alarm. */
export interface SvcLimiterState {
  readonly storage: {
    get(key: string): Promise<unknown>;
    put(key: string, value: string): Promise<void>;
    setAlarm(scheduledTime: number): Promise<void>;
  };
}

/** A Durable Object namespace binding of SvcLimiter (`env.SVC_LIMITER`). */
export interface SvcLimiterNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(input: string, init?: RequestInit): Promise<Response> };
}

/**
 * The Durable Object that holds one organization's limiter and token for a fleet: export it from
 * the worker and bind it (wrangler.toml `[[durable_objects.bindings]]` with a migration). Its
 * alarm ends the leases of holders that died.
 */
export declare class SvcLimiter {
  constructor(ctx: SvcLimiterState, env: unknown);
  fetch(request: Request): Promise<Response>;
  alarm(): Promise<void>;
  /**
   * Types only, no such property exists: the brand by which Cloudflare's types know a Durable Object
   * class (`Rpc.DurableObjectBranded` of @cloudflare/workers-types), so that the
   * `DurableObjectNamespace<SvcLimiter>` that `wrangler types` writes for the binding compiles.
   */
  readonly __DURABLE_OBJECT_BRAND: never;
}

/** The FleetStore of `rateLimit: { store }` in any worker bound to SvcLimiter; a config SvcError if `namespace` is not a namespace. */
export declare function durableObjectStore(namespace: SvcLimiterNamespace): { step(key: string, request: string): Promise<string> };
/** A ConnectionStore in Durable Object storage (each key in the SvcLimiter object named after it), for createConnections in a worker. */
export declare function durableObjectConnectionStore(namespace: SvcLimiterNamespace): ConnectionStore;
