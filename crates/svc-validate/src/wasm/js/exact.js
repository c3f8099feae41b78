// ExactNumber: a JSON number a JS double cannot hold, kept as its text. The platform makes this JS: a
// value a caller holds, prints and passes back is an instance of a JS class, and only JSON.parse's
// reviver can put one in an answer where the core's marker is. Which numbers, and the text's check, are the core's.
import { __exactKey, __exactText } from "../../../../../svc_sdk.js";

const brand = Symbol.for("svc-sdk.ExactNumber");
/** Set on globalThis while params are written (toWire): an ExactNumber of any copy of the SDK then gives the core's marker. */
export const wiring = Symbol.for("svc-sdk.wiring");
let key;

/** A number kept as its JSON text: `text`, and `toString()` and `toJSON()` give it (`Number(x)` rounds it). */
export class ExactNumber {
  constructor(value) {
    this.text = __exactText(value);
    Object.freeze(this);
  }
  toString() { return this.text; }
  toJSON() { return globalThis[wiring] === true ? marked(this.text) : this.text; }
  // An ExactNumber of another copy of the SDK (another entry's bundle) is one too.
  static [Symbol.hasInstance](v) { return v?.[brand] === true; }
}
Object.defineProperty(ExactNumber.prototype, brand, { value: true });

/** The core's marker for an exact number, and JSON.parse of the core's text of an answer with its markers made ExactNumbers. */
export const marked = (text) => ({ [(key ??= __exactKey())]: text });
export const parseExact = (text) => JSON.parse(text, (_, v) => (typeof v === "object" && v?.[(key ??= __exactKey())] !== undefined ? new ExactNumber(v[key]) : v));
