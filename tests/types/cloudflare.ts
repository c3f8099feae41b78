// A worker's TypeScript file for svc-sdk/cloudflare: its Durable Object types are declared here the
// way @cloudflare/workers-types declares them (overloads, options, a branded id), so that the
// package's own shapes are shown to accept them without that package; wrong arguments fail.
import { SvcLimiter, durableObjectStore, type FleetStore as FromCloudflare } from "svc-sdk/cloudflare";
import type { FleetStore } from "svc-sdk";

interface DurableObjectId {
  toString(): string;
  equals(other: DurableObjectId): boolean;
  readonly name?: string;
}
interface DurableObjectStub {
  readonly id: DurableObjectId;
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
}
interface DurableObjectNamespace {
  newUniqueId(options?: { jurisdiction?: string }): DurableObjectId;
  idFromName(name: string): DurableObjectId;
  idFromString(id: string): DurableObjectId;
  get(id: DurableObjectId, options?: { locationHint?: string }): DurableObjectStub;
}
interface DurableObjectStorage {
  get<T = unknown>(key: string, options?: { allowConcurrency?: boolean }): Promise<T | undefined>;
  get<T = unknown>(keys: string[], options?: { allowConcurrency?: boolean }): Promise<Map<string, T>>;
  put<T>(key: string, value: T, options?: { allowUnconfirmed?: boolean }): Promise<void>;
  put<T>(entries: Record<string, T>, options?: { allowUnconfirmed?: boolean }): Promise<void>;
  getAlarm(): Promise<number | null>;
  setAlarm(scheduledTime: number | Date, options?: { allowUnconfirmed?: boolean }): Promise<void>;
  deleteAlarm(): Promise<void>;
}
interface DurableObjectState {
  readonly id: DurableObjectId;
  readonly storage: DurableObjectStorage;
  waitUntil(promise: Promise<unknown>): void;
  blockConcurrencyWhile<T>(callback: () => Promise<T>): Promise<T>;
}
interface Env {
  SVC_LIMITER: DurableObjectNamespace;
}

export { SvcLimiter };

export class CountingLimiter extends SvcLimiter {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
  }
  override async alarm(): Promise<void> {
    await super.alarm();
  }
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const store = durableObjectStore(env.SVC_LIMITER);
    const option: FleetStore = store;
    const same: FromCloudflare = option;
    const reply: string = await store.step("10234695", '"state"');
    void same;
    const limiter = new SvcLimiter({ storage: {} as DurableObjectStorage }, env);
    const answer: Response = await limiter.fetch(request);
    return answer.ok ? new Response(reply) : answer;
  },
};

declare const env: Env;
// @ts-expect-error: not a namespace
durableObjectStore({});
// @ts-expect-error: a stub is not a namespace
durableObjectStore(env.SVC_LIMITER.get(env.SVC_LIMITER.idFromName("x")));
// @ts-expect-error: a step takes the request's text
durableObjectStore(env.SVC_LIMITER).step("1", { state: null });
