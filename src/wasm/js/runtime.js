// The JS half of the wasm bindings: the SvcError class, user input as JSON, an upload's form data,
// redaction of the token. The send loop is in send.js, the rule engine in rules.js.

const KINDS = new Set([
  "validation", "api", "rate_limited", "unauthorized", "network",
  "timeout", "aborted", "decode", "config", "verification",
]);

export class SvcError extends Error {
  constructor(kind, message, extra = {}) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = "SvcError";
    this.kind = KINDS.has(kind) ? kind : "api";
    for (const key of ["status", "code", "issues", "retryAfterMs", "operationId"]) {
      if (extra[key] !== undefined) this[key] = extra[key];
    }
  }
}

/** Text with every occurrence of `secret` replaced by `[redacted]`. */
export function redact(text, secret) {
  return typeof text === "string" && secret && text.includes(secret) ? text.split(secret).join("[redacted]") : text;
}

/** Takes `secret` out of an error's message, stack and cause, whoever wrote them. */
export function scrub(error, secret, depth = 0) {
  if (!secret || error === null || typeof error !== "object" || depth > 8) return error;
  for (const key of ["message", "stack"]) {
    try {
      const text = error[key];
      if (typeof text === "string" && text.includes(secret)) {
        Object.defineProperty(error, key, { value: redact(text, secret), writable: true, configurable: true, enumerable: false });
      }
    } catch {
      // A frozen error keeps what it has; it never came from the token's holder.
    }
  }
  let cause;
  try {
    cause = error.cause;
  } catch {
    return error;
  }
  if (cause !== undefined) scrub(cause, secret, depth + 1);
  return error;
}

/** An SvcError from the JSON text the Rust side writes. */
export function makeError(json) {
  const e = JSON.parse(json);
  return new SvcError(e.kind, e.message, e);
}

/** The key of the marker that stands where a value cannot be JSON; validation reports it at its path. */
export const UNREPRESENTABLE = "$svc_unrepresentable";

/** How deep params may nest (the Rust side reads JSON up to 128 levels). */
const MAX_DEPTH = 100;

export const wellFormed = typeof String.prototype.isWellFormed === "function"
  ? (s) => s.isWellFormed()
  : (s) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?:[^\ud800-\udbff]|^)[\udc00-\udfff]/.test(s);

function describe(v) {
  if (typeof v === "number") return String(v);
  if (typeof v === "function") return "a function";
  if (typeof v === "symbol") return "a symbol";
  if (typeof v === "undefined") return "undefined";
  return typeof v;
}

/** JSON text of user params: the text of `jsonValue`; throws an Error saying why it cannot be written. */
export function toWire(value) {
  try {
    return JSON.stringify(jsonValue(value) ?? null);
  } catch (e) {
    if (e instanceof Unreadable) throw e;
    throw new Unreadable(`params could not be read: ${e && e.message}`);
  }
}

/**
 * User params as the JSON value they are sent as: the value itself when JSON holds it as it is,
 * else a copy in which values JSON cannot hold (NaN, Infinity, functions, symbols, undefined inside
 * arrays, text with a lone surrogate) are markers that validation reports at their path, BigInts
 * are their exact digits and `toJSON` has been applied. Cycles, throwing getters and nesting deeper
 * than MAX_DEPTH are an Unreadable error (the wasm makes it an issue).
 */
export function jsonValue(value) {
  let asItIs = false;
  try {
    asItIs = plain(value, 0);
  } catch {
    // A getter or a proxy that throws: the walk below reports it.
  }
  if (asItIs) return value;
  const seen = new Set();
  function walk(v, inArray, depth) {
    switch (typeof v) {
      case "string":
        return wellFormed(v) ? v : { [UNREPRESENTABLE]: "text with a lone surrogate (not Unicode)" };
      case "boolean":
        return v;
      case "number":
        return Number.isFinite(v) ? v : { [UNREPRESENTABLE]: describe(v) };
      case "bigint":
        return v.toString();
      case "undefined":
        return inArray ? { [UNREPRESENTABLE]: "undefined" } : undefined;
      case "function":
      case "symbol":
        return { [UNREPRESENTABLE]: describe(v) };
      case "object": {
        if (v === null) return null;
        if (seen.has(v)) throw new Unreadable("params contain a circular reference");
        if (depth >= MAX_DEPTH) throw new Unreadable(`params have more than ${MAX_DEPTH} levels of nesting`);
        if (typeof v.toJSON === "function") return walk(v.toJSON(), inArray, depth);
        if (typeof Blob !== "undefined" && v instanceof Blob) return { [UNREPRESENTABLE]: "a Blob" };
        if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return { [UNREPRESENTABLE]: "binary data" };
        if (v instanceof Map || v instanceof Set) return { [UNREPRESENTABLE]: `a ${v.constructor.name}` };
        seen.add(v);
        let out;
        if (Array.isArray(v)) {
          out = v.map((item) => walk(item, true, depth + 1));
        } else {
          out = {};
          for (const key of Object.keys(v)) {
            const item = walk(v[key], false, depth + 1);
            if (item !== undefined) out[key] = item;
          }
        }
        seen.delete(v);
        return out;
      }
      default:
        return { [UNREPRESENTABLE]: describe(v) };
    }
  }
  try {
    return walk(value, false, 0);
  } catch (e) {
    if (e instanceof Unreadable) throw e;
    throw new Unreadable(`params could not be read: ${e && e.message}`);
  }
}

class Unreadable extends Error {}

/** Whether JSON.stringify writes a value exactly as it is: then no copy is needed. */
function plain(v, depth) {
  switch (typeof v) {
    case "string":
      return wellFormed(v);
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(v);
    case "undefined":
      return depth === 0;
    case "object": {
      if (v === null) return true;
      if (depth > 64) return false;
      const proto = Object.getPrototypeOf(v);
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (v[i] === undefined || !plain(v[i], depth + 1)) return false;
        return true;
      }
      if (proto !== Object.prototype && proto !== null) return false;
      if (typeof v.toJSON === "function") return false;
      for (const key in v) {
        const item = v[key];
        if (item !== undefined && !plain(item, depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/** Whether a value is a plain params object (or absent); one whose reading throws is, and toWire says why. */
export function isParams(v) {
  try {
    return v === undefined || v === null || (typeof v === "object" && !Array.isArray(v) && !(typeof Blob !== "undefined" && v instanceof Blob));
  } catch {
    return true;
  }
}

/** A shallow copy of an object without one key. */
export function without(params, key) {
  try {
    const out = {};
    for (const k of Object.keys(params)) if (k !== key) out[k] = params[k];
    return out;
  } catch {
    return params;
  }
}

/** `{ name, blob }` of an upload's file: a Blob, a File, or `{ name, data }` with data a Blob, buffer or text; else null. */
export function fileOf(f) {
  try {
    return blobOf(f);
  } catch {
    return null;
  }
}

function blobOf(f) {
  if (typeof Blob !== "undefined" && f instanceof Blob) return { name: f.name, blob: f };
  if (!f || typeof f !== "object" || !("data" in f)) return null;
  const d = f.data;
  if (typeof Blob !== "undefined" && d instanceof Blob) return { name: f.name, blob: d };
  if (typeof d === "string" || d instanceof ArrayBuffer || ArrayBuffer.isView(d)) return { name: f.name, blob: new Blob([d], f.type ? { type: f.type } : {}) };
  return null;
}

/** A FormData with every file under `field`. */
export function formData(field, files) {
  const form = new FormData();
  for (const f of files) form.append(field, f.blob, f.name);
  return form;
}
