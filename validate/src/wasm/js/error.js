// The SvcError class of every entry (the core makes each one from its own error). The platform makes
// this JS: an error a JS caller catches, with its stack and instanceof, is an instance of a JS class.
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
