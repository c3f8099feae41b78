// User params as the JSON text the core reads. The platform makes this JS: JSON.stringify is the one
// fast way to read a JS value whole, and only JS can tell what JSON cannot hold (NaN, a function, a
// Blob...), which it marks where it is for the rules to report, and what JSON holds only as text (an
// ExactNumber, a BigInt, -0), which it marks as the exact number it is. The markers' keys and the words
// of each are the core's; a lone surrogate, which JSON.stringify writes as its escape, the core finds.
import { __unrepresentable } from "../../../../../svc_sdk.js";
import { marked, wiring } from "./exact.js";

let markerKey;
const marker = (what) => ({ [(markerKey ??= __unrepresentable())]: what });
const plain = (proto) => proto === Object.prototype || proto === null;

/**
 * JSON text of user params, each value read once (JSON.stringify reads each member once and the replacer
 * reads nothing more, so a getter or a Proxy is asked once and the text checked is the text sent), with
 * markers where JSON cannot hold a value; throws what `JSON.stringify` throws (a cycle, a getter's throw).
 * While it runs, an ExactNumber's toJSON gives the core's marker of its text (`wiring`).
 */
export function toWire(value) {
  const outer = globalThis[wiring];
  Reflect.set(globalThis, wiring, true);
  try { return JSON.stringify(value ?? null, mark) ?? "null"; } finally { Reflect.set(globalThis, wiring, outer); }
}

/**
 * JSON.stringify's replacer: `v` is the member as read (after its toJSON), `this` its holder. What JSON
 * cannot hold becomes a marker of what it is (its tag: the core words it), what JSON holds only as text
 * (a BigInt, -0) the exact number it is; a plain object or array, and a marker, are written as they are.
 */
function mark(_, v) {
  const type = typeof v;
  if (type === "string" || type === "boolean") return v;
  if (type === "number") return Number.isFinite(v) ? (v === 0 && 1 / v < 0 ? marked("-0") : v) : marker(String(v));
  if (type === "bigint") return marked(v.toString());
  if (type === "undefined") return Array.isArray(this) ? marker("undefined") : undefined;
  if (type === "function" || type === "symbol") return marker(type);
  if (v === null || Array.isArray(v) || plain(Object.getPrototypeOf(v))) return v;
  if (typeof Blob !== "undefined" && v instanceof Blob) return marker("Blob");
  if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return marker("binary");
  if (v instanceof Map || v instanceof Set) return marker(v instanceof Map ? "Map" : "Set");
  if (v instanceof Number || v instanceof String || v instanceof Boolean || v instanceof BigInt) return mark.call(this, _, v.valueOf());
  return v;
}
