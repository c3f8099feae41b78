// pkg/validate.d.ts (and validate.d.cts, importing ./index.cjs): svc-sdk/validate, validation alone on a
// wasm of its own (its SvcError a class of its own too), declared by the main entry's declarations.

export { ExactNumber, SvcError, operations, requiredScopes, schemaFor, validate } from "./index.js";
export type { Family, Issue, IssueCode, OperationId, OperationInfo, OperationParams, SchemaForOptions, StandardSchemaV1, ValidateOptions, ValidationResult } from "./index.js";
