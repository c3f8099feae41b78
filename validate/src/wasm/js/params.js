// User params as the JSON text the core reads: values JSON cannot hold marked where they are.

/** The key of the marker that stands where a value cannot be JSON; validation reports it at its path. */
const UNREPRESENTABLE = "$svc_unrepresentable";

const wellFormed = typeof String.prototype.isWellFormed === "function"
  ? (s) => s.isWellFormed()
  : (s) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?:[^\ud800-\udbff]|^)[\udc00-\udfff]/.test(s);

const marker = (what) => ({ [UNREPRESENTABLE]: what });

/**
 * JSON.stringify's replacer for user params: values JSON cannot hold (NaN, Infinity, functions,
 * symbols, undefined in an array, text with a lone surrogate, binary data) become markers that the
 * rules report at their path; a BigInt is its exact digits.
 */
function mark(key, v) {
  switch (typeof v) {
    case "string":
      return wellFormed(v) ? v : marker("text with a lone surrogate (not Unicode)");
    case "number":
      return Number.isFinite(v) ? v : marker(String(v));
    case "bigint":
      return v.toString();
    case "undefined":
      return Array.isArray(this) ? marker("undefined") : undefined;
    case "function":
    case "symbol":
      return marker(`a ${typeof v}`);
    case "object":
      if (v === null) return v;
      if (typeof Blob !== "undefined" && v instanceof Blob) return marker("a Blob");
      if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return marker("binary data");
      if (v instanceof Map || v instanceof Set) return marker(`a ${v.constructor.name}`);
  }
  return v;
}

const encoder = new TextEncoder();

/** Writes text as UTF-8 into a view of the wasm's memory; the bytes written, or nothing when it did not all fit. */
export function writeInto(text, into) {
  const { read, written } = encoder.encodeInto(text, into);
  return read === text.length ? written : undefined;
}

/** JSON text of user params, with markers where JSON cannot hold a value; throws what `JSON.stringify` throws. */
export function toWire(value) {
  return JSON.stringify(value ?? null, plain(value, 0) ? undefined : mark) ?? "null";
}

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
