// pkg/testing.d.ts: svc-sdk/testing's declarations around the sandbox's options, which the Rust declares
// with their defaults (crates/svc-testing/src/surface.rs, put at `// @generated sandbox`): the Sandbox
// class, its logs and seeds, and notification().
import type { SandboxOptions } from "./generated.js";

// svc-sdk/testing: the sandbox's own Rust handling, in-process, behind a standard fetch.

import type { APIPromise, CallOptions, Client, OperationId, OperationParams } from "./index.js";

/** The path values of an operation: its client method's arguments before its params. */
type PathValues<K extends OperationId> =
  Parameters<Client[K]> extends [...infer P, (OperationParams[K] | undefined)?, (CallOptions | undefined)?] ? P : never;
/** What a client's call of an operation resolves to. */
type Seeded<K extends OperationId> = Client[K] extends (...args: never[]) => APIPromise<infer R> ? R : never;

// @generated sandbox: the sandbox's options, with their defaults (crates/svc-testing/src/surface.rs)
/** The Error of a refused seed: the answer a request would have got. */
export interface SandboxSeedError extends Error {
  status: number;
  code: number;
  body: { code: number; message: string; issues?: unknown[] };
}

/** The newest entries of a log, up to `logLimit`, oldest first. */
export type SandboxLog<T> = T[] & {
  /** How many older entries were let go of to keep to `logLimit` since the start or the last `reset()` (not enumerable). */
  readonly dropped: number;
};

/** A request the sandbox answered. */
export interface SandboxRequest {
  method: string;
  path: string;
  /** The operation's id; "-" for no route, "sandbox" for its own endpoints, "accounts" for the accounts server's endpoints (below /oauth/), "preflight" for CORS. */
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
  /**
   * Back to a new sandbox's state: seed data, limits, faults, logs. The memory of the records, the logs
   * and the held calls is let go of (the wasm reuses it; a wasm memory never shrinks). A call held by a
   * slow fault across it ends as a dropped connection.
   */
  reset(): void;
  snapshot(): SandboxSnapshot;
  restore(snapshot: SandboxSnapshot): void;
  /** The requests answered, the newest up to `logLimit` (the oldest dropped first and counted). */
  requests(): SandboxLog<SandboxRequest>;
  /** The callbacks posted or recorded, the newest up to `logLimit` (the oldest dropped first and counted). */
  callbacks(): SandboxLog<SandboxCallback>;
  /**
   * Seeds records through the rules, handler and id assignment of `operationId`, as a client calls it
   * (path params, then params; a list of params for one call each), in the sandbox's organization and
   * without token, limits or faults. The arguments take the client's path: the same checks of path values
   * (strings), the same writing of params (a BigInt is its exact digits; what JSON cannot hold, such as
   * NaN, is reported) and the same rules, so where a client's call would throw before sending, seed throws
   * the same error: an `Error` named "SvcError" with the same `kind` ("config" or "validation"),
   * `message`, `issues` and `operationId` (svc-sdk/testing's own class, not `instanceof` svc-sdk's
   * `SvcError`). The resource a client would get (a list for a list); throws a `SandboxSeedError` where
   * the sandbox refuses what the client sends (the answer a request would get).
   */
  /**
   * The redirect URL a browser would follow from the sandbox's consent page at `authorizeUrl` (its
   * `/oauth/v2/auth?...`, as `connections.authorizeUrl` builds it), the same decision as the page's form:
   * approved for `user` (an email; default the sandbox's user; an unknown one is made, with a new
   * organization of its own) at `location` (this sandbox's or a peer's; the code is redeemable there), with
   * `code`, `location`, `accounts-server` and `state`; or with `deny`, `error=access_denied` and `state`.
   * Throws an `Error` saying why for an unknown client, a bad parameter or another URL.
   */
  consent(authorizeUrl: string | URL, options?: { user?: string; deny?: boolean; location?: string }): string;
  /**
   * Approves (or with `deny`, declines) the device code of `userCode` (as the device page's form does)
   * for `user` (default the sandbox's user). Throws an `Error` for a code that is not waiting for approval.
   */
  approveDevice(userCode: string, options?: { user?: string; deny?: boolean }): void;
  seed<K extends OperationId>(operationId: K, ...args: [...PathValues<K>, OperationParams[K][]]): Seeded<K>[];
  seed<K extends OperationId>(operationId: K, ...args: [...PathValues<K>, OperationParams[K]?]): Seeded<K>;
}

/** What `notification()` builds: a CRM notification channel's callback. */
export interface NotificationOptions {
  /** The module's API name, as the channel's events name it ("Leads"). */
  module: string;
  operation: "create" | "edit" | "delete";
  /** The ids of the records the operation touched (at least one). */
  ids: (string | number | bigint)[];
  /** The fields changed and their new values, the same for every record; default none. */
  values?: Record<string, unknown>;
  /** The channel's id, as it was given in `updateNotificationChannels`. */
  channelId: string | number | bigint;
  /** The channel's token, echoed in the body; none: the body has no token. */
  token?: string;
  /** The channel's notify_url: its query parameters become `query_params`. */
  notifyUrl?: string;
  /** `server_time`, in ms since the epoch; default now. */
  serverTime?: number;
  /** The API domain of `resource_uri`; default "https://www.svcapis.com" (the "us" region's). */
  apiDomain?: string;
}

/**
 * The JSON text of the callback the service posts to a channel's notify_url, written by the code the
 * sandbox posts its own callbacks with: the body `parseWatchNotification(body, { token })` accepts when
 * `token` is the channel's. Throws an `Error` naming the option that is missing or wrong.
 */
export declare function notification(options: NotificationOptions): string;
