// The hand-written part of the package's main declarations, pkg/index.d.ts (and index.d.cts): the JS side's
// own types (tokens, stores, pages, promises), the Client's members beside the rows' methods, and the functions
// beside the Client. scripts/declarations.mjs drops this preamble (up to the first blank line) and puts each
// generated part where its `// @generated <part>` line is. The names below come from those parts; here they
// come from generated.d.ts, their stand-ins, so that tsc and an editor check this file before a build.
import type { CallOptions, ClientBaseOptions, ClientOptions, Event, EventType, Family, Issue, OperationArgs, OperationId, OperationInfo, OperationParams, Organization, PageContext, ProxyOptions, RateLimitState, ReceiveOptions, Region, ToArrayOptions, WatchNotification } from "./generated.js";
export * from "./generated.js";

// @generated surface: the shapes the Rust owns, options, errors, issues, log records, hook and operation infos (crates/svc-sdk/src/surface.rs)

export declare const regions: Readonly<Record<Region, string>>;

/** The accounts server of each region, where `oauth` asks for access tokens (Canada's: https://accounts.svccloud.ca). */
export declare const accountsServers: Readonly<Record<Region, string>>;

/**
 * A JSON number that a JS number cannot hold exactly (an integer beyond 2^53, more significant digits
 * than a double keeps, an exponent out of its range), kept as its text: answers hold one where the
 * service sent such a number (`JsonNumber`), and the SDK writes one back byte for byte. Give one
 * (or a bigint) in params to send a number that a JS number cannot hold. `-0` is sent as `-0`.
 */
export declare class ExactNumber {
  /** A config SvcError unless `value` is the text of a JSON number, a bigint or a finite number. */
  constructor(value: string | bigint | number);
  /** The number's JSON text, every digit as it was written. */
  readonly text: string;
  /** The text. */
  toString(): string;
  /** The text (as a JSON string; the SDK itself writes the number). `Number(x)` gives the nearest JS number, rounded. */
  toJSON(): string;
}

export type AccessToken = string | { token: string; expiresAt?: number | Date };

/** Why the SDK asks the token function for a token: none yet, the last one near its `expiresAt`, or the service refused it (return a new one, not the cached one). */
export interface TokenContext {
  reason: "initial" | "expired" | "rejected";
}

/** Where a fleet keeps its shared state: `redisStore()` (svc-sdk/redis), `durableObjectStore()` (svc-sdk/cloudflare), or your own. */
export type FleetStore =
  | { step(key: string, request: string): Promise<string> }
  | {
      load(key: string): Promise<{ text: string | null; now: number }>;
      save(key: string, expected: number, version: number, text: string): Promise<boolean>;
    };

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

/** A page of a list operation; `for await` goes over every item of this page and of every page after it. */
export interface Page<T> extends AsyncIterable<T> {
  items: T[];
  page_context?: PageContext;
  /** Whether a page follows this one (the SDK decides it from `page_context` and the items' count). */
  hasNextPage(): boolean;
  /** The page after this one; a `config` SvcError when there is none (ask `hasNextPage()` first). */
  getNextPage(): Promise<Page<T>>;
  /**
   * Every item of this page and of every page after it, in one array, fetching the pages one after the
   * other. At most `options.max` items (see `ToArrayOptions`): a list with more rejects with a `config`
   * SvcError rather than being cut short or growing without bound (`for await` holds one page at a time).
   */
  toArray(options?: ToArrayOptions): Promise<T[]>;
}

/** What a list operation returns: the promise of its first page, itself iterable: `for await (const x of client.listAccounts())`. */
export interface PagePromise<T> extends APIPromise<Page<T>>, AsyncIterable<T> {
  /** Every item of every page in one array: `await client.listAccounts().toArray({ max: 10_000 })` (see {@link Page.toArray}). */
  toArray(options?: ToArrayOptions): Promise<T[]>;
}

/** The answer of an operation whose response carries no resource, and of `request()` (its whole envelope). */
export interface Message {
  code: number;
  message: string;
  [key: string]: unknown;
}

/** The params of an operation whose documents name none: an object without keys (`{}`), or nothing. */
export type NoParams = Record<string, never>;

/** A file for an upload: a File, or a name with its data (a bare Blob has no name to send). */
export type FileInput = File | { name: string; data: Blob | ArrayBuffer | ArrayBufferView | string; type?: string };

export interface PreparedRequest {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  url: string;
  headers: Record<string, string>;
  body: string | FormData | null;
}

export type ValidationResult = { ok: true } | { ok: false; issues: Issue[] };

/** Options of `validate`. */
export interface ValidateOptions {
  /**
   * A blank string (nothing but spaces) or `NaN` anywhere in an object of the params counts as not
   * given: an optional field holding one passes, and a required one is `required` (never
   * `invalid_value` or `invalid_type`). Default false for `validate`, true for `schemaFor`.
   */
  blankAsMissing?: boolean;
  /**
   * Labels that the messages use instead of the fields' wire names, by wire name:
   * `{ fixed_asset_type_id: "Asset type" }` makes "Asset type is required".
   */
  labels?: Record<string, string>;
}

/** Options of `schemaFor`: blank form values are not given unless `blankAsMissing: false`. */
export interface SchemaForOptions extends ValidateOptions {
  /** The words shown for an issue, in place of its message (the labels are applied before it is called). */
  message?: (issue: Issue) => string;
}

/** Standard Schema v1 (https://standardschema.dev), whose issues are `Failure` (the SDK's `Issue` for `schemaFor`). */
export interface StandardSchemaV1<
  Input = unknown,
  Output = Input,
  Failure extends { readonly message: string; readonly path?: ReadonlyArray<PropertyKey> } = { readonly message: string; readonly path?: ReadonlyArray<PropertyKey> },
> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) =>
      | { readonly value: Output; readonly issues?: undefined }
      | { readonly issues: ReadonlyArray<Failure> };
    readonly types?: { readonly input: Input; readonly output: Output };
  };
}

// @generated operations: OperationId, OperationParams and OperationArgs, from the rows (crates/xtask/src/client.rs)

export declare class Client {
  constructor(options: ClientOptions);
  // @generated client: a namespace per family, then a method per row (crates/xtask/src/client.rs)
  /** The request an operation would send, validated; nothing is sent. The Authorization header is left out. */
  prepare<Op extends OperationId>(operationId: Op, ...args: OperationArgs[Op]): Promise<PreparedRequest>;
  /** A call that is not in the table; it resolves to the answer's whole envelope. */
  request(
    method: PreparedRequest["method"],
    family: Family,
    path: string,
    init?: { query?: Record<string, string | number | boolean>; body?: unknown },
    options?: CallOptions,
  ): APIPromise<Message>;
  /** What the limiter allows now; null with `rateLimit: false`. */
  rateLimitState(): RateLimitState | null;
  free(): void;
}

// @generated families: the interface of each family's namespace (crates/xtask/src/client.rs)

export declare function operations(): OperationInfo[];
export declare function requiredScopes(operationIds: OperationId[]): string[];
export declare function validate(operationId: OperationId, params: unknown, options?: ValidateOptions): ValidationResult;
/** A Standard Schema of an operation's params for a form library; its issues are `Issue`s, worded as `options` ask. */
export declare function schemaFor<Op extends OperationId>(operationId: Op, options?: SchemaForOptions): StandardSchemaV1<OperationParams[Op], OperationParams[Op], Issue>;
/** An edge handler (workerd, Deno, Node) that forwards the allowed operations with the token and organization added. */
export declare function createProxy(options: ProxyOptions): (request: Request) => Promise<Response>;
/** The durable home of every connection: three functions over text (a database table will do). */
export interface ConnectionStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}
/** A connection: one customer's consent, data center and grant (its refresh token stays sealed in the store). */
export interface Connection {
  connectionId: string;
  region: Region;
  accountsUrl: string;
  apiDomain: string | null;
  scopes: string[];
  /** "reauthorize": the grant was revoked; its calls fail `unauthorized` with `reauthorize: true` until the user consents again. */
  status: "active" | "reauthorize";
  /** When the grant was made, in ms since the epoch. */
  connectedAt: number;
}
/** createConnections' options: a server-based client of the accounts server, and its clients' defaults. */
export interface ConnectionsOptions extends Omit<ClientBaseOptions, "region" | "credentialKey"> {
  clientId: string;
  /** Never stored, never shown: not in an error, a log record, a hook or `inspect`. */
  clientSecret: string;
  /** Where the accounts server sends the user back, as registered with the client. */
  redirectUri: string;
  /** The operations the connections are for: their scopes are asked for. */
  operations?: OperationId[];
  /** The scopes asked for, when not from `operations`. */
  scopes?: string[];
  store: ConnectionStore;
  /** 32 bytes in base64 (`openssl rand -base64 32`): refresh tokens are sealed with it (AES-256-GCM); only memoryConnectionStore() may go without. */
  encryptionKey?: string;
  /** Where authorization starts (default "us"); the user's own data center is followed from the redirect. */
  region?: Region;
  /** Accounts servers in place of the table's (the sandbox, tests): only these, and the table's, are ever sent a code or the secret. */
  accountsServers?: Partial<Record<Region, string>>;
  /** Called once when a connection's grant was revoked: ask its user to authorize again. */
  onReauthorize?: (connectionId: string) => void;
}
/** The device flow's first answer: show the code and URL to the user; `done` settles when they approved (or declined, or it expired). */
export interface DeviceLogin {
  userCode: string;
  verificationUrl: string;
  expiresAt: number;
  done: Promise<Connection>;
}
/** One app's connections to its customers' organizations. Server runtimes only (a config SvcError in a page). */
export interface Connections {
  /** Where to send the user: the consent URL, with a state valid 10 minutes, accepted once. */
  authorizeUrl(connectionId: string, options?: { operations?: OperationId[]; scopes?: string[] }): Promise<string>;
  /** The redirect back (a Request, a URL or its text): the code exchanged at the user's data center, the connection kept. */
  handleRedirect(request: Request | URL | string): Promise<Connection>;
  /** A Client acting for the connection (its token is never sent with another connection's call). */
  client(connectionId: string, options?: Omit<ClientBaseOptions, "credentialKey">): Client;
  get(connectionId: string): Promise<Connection | null>;
  /** The organizations the connection's user can reach. */
  organizations(connectionId: string): Promise<Organization[]>;
  /** Revoked at its accounts server, then forgotten. */
  revoke(connectionId: string): Promise<void>;
  /** The device flow, for tools without a browser. */
  deviceLogin(connectionId: string, options?: { operations?: OperationId[]; scopes?: string[] }): Promise<DeviceLogin>;
}
/** Connections for an app that serves many organizations: consent, redirect, sealed refresh tokens, a Client per connection. */
export declare function createConnections(options: ConnectionsOptions): Connections;
/** A ConnectionStore in this process's memory (tests, one process), sealing with a key of its own. */
export declare function memoryConnectionStore(): ConnectionStore;
/**
 * A callback body posted to a channel's notify_url; kind "verification" when the token does not match
 * (constant-time). The token is required (a missing, null or empty one is a config error); reading a
 * body without verifying it is `{ skipVerification: true }`.
 */
export declare function parseWatchNotification(
  body: string | Uint8Array,
  options: ({ token: string; skipVerification?: never } | { skipVerification: true; token?: never }) & ReceiveOptions,
): WatchNotification;
/**
 * A billing event (a webhook body or a GET /events/{id} answer); kind "decode" when it is not one.
 * Register the webhook URL with a token in its query (`?token=...`, or the parameter `param` names)
 * and pass that token and the URL the request came to (`request.url`): kind "verification" when the
 * URL does not hold the token (constant-time). The token is required (a missing, null or empty one is a
 * config error); reading a body without verifying it is `{ skipVerification: true }`.
 */
export declare function parseEvent(
  body: string | Uint8Array,
  options:
    | ({ token: string; url: string | URL; param?: string; skipVerification?: never } & ReceiveOptions)
    | ({ skipVerification: true; token?: never; url?: never; param?: never } & ReceiveOptions),
): Event & { event_type: EventType };

// @generated models: the wire types, tsify's from the wasm's svc_sdk.d.ts (scripts/declarations/models.mjs), a request type's with its rules (crates/svc-core/src/jsdoc.rs)

// @generated published: the generated rows' params and results (scripts/declarations/published.d.ts)
