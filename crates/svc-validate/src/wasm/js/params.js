// User params as the JSON text the core reads. The platform makes this JS: JSON.stringify is the one
// fast way to read a JS value whole, and only JS can tell what JSON cannot hold (NaN, a function, a
// Blob...), which it marks where it is for the rules to report, and what JSON holds only as text (an
// ExactNumber, a BigInt, -0), which it marks as the exact number it is. The markers' keys and the words
// of each are the core's; a lone surrogate, which JSON.stringify writes as its escape, the core finds.
import { __unrepresentable } from "../../../../../svc_sdk.js";
import { ExactNumber, marked } from "./exact.js";

let markerKey;
const marker = (what) => ({ [(markerKey ??= __unrepresentable())]: what });

/**
 * JSON text of user params, each value read once (a getter or a Proxy is asked once, so the text checked
 * is the text sent), with markers where JSON cannot hold a value; throws what `JSON.stringify` throws.
 */
export function toWire(value) {
  const copies = new Map();
  return JSON.stringify(value ?? null, function (k, v) { return mark(this, this[k], v, copies); }) ?? "null";
}

/**
 * JSON.stringify's replacer: `holder` is its wrapper or a copy made here, never the caller's object, so
 * `own` (the value before its toJSON, `v` after) is the value as read once. What JSON cannot hold becomes
 * a marker of what it is (its tag: the core words it); an exact number, its text; an object or array, a
 * copy of its members, each read once (one copy per object, so that a cycle is still one).
 */
function mark(holder, own, v, copies) {
  if (own instanceof ExactNumber) return marked(own.text);
  const type = typeof v;
  if (type === "number") return Object.is(v, -0) ? marked("-0") : Number.isFinite(v) ? v : marker(String(v));
  if (type === "bigint") return marked(v.toString());
  if (type === "undefined") return Array.isArray(holder) ? marker("undefined") : undefined;
  if (type === "function" || type === "symbol") return marker(type);
  if (type !== "object" || v === null) return v;
  if (typeof Blob !== "undefined" && v instanceof Blob) return marker("Blob");
  if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return marker("binary");
  if (v instanceof Map || v instanceof Set) return marker(v instanceof Map ? "Map" : "Set");
  if (v instanceof Number || v instanceof String || v instanceof Boolean || v instanceof BigInt) return mark(holder, v, v.valueOf(), copies);
  let copy = copies.get(v);
  if (copy === undefined) {
    copy = Array.isArray(v) ? Array.from({ length: v.length }, (_, i) => v[i]) : Object.create(null);
    if (!Array.isArray(v)) for (const key of Object.keys(v)) copy[key] = v[key];
    copies.set(v, copy);
  }
  return copy;
}
