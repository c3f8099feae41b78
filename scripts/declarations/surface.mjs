// The SDK's own declarations around the generated Client and the shapes the Rust declares (options and
// their defaults, errors, issues, log records, logger, hook infos, operation infos: `cargo run -p xtask -- declarations`): the JS side's own
// types (tokens, stores, pages, promises), the functions beside it, and the subpath entries
// (svc-sdk/validate, svc-sdk/redis, svc-sdk/cloudflare). They name only the types that every runtime's
// types declare (Node's @types/node, the DOM, Deno, Cloudflare's).

/** Before the models and the Client. */
export const options = `export declare const regions: Readonly<Record<Region, string>>;

/** The accounts server of each region, where \`oauth\` asks for access tokens (Canada's: https://accounts.svccloud.ca). */
export declare const accountsServers: Readonly<Record<Region, string>>;

/**
 * A JSON number that a JS number cannot hold exactly (an integer beyond 2^53, more significant digits
 * than a double keeps, an exponent out of its range), kept as its text: answers hold one where the
 * service sent such a number (\`JsonNumber\`), and the SDK writes one back byte for byte. Give one
 * (or a bigint) in params to send a number that a JS number cannot hold. \`-0\` is sent as \`-0\`.
 */
export declare class ExactNumber {
  /** A config SvcError unless \`value\` is the text of a JSON number, a bigint or a finite number. */
  constructor(value: string | bigint | number);
  /** The number's JSON text, every digit as it was written. */
  readonly text: string;
  /** The text. */
  toString(): string;
  /** The text (as a JSON string; the SDK itself writes the number). \`Number(x)\` gives the nearest JS number, rounded. */
  toJSON(): string;
}

export type AccessToken = string | { token: string; expiresAt?: number | Date };

/** Why the SDK asks the token function for a token: none yet, the last one near its \`expiresAt\`, or the service refused it (return a new one, not the cached one). */
export interface TokenContext {
  reason: "initial" | "expired" | "rejected";
}

/** Where a fleet keeps its shared state: \`redisStore()\` (svc-sdk/redis), \`durableObjectStore()\` (svc-sdk/cloudflare), or your own. */
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

/** A page of a list operation; \`for await\` goes over every item of this page and of every page after it. */
export interface Page<T> extends AsyncIterable<T> {
  items: T[];
  page_context?: PageContext;
  /** Whether a page follows this one (the SDK decides it from \`page_context\` and the items' count). */
  hasNextPage(): boolean;
  /** The page after this one; a \`config\` SvcError when there is none (ask \`hasNextPage()\` first). */
  getNextPage(): Promise<Page<T>>;
  /**
   * Every item of this page and of every page after it, in one array, fetching the pages one after the
   * other. At most \`options.max\` items (see \`ToArrayOptions\`): a list with more rejects with a \`config\`
   * SvcError rather than being cut short or growing without bound (\`for await\` holds one page at a time).
   */
  toArray(options?: ToArrayOptions): Promise<T[]>;
}

/** What a list operation returns: the promise of its first page, itself iterable: \`for await (const x of client.listAccounts())\`. */
export interface PagePromise<T> extends APIPromise<Page<T>>, AsyncIterable<T> {
  /** Every item of every page in one array: \`await client.listAccounts().toArray({ max: 10_000 })\` (see {@link Page.toArray}). */
  toArray(options?: ToArrayOptions): Promise<T[]>;
}

/** The answer of an operation whose response carries no resource, and of \`request()\` (its whole envelope). */
export interface Message {
  code: number;
  message: string;
  [key: string]: unknown;
}

/** The params of an operation whose documents name none: an object without keys (\`{}\`), or nothing. */
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

/** Options of \`validate\`. */
export interface ValidateOptions {
  /**
   * A blank string (nothing but spaces) or \`NaN\` anywhere in an object of the params counts as not
   * given: an optional field holding one passes, and a required one is \`required\` (never
   * \`invalid_value\` or \`invalid_type\`). Default false for \`validate\`, true for \`schemaFor\`.
   */
  blankAsMissing?: boolean;
  /**
   * Labels that the messages use instead of the fields' wire names, by wire name:
   * \`{ fixed_asset_type_id: "Asset type" }\` makes "Asset type is required".
   */
  labels?: Record<string, string>;
}

/** Options of \`schemaFor\`: blank form values are not given unless \`blankAsMissing: false\`. */
export interface SchemaForOptions extends ValidateOptions {
  /** The words shown for an issue, in place of its message (the labels are applied before it is called). */
  message?: (issue: Issue) => string;
}

/** Standard Schema v1 (https://standardschema.dev), whose issues are \`Failure\` (the SDK's \`Issue\` for \`schemaFor\`). */
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
export declare function validate(operationId: OperationId, params: unknown, options?: ValidateOptions): ValidationResult;
/** A Standard Schema of an operation's params for a form library; its issues are \`Issue\`s, worded as \`options\` ask. */
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
  /** "reauthorize": the grant was revoked; its calls fail \`unauthorized\` with \`reauthorize: true\` until the user consents again. */
  status: "active" | "reauthorize";
  /** When the grant was made, in ms since the epoch. */
  connectedAt: number;
}
/** createConnections' options: a server-based client of the accounts server, and its clients' defaults. */
export interface ConnectionsOptions extends Omit<ClientBaseOptions, "region" | "credentialKey"> {
  clientId: string;
  /** Never stored, never shown: not in an error, a log record, a hook or \`inspect\`. */
  clientSecret: string;
  /** Where the accounts server sends the user back, as registered with the client. */
  redirectUri: string;
  /** The operations the connections are for: their scopes are asked for. */
  operations?: OperationId[];
  /** The scopes asked for, when not from \`operations\`. */
  scopes?: string[];
  store: ConnectionStore;
  /** 32 bytes in base64 (\`openssl rand -base64 32\`): refresh tokens are sealed with it (AES-256-GCM); only memoryConnectionStore() may go without. */
  encryptionKey?: string;
  /** Where authorization starts (default "us"); the user's own data center is followed from the redirect. */
  region?: Region;
  /** Accounts servers in place of the table's (the sandbox, tests): only these, and the table's, are ever sent a code or the secret. */
  accountsServers?: Partial<Record<Region, string>>;
  /** Called once when a connection's grant was revoked: ask its user to authorize again. */
  onReauthorize?: (connectionId: string) => void;
}
/** The device flow's first answer: show the code and URL to the user; \`done\` settles when they approved (or declined, or it expired). */
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
  values: ["ExactNumber", "SvcError", "operations", "requiredScopes", "schemaFor", "validate"],
  types: ["Family", "Issue", "IssueCode", "OperationId", "OperationInfo", "OperationParams", "SchemaForOptions", "StandardSchemaV1", "ValidateOptions", "ValidationResult"],
};

/** svc-sdk/validate: validation alone, on a wasm of its own; its SvcError is a class of its own too. */
/**
 * What Node's entries add (node.d.ts, the types of package.json's \`node\` condition): toNodeHandler and
 * the shapes it reads and writes, after everything of index.d.ts (\`index\`: its path for the module system).
 */
export const node = (index) => `export * from "${index}";
/** What toNodeHandler reads of a request of node:http, Express, Connect or Vite's dev server (Node's IncomingMessage), by its shape. */
export interface NodeRequestLike {
  method?: string;
  url?: string;
  headers: object;
  rawHeaders: string[];
}
/** What toNodeHandler writes to (Node's ServerResponse), by its shape. */
export interface NodeResponseLike {
  writeHead(statusCode: number, ...rest: unknown[]): unknown;
  end(...args: unknown[]): unknown;
}
/** A Fastify route handler's request, by its shape: its \`raw\` request, and its body (a stream, from a passthrough content-type parser). */
export interface FastifyRequestLike {
  raw: NodeRequestLike;
  body?: unknown;
}
/** A Fastify route handler's reply, by its shape. */
export interface FastifyReplyLike {
  raw: NodeResponseLike;
  hijack(): unknown;
}
/**
 * Node only (the entries of the other runtimes do not export it): a Fetch handler (\`createProxy\`'s, or a
 * receiver of your own) as a \`(req, res, next?)\` middleware of node:http, Express, Connect and Vite's dev
 * server, or a Fastify route handler. Both bodies are streamed (the answer as fast as the client reads
 * it); the URL is whole again where the framework cut the mount path off (\`req.originalUrl\`); a client
 * that leaves aborts \`request.signal\`. A handler that throws goes to \`next\`, or is a 500 whose body is
 * not the error's. Under Fastify, the body must reach it unparsed (a passthrough content-type parser).
 */
export declare function toNodeHandler(
  handler: (request: Request) => Promise<Response>,
): (req: NodeRequestLike | FastifyRequestLike, res: NodeResponseLike | FastifyReplyLike, next?: (error?: unknown) => void) => void;
`;

export const validate = (index) => `export { ${VALIDATE.values.join(", ")} } from "${index}";
export type { ${VALIDATE.types.join(", ")} } from "${index}";
`;

/** svc-sdk/redis, importing the main entry's types through `index` (".js" or ".cjs"). */
export const redis = (index) => `import type { ConnectionStore, FleetStore } from "${index}";
/** A ConnectionStore on Redis (Node, Deno): the options of redisStore; an authorization's state expires with it. */
export declare function redisConnectionStore(options: { url: string; client?: never; prefix?: string } | { client: unknown; url?: never; prefix?: string }): ConnectionStore & { close(): Promise<void> };
/** A fleet store on Redis (Node, Deno): needs the \`redis\` package. The shared token is kept in it. */
export declare function redisStore(options: { url: string; client?: never; prefix?: string } | { client: unknown; url?: never; prefix?: string }): FleetStore & {
  /**
   * Ends the connection the store opened (a \`client\` you gave stays open): QUIT, or a connection not
   * ready dropped. Settles within the default \`storeTimeoutMs\` (\`RateLimitOptions\`), whatever Redis does: a Redis
   * that does not reply in that time is let go, its connection no longer keeping the process running.
   */
  close(): Promise<void>;
};
`;

/** svc-sdk/cloudflare: shaped like Cloudflare's types, so that neither needs @cloudflare/workers-types. */
export const cloudflare = `import type { ConnectionStore, FleetStore } from "./index.js";
export type { ConnectionStore, FleetStore };

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
  /**
   * Types only, no such property exists: the brand by which Cloudflare's types know a Durable Object
   * class (\`Rpc.DurableObjectBranded\` of @cloudflare/workers-types), so that the
   * \`DurableObjectNamespace<SvcLimiter>\` that \`wrangler types\` writes for the binding compiles.
   */
  readonly __DURABLE_OBJECT_BRAND: never;
}

/** The FleetStore of \`rateLimit: { store }\` in any worker bound to SvcLimiter; a config SvcError if \`namespace\` is not a namespace. */
export declare function durableObjectStore(namespace: SvcLimiterNamespace): { step(key: string, request: string): Promise<string> };
/** A ConnectionStore in Durable Object storage (each key in the SvcLimiter object named after it), for createConnections in a worker. */
export declare function durableObjectConnectionStore(namespace: SvcLimiterNamespace): ConnectionStore;
`;
