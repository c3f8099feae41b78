// ExactNumber: a JSON number a JS double cannot hold, kept as its text. The platform makes this JS: a
// value a caller holds, prints and passes back is an instance of a JS class, and only JSON.parse's
// reviver can put one in an answer where the core's marker is. Which numbers, and the text's check, are the core's.
import { __exactKey, __exactText } from "../../../../../svc_sdk.js";

let key;

/** A number kept as the text of its digits: `text`, `toString()`, `toJSON()` (that text), `toNumber()` (rounded). */
export class ExactNumber {
  constructor(value) {
    this.text = __exactText(value);
    Object.freeze(this);
  }
  toString() { return this.text; }
  toJSON() { return this.text; }
  toNumber() { return Number(this.text); }
  // An ExactNumber of another copy of the SDK (another entry's bundle) is one too.
  static [Symbol.hasInstance](v) { return typeof v?.text === "string" && v[Symbol.for("svc-sdk.ExactNumber")] === true; }
}
Object.defineProperty(ExactNumber.prototype, Symbol.for("svc-sdk.ExactNumber"), { value: true });

/** The core's marker for an exact number: `{ [key]: text }`. */
export const marked = (text) => ({ [(key ??= __exactKey())]: text });

/** JSON.parse of the core's text of an answer, its exact-number markers made ExactNumbers. */
export const parseExact = (text) =>
  JSON.parse(text, (_, v) => (v !== null && typeof v === "object" && Object.hasOwn(v, (key ??= __exactKey())) ? new ExactNumber(v[key]) : v));
