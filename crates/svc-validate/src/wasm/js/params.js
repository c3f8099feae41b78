// User params as the JSON text the core reads. The platform makes this JS: JSON.stringify is the one
// fast way to read a JS value whole, and only JS can tell what JSON cannot hold (NaN, a function, a
// Blob...), which it marks where it is for the rules to report, and what JSON holds only as text (an
// ExactNumber, a BigInt, -0), which it marks as the exact number it is. The markers' keys and the words
// of each are the core's; a lone surrogate, which JSON.stringify writes as its escape, the core finds.
import { __unrepresentable } from "../../../../../svc_sdk.js";
import { ExactNumber, marked } from "./exact.js";

let markerKey;
const marker = (what) => ({ [(markerKey ??= __unrepresentable())]: what });

/** JSON.stringify's replacer for user params: what JSON cannot hold becomes a marker of what it is (its tag: the core words it); an exact number, its text. */
function mark(k, v) {
  if (this[k] instanceof ExactNumber) return marked(this[k].text);
  const type = typeof v;
  if (type === "number") return Object.is(v, -0) ? marked("-0") : Number.isFinite(v) ? v : marker(String(v));
  if (type === "bigint") return marked(v.toString());
  if (type === "undefined") return Array.isArray(this) ? marker("undefined") : undefined;
  if (type === "function" || type === "symbol") return marker(type);
  if (type !== "object" || v === null) return v;
  if (typeof Blob !== "undefined" && v instanceof Blob) return marker("Blob");
  if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return marker("binary");
  return v instanceof Map ? marker("Map") : v instanceof Set ? marker("Set") : v;
}

/** JSON text of user params, with markers where JSON cannot hold a value; throws what `JSON.stringify` throws. */
export const toWire = (value) => JSON.stringify(value ?? null, plain(value, 0) ? undefined : mark) ?? "null";

/** Whether JSON.stringify writes a value exactly as it is: then no copy is needed. */
function plain(v, depth) {
  if (typeof v !== "object" || v === null) {
    return typeof v === "string" || typeof v === "boolean" || (Number.isFinite(v) && !Object.is(v, -0)) || v === null || (v === undefined && depth === 0);
  }
  if (depth > 64) return false;
  const proto = Object.getPrototypeOf(v);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (v[i] === undefined || !plain(v[i], depth + 1)) return false;
    return true;
  }
  if ((proto !== Object.prototype && proto !== null) || typeof v.toJSON === "function") return false;
  for (const key in v) if (v[key] !== undefined && !plain(v[key], depth + 1)) return false;
  return true;
}
