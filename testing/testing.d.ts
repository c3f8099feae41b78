// svc-sdk/testing: the sandbox's own Rust handling, in-process, behind a standard fetch.

import type { APIPromise, CallOptions, Client, OperationId, OperationParams } from "./index.js";

/** The path values of an operation: its client method's arguments before its params. */
type PathValues<K extends OperationId> =
  Parameters<Client[K]> extends [...infer P, (OperationParams[K] | undefined)?, (CallOptions | undefined)?] ? P : never;
/** What a client's call of an operation resolves to. */
type Seeded<K extends OperationId> = Client[K] extends (...args: never[]) => APIPromise<infer R> ? R : never;

/** The options of an in-process sandbox; they mirror the sandbox binary's flags. */
export interface SandboxOptions {
  /** The seeded organization's id (`--org`); default "10234695". */
  organizationId?: string;
  /** Tokens and their scopes (`--token NAME=SCOPE,...`); "*" grants every scope. */
  tokens?: Record<string, string[] | string>;
  /** false: the dev token "dev-token" is not accepted (`--no-dev-token`). */
  devToken?: boolean;
  /** The organization's plan (`--plan`): free, standard, professional, premium, elite or ultimate. */
  plan?: string;
  /** Requests per minute and organization (`--rate-per-minute`); default 100. */
  ratePerMinute?: number;
  /** The length of the rate window in ms (`--minute-ms`), for tests; default 60000. */
  minuteMs?: number;
  /** Requests per day and organization (`--daily-quota`), or "none" for no quota; default (or null): the plan's. */
  dailyQuota?: number | "none" | null;
  /** false: no rate limits at all (`--no-rate-limit`). */
  rateLimit?: boolean;
  /** Fault rates (`--faults`), e.g. "429=0.5,500=0.1,slow=0.2". */
  faults?: string;
  /** The seed of the faults' draws (`--seed`), for repeatable runs. */
  seed?: number;
  /**
   * How long a slow fault holds its call, in flight and not yet applied, in ms on the runtime's timers
   * (`--slow-ms`); the request's signal cuts the wait short (the call is applied all the same); default 1500.
   */
  slowMs?: number;
  /**
   * A fetch that the CRM notification callbacks are posted through, with the body and headers the binary
   * posts and a signal; the trigger's answer reports the status each got, or why none (what it threw, or no
   * answer within the binary's 5 s delivery timeout, on the runtime's timers). None: callbacks are only recorded.
   */
  callbackFetch?: (input: string, init: RequestInit) => Promise<Response>;
}

/** The Error of a refused seed: the answer a request would have got. */
export interface SandboxSeedError extends Error {
  status: number;
  code: number;
  body: { code: number; message: string; issues?: unknown[] };
}

/** A request the sandbox answered. */
export interface SandboxRequest {
  method: string;
  path: string;
  /** The operation's id; "-" for no route, "sandbox" for its own endpoints, "preflight" for CORS. */
  operationId: string;
  /** null: the connection was dropped (a fault). */
  status: number | null;
}

/** A CRM notification the sandbox posted through `callbackFetch`, or would have posted. */
export interface SandboxCallback {
  channelId: string;
  notifyUrl: string;
  body: unknown;
}

/** An opaque copy of a sandbox's records. */
export interface SandboxSnapshot {}

/** The stateful sandbox in-process: the same handlers, store, seed data, limits and faults as the binary. */
export declare class Sandbox {
  constructor(options?: SandboxOptions);
  readonly organizationId: string;
  /** "http://sandbox.localhost": the apiDomain of a client whose fetch is `sandbox.fetch`. */
  readonly url: string;
  /** A standard fetch function answered by the sandbox (bound: pass it as is). */
  readonly fetch: (input: Request | string | URL, init?: RequestInit) => Promise<Response>;
  /** Back to a new sandbox's state: seed data, limits, faults, logs. */
  reset(): void;
  snapshot(): SandboxSnapshot;
  restore(snapshot: SandboxSnapshot): void;
  requests(): SandboxRequest[];
  callbacks(): SandboxCallback[];
  /**
   * Seeds records through the rules, handler and id assignment of `operationId`, as a client calls it
   * (path params, then params; a list of params for one call each), in the sandbox's organization and
   * without token, limits or faults. The resource a client would get (a list for a list); throws a
   * `SandboxSeedError` where a request would be refused.
   */
  seed<K extends OperationId>(operationId: K, ...args: [...PathValues<K>, OperationParams[K][]]): Seeded<K>[];
  seed<K extends OperationId>(operationId: K, ...args: [...PathValues<K>, OperationParams[K]?]): Seeded<K>;
}
