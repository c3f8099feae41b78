// The SvcError class of every entry, and an SvcError from the JSON text the core writes.
import { __errorShape } from "../../../../../svc_sdk.js";

/** The kinds and members of the core's errors (`Error::shape`), read once. */
let shape;

export class SvcError extends Error {
  constructor(kind, message, extra = {}) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    shape ??= __errorShape();
    this.name = "SvcError";
    this.kind = shape.kinds.includes(kind) ? kind : "api";
    for (const key of shape.fields) {
      if (extra[key] !== undefined) this[key] = extra[key];
    }
    // The lists a kind always has (a validation error's issues), empty when not given.
    for (const key of shape.lists[this.kind] ?? []) this[key] ??= [];
  }
}

/** An SvcError from the JSON text the Rust side writes. */
export function makeError(json) {
  const e = JSON.parse(json);
  return new SvcError(e.kind, e.message, e);
}
