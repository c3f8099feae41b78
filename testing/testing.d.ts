// svc-sdk/testing: the sandbox's own Rust handling, in-process, behind a standard fetch.

import type { APIPromise, CallOptions, Client, OperationId, OperationParams } from "./index.js";

/** The path values of an operation: its client method's arguments before its params. */
type PathValues<K extends OperationId> =
  Parameters<Client[K]> extends [...infer P, (OperationParams[K] | undefined)?, (CallOptions | undefined)?] ? P : never;
/** What a client's call of an operation resolves to. */
type Seeded<K extends OperationId> = Client[K] extends (...args: never[]) => APIPromise<infer R> ? R : never;

/**
 * The options of an in-process sandbox; they mirror the sandbox binary's flags. Each value is honoured
 * or refused by the constructor with what is wrong: a number must be whole and within its flag's range
 * (NaN, Infinity, a negative or a fraction is refused), and one beyond 2^53 - 1 is refused as a JS number
 * cannot hold its digits (give it as a string).
 */
export interface SandboxOptions {
  /** The accounts server: its clients, lifetimes and limits (the `--oauth-*` flags). */
  accounts?: SandboxAccounts;
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
  /** The seed of the faults' draws (`--seed`), for repeatable runs: 0 to 2^64 - 1 (a string or BigInt beyond 2^53 - 1). */
  seed?: number | string | bigint;
  /**
   * How long a slow fault holds its call, in flight and not yet applied, in ms on the runtime's timers
   * (`--slow-ms`); the request's signal cuts the wait short (the call is applied all the same); default 1500.
   * 0: no wait (the call is answered at once); at most 2147483647, the longest wait a JS timer keeps.
   */
  slowMs?: number;
  /**
   * How many entries `requests()` and `callbacks()` keep, from 0 to 100000; default 1000. The oldest go
   * first and are counted in their `dropped`; a logged method or path is cut to 512 bytes. The binary has
   * no such flag: it keeps no log, it writes each request to stderr.
   */
  logLimit?: number;
  /**
   * A fetch that the CRM notification callbacks are posted through, with the body and headers the binary
   * posts and a signal; the trigger's answer reports the status each got, or why none (what it threw, or no
   * answer within the binary's 5 s delivery timeout, on the runtime's timers). None: callbacks are only recorded.
   */
  callbackFetch?: (input: string, init: RequestInit) => Promise<Response>;
}

/** A client registered with the sandbox's accounts server, and its refresh tokens. */
export interface SandboxOAuthClient {
  clientId: string;
  clientSecret: string;
  refreshTokens: string[] | string;
}

/**
 * The sandbox's accounts server (`POST {sandbox.url}/oauth/v2/token`, the refresh-token grant; the
 * binary's `--oauth-*` flags). Its counters: `GET /__sandbox/accounts`.
 */
export interface SandboxAccounts {
  /** Clients registered besides the demo client (`--oauth-client`). */
  clients?: SandboxOAuthClient[];
  /** false: the demo client is not registered (`--oauth-no-demo-client`). */
  demoClient?: boolean;
  /** How long an access token lives, in ms (`--oauth-token-lifetime-ms`); default 3600000. */
  tokenLifetimeMs?: number;
  /** Access tokens per refresh token in a window (`--oauth-refresh-limit`); default 10. */
  refreshLimit?: number;
  /** The refresh window in ms (`--oauth-refresh-window-ms`); default 600000. */
  refreshWindowMs?: number;
  /** Live access tokens per refresh token; minting one more revokes the oldest (`--oauth-live-token-cap`); default 10. */
  liveTokenCap?: number;
  /** true: `expires_in` in ms beside `expires_in_sec`, as older answers gave it (`--oauth-legacy-expires-in`). */
  legacyExpiresIn?: boolean;
  /** true: every error echoes the received secrets in several spellings, for tests that they never leak (`--oauth-echo-secrets`). */
  echoSecrets?: boolean;
}

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
  /** The operation's id; "-" for no route, "sandbox" for its own endpoints, "accounts" for the accounts server's token endpoint, "preflight" for CORS. */
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
