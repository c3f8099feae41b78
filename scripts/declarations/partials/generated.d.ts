// Stand-ins for the names the generators declare (the parts that scripts/declarations.mjs puts at the
// partials' `// @generated <part>` lines, and the models it reads from the wasm's declarations), so that
// tsc and an editor check the partials before a build (`scripts/test.mjs` runs
// `tsc -p scripts/declarations/partials`). Loose on purpose: the built declarations, whole, are what
// tests/js/types.test.mjs compiles. Only the partials' preambles name this file, and the build drops
// them; each name here must be one the generators declare, which scripts/declarations.mjs checks.

// The surface's shapes (crates/svc-sdk/src/surface.rs and the types it names).
export interface ClientBaseOptions {
  region?: Region;
  credentialKey?: string;
}
export type ClientOptions = ClientBaseOptions;
export type ProxyOptions = Record<string, unknown>;
export interface CallOptions {
  signal?: AbortSignal;
}
export interface ReceiveOptions {}
export interface ToArrayOptions {
  max?: number;
}
export type IssueCode = string;
export interface Issue {
  code: IssueCode;
  path: (string | number)[];
  message: string;
}
export interface OperationInfo {
  id: OperationId;
  family: Family;
}
export type SvcError = Error;
export declare const SvcError: unknown;

// What the rows declare (crates/xtask/src/client.rs): no rows here, so that `Client[K]` (testing.d.ts) is
// `never` rather than a member the stand-in Client lacks.
export type OperationId = never;
export type OperationParams = Record<OperationId, unknown>;
export type OperationArgs = Record<OperationId, unknown[]>;

// The models (tsify's and the wasm's typescript_custom_sections, read from the wasm's declarations).
export type Region = string;
export type Family = string;
export type RateLimitState = Record<string, unknown>;
export type PageContext = Record<string, unknown>;
export type Organization = Record<string, unknown>;
export type Event = Record<string, unknown>;
export type EventType = string;
export type WatchNotification = Record<string, unknown>;

// The sandbox's options (crates/svc-testing/src/surface.rs).
export type SandboxOptions = Record<string, unknown>;
