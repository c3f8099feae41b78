// The SDK's own declarations around the generated Client: its options, errors, pages, the
// functions beside it, and the subpath entries (svc-sdk/validate, svc-sdk/redis, svc-sdk/cloudflare). They name only
// the types that every runtime's types declare (Node's @types/node, the DOM, Deno, Cloudflare's).

/** Before the models and the Client. */
export const options = `export declare const regions: Readonly<Record<Region, string>>;

export type LogLevel = "off" | "error" | "warn" | "info" | "debug";

/** Where the client writes its log lines; \`console\` by default. */
export interface Logger {
  debug(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/** What \`onRequest\` is told before each attempt is sent (never the token). */
export interface RequestHookInfo {
  operationId: string;
  method: string;
  url: string;
  attempt: number;
}

/** What \`onResponse\` is told when an attempt is answered. */
export interface ResponseHookInfo extends RequestHookInfo {
  status: number;
  durationMs: number;
}

export interface ClientOptions {
  /** The OAuth access token, or a function called per request that returns it (or a promise of it;
   *  with a fleet store, called once for the fleet and again after a 401 or \`expiresAt\`, ms since the epoch).
   *  Only a client pointed at a proxy (apiDomain) leaves it out: the proxy adds it. */
  accessToken?: string | (() => AccessToken | Promise<AccessToken>);
  /** Required for every family but crm. */
  organizationId?: string;
  region?: Region;
  /** Overrides region; http:// only for loopback hosts. */
  apiDomain?: string;
  crmVersion?: string;
  plan?: ServicePlan;
  maxRetries?: number;
  /** The wait for each attempt's answer, in ms (default 60000; 0: none); a call past it is retried or fails with kind "timeout". */
  timeoutMs?: number;
  /** The wait for the whole call, in ms, from its start to its result: the limiter's queue, the token function,
   *  every attempt, Retry-After and back-off waits (default 600000, ten minutes; 0: none). At it the call fails with
   *  kind "timeout"; a wait known to pass it (a Retry-After, a full minute) fails at once with kind "rate_limited"
   *  and \`retryAfterMs\`. */
  deadlineMs?: number;
  rateLimit?: false | RateLimitOptions;
  fetch?: typeof fetch;
  /** The largest params a call sends, as JSON (default 10 MiB); larger ones are a validation error. */
  maxRequestBytes?: number;
  /** The largest answer a call reads (default 32 MiB); a larger one is a decode error, not read. */
  maxResponseBytes?: number;
  /** Default "off"; the environment variable SVC_LOG where there is an environment. */
  logLevel?: LogLevel;
  logger?: Logger;
  onRequest?: (info: RequestHookInfo) => void;
  onResponse?: (info: ResponseHookInfo) => void;
}

export type AccessToken = string | { token: string; expiresAt?: number | Date };

export interface RateLimitOptions {
  requestsPerMinute?: number;
  maxConcurrent?: number;
  /** The most calls of this client that wait for the limiter at once (default 1000); one more fails at once with kind "rate_limited". */
  maxQueued?: number;
  /** Share the organization's limits and token with every client using this store (a fleet). */
  store?: FleetStore;
  /** How long a call in flight or a token refresh holds its place unless renewed (default 30000 ms): what a holder that dies keeps. */
  leaseMs?: number;
  /** How long a call waits for a store that does not answer, connecting included, before it fails with a network error, unsent and not tried again (default 10000 ms). */
  storeTimeoutMs?: number;
  /** While the store is unreachable, keep to this share (0 to 1) of the limits in this process instead of failing. */
  fallbackShare?: number;
}

/** Where a fleet keeps its shared state: \`redisStore()\` (svc-sdk/redis), \`durableObjectStore()\` (svc-sdk/cloudflare), or your own. */
export type FleetStore =
  | { step(key: string, request: string): Promise<string> }
  | {
      load(key: string): Promise<{ text: string | null; now: number }>;
      save(key: string, expected: number, version: number, text: string): Promise<boolean>;
    };

export interface CallOptions {
  /** Ends the call with kind "aborted", or "timeout" for \`AbortSignal.timeout()\`. */
  signal?: AbortSignal;
  /** This call's wait for each attempt, over the client's. */
  timeoutMs?: number;
  /** This call's deadline for the whole of it, over the client's \`deadlineMs\`. */
  deadlineMs?: number;
  maxRetries?: number;
  /** Extra request headers; Authorization and the organization headers are refused. */
  headers?: Record<string, string>;
}

/** The answer an operation's data came from. */
export interface ResponseInfo {
  status: number;
  headers: Record<string, string>;
  url: string;
}

/** What every operation returns: a promise of its data, and of the data with the answer it came from. */
export interface APIPromise<T> extends Promise<T> {
  withResponse(): Promise<{ data: T; response: ResponseInfo }>;
}

export interface Issue {
  path: (string | number)[];
  code: IssueCode;
  message: string;
  expected?: string;
  maximum?: number | string;
  minimum?: number | string;
  allowed?: string[];
  format?: string;
}

export declare class SvcError extends Error {
  readonly name: "SvcError";
  readonly kind: ErrorKind;
  readonly status?: number;
  readonly code?: number;
  readonly issues?: Issue[];
  readonly retryAfterMs?: number;
  readonly operationId?: string;
  /** The answer's headers (api errors), the token redacted. */
  readonly headers?: Record<string, string>;
  /** What failed underneath (network errors: the host and the underlying code), the token redacted. */
  readonly cause?: unknown;
}

/** A page of a list operation; \`for await\` goes over every item of every page. */
export interface Page<T> extends AsyncIterable<T> {
  items: T[];
  page_context?: PageContext;
}

/** The answer of an operation whose response carries no resource, and of \`request()\` (its whole envelope). */
export interface Message {
  code: number;
  message: string;
  [key: string]: unknown;
}

/** Query parameters of an operation whose documents name none. */
export type QueryParams = Record<string, string | number | boolean | undefined>;

/** A file for an upload: a Blob or File, or a name with its data. */
export type FileInput = Blob | { name: string; data: Blob | ArrayBuffer | ArrayBufferView | string; type?: string };

export interface PreparedRequest {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  url: string;
  headers: Record<string, string>;
  body: string | FormData | null;
}

export interface OperationInfo {
  id: OperationId;
  family: Family;
  method: PreparedRequest["method"];
  path: string;
  scope: string;
  pathParams: string[];
  /** Where the operation is documented: the spec, or only the vendor's published examples. */
  source: "spec" | "vendor";
}

export type ValidationResult = { ok: true } | { ok: false; issues: Issue[] };

/** Standard Schema v1 (https://standardschema.dev). */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) =>
      | { readonly value: Output; readonly issues?: undefined }
      | { readonly issues: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<PropertyKey> }> };
    readonly types?: { readonly input: Input; readonly output: Output };
  };
}`;

/** Inside the Client, after the operations. */
export const clientTail = `  /** A call that is not in the table; it resolves to the answer's whole envelope. */
  request(
    method: PreparedRequest["method"],
    family: Family,
    path: string,
    init?: { query?: Record<string, string | number | boolean>; body?: unknown },
    options?: CallOptions,
  ): APIPromise<Message>;
  /** What the limiter allows now; null with \`rateLimit: false\`. */
  rateLimitState(): RateLimitState | null;
  free(): void;`;

/** After the Client. */
export const functions = `export declare function operations(): OperationInfo[];
export declare function requiredScopes(operationIds: OperationId[]): string[];
export declare function validate(operationId: OperationId, params: unknown): ValidationResult;
export declare function schemaFor<Op extends OperationId>(operationId: Op): StandardSchemaV1<OperationParams[Op]>;
/**
 * Options of createProxy: those of a Client (with the token it adds), and the operations it forwards.
 * A body is forwarded only with its operation's Content-Type (application/json, or multipart/form-data
 * for an upload; else 415), which makes a browser ask before sending it from another site.
 */
export interface ProxyOptions extends ClientOptions {
  allow: OperationId[];
  /** The largest request body it reads (default 10 MiB); a larger one is answered with 413 and never forwarded. */
  maxBodyBytes?: number;
  /**
   * The origins browsers may call it from, as they send them ("https://app.example.com": lower-case, a port
   * only when not the default), your app's own included: a request whose Origin is another is answered
   * with 403 and never forwarded; one without Origin (no browser sends a write cross-site without it) is
   * forwarded. Not given: Origin is not checked.
   */
  allowedOrigins?: string[];
}
/** An edge handler (workerd, Deno, Node) that forwards the allowed operations with the token and organization added. */
export declare function createProxy(options: ProxyOptions): (request: Request) => Promise<Response>;
/** Options of the receivers: a body above maxBodyBytes (default 1 MiB) is refused before it is read. */
export interface ReceiveOptions {
  maxBodyBytes?: number;
}
/**
 * A callback body posted to a channel's notify_url; kind "verification" when the token does not match
 * (constant-time). The token is required (a missing, null or empty one is a config error); reading a
 * body without verifying it is \`{ skipVerification: true }\`.
 */
export declare function parseWatchNotification(
  body: string | Uint8Array,
  options: ({ token: string; skipVerification?: never } | { skipVerification: true; token?: never }) & ReceiveOptions,
): WatchNotification;
/**
 * A billing event (a webhook body or a GET /events/{id} answer); kind "decode" when it is not one.
 * Register the webhook URL with a token in its query (\`?token=...\`, or the parameter \`param\` names)
 * and pass that token and the URL the request came to (\`request.url\`): kind "verification" when the
 * URL does not hold the token (constant-time). The token is required (a missing, null or empty one is a
 * config error); reading a body without verifying it is \`{ skipVerification: true }\`.
 */
export declare function parseEvent(
  body: string | Uint8Array,
  options:
    | ({ token: string; url: string | URL; param?: string; skipVerification?: never } & ReceiveOptions)
    | ({ skipVerification: true; token?: never; url?: never; param?: never } & ReceiveOptions),
): Event & { event_type: EventType };`;

/** What svc-sdk/validate exports: the main entry's declarations of them, re-exported from `index` (".js" or ".cjs"). */
const VALIDATE = {
  values: ["SvcError", "operations", "requiredScopes", "schemaFor", "validate"],
  types: ["Family", "Issue", "IssueCode", "OperationId", "OperationInfo", "OperationParams", "StandardSchemaV1", "ValidationResult"],
};

/** svc-sdk/validate: validation alone, on a wasm of its own; its SvcError is a class of its own too. */
export const validate = (index) => `export { ${VALIDATE.values.join(", ")} } from "${index}";
export type { ${VALIDATE.types.join(", ")} } from "${index}";
`;

/** svc-sdk/redis, importing the main entry's types through `index` (".js" or ".cjs"). */
export const redis = (index) => `import type { FleetStore } from "${index}";
/** A fleet store on Redis (Node, Deno): needs the \`redis\` package. The shared token is kept in it. */
export declare function redisStore(options: { url: string; client?: never; prefix?: string } | { client: unknown; url?: never; prefix?: string }): FleetStore & { close(): Promise<void> };
`;

/** svc-sdk/cloudflare: shaped like Cloudflare's types, so that neither needs @cloudflare/workers-types. */
export const cloudflare = `import type { FleetStore } from "./index.js";
export type { FleetStore };

/** What SvcLimiter uses of its DurableObjectState: the storage, and its alarm. */
export interface SvcLimiterState {
  readonly storage: {
    get(key: string): Promise<unknown>;
    put(key: string, value: string): Promise<void>;
    setAlarm(scheduledTime: number): Promise<void>;
  };
}

/** A Durable Object namespace binding of SvcLimiter (\`env.SVC_LIMITER\`). */
export interface SvcLimiterNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(input: string, init?: RequestInit): Promise<Response> };
}

/**
 * The Durable Object that holds one organization's limiter and token for a fleet: export it from
 * the worker and bind it (wrangler.toml \`[[durable_objects.bindings]]\` with a migration). Its
 * alarm ends the leases of holders that died.
 */
export declare class SvcLimiter {
  constructor(ctx: SvcLimiterState, env: unknown);
  fetch(request: Request): Promise<Response>;
  alarm(): Promise<void>;
}

/** The FleetStore of \`rateLimit: { store }\` in any worker bound to SvcLimiter; a config SvcError if \`namespace\` is not a namespace. */
export declare function durableObjectStore(namespace: SvcLimiterNamespace): { step(key: string, request: string): Promise<string> };
`;
