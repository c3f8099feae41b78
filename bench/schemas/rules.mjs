// The checks that crates/svc-core/src/format.rs and crates/svc-core/src/validate/crm/ write as
// code, in plain JS, shared by the zod and valibot schemas so that both apply exactly the same rule
// (neither library has a built-in with the same semantics: zod's iso date/datetime and url,
// valibot's isoDate, differ).

export const DEPRECIATION_METHODS = ["declining_method", "straight_line", "200_declining_method", "150_declining_method"];
export const DEPRECIATION_FREQUENCIES = ["yearly", "monthly"];
export const COMPUTATION_TYPES = ["prorata_basis", "no_prorata"];
export const EVENT_OPERATIONS = ["create", "delete", "edit", "all"];
export const FISCAL_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
export const INDUSTRY_SIZES = ["small scale", "medium scale", "large scale"];
export const MAX_FIELDS = 10;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** A required string that is blank counts as missing (src/validate/mod.rs `is_blank`). */
export const notBlank = (s) => s.trim() !== "";

/** Present, not null, not a blank string (books.rs `given`). */
export const given = (v) => v !== undefined && v !== null && !(typeof v === "string" && v.trim() === "");

/** 5 to 30 characters (Unicode scalar values, as Rust's `chars().count()`), ASCII letters and digits only (format.rs `Alnum`). */
export const isPortalName = (s) => [...s].length >= 5 && [...s].length <= 30 && /^[A-Za-z0-9]+$/.test(s);

/** One of `allowed`, or a blank string for "not set" (mod.rs `OneOfUnlessBlank`). */
export const oneOfUnlessBlank = (allowed) => (s) => s.trim() === "" || allowed.includes(s);

const allDigits = (s) => s.length > 0 && /^[0-9]+$/.test(s);

/** `yyyy-mm-dd`, a real calendar date (format.rs `parse_date`). */
export function isDate(s) {
  if (s.length !== 10 || s[4] !== "-" || s[7] !== "-") return false;
  const ys = s.slice(0, 4), ms = s.slice(5, 7), ds = s.slice(8, 10);
  if (!allDigits(ys) || !allDigits(ms) || !allDigits(ds)) return false;
  const y = +ys, m = +ms, d = +ds;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
  return days !== undefined && d >= 1 && d <= days;
}

/** Seconds since the epoch of `yyyy-mm-ddThh:mm:ss[.fff]` with `Z`, `+hhmm` or `+hh:mm` (format.rs `parse_timestamp`), or null. */
export function parseTimestamp(s) {
  if (s.length < 20 || !isDate(s.slice(0, 10))) return null;
  if (!(s[10] === "T" || s[10] === "t") || s[13] !== ":" || s[16] !== ":") return null;
  const hs = s.slice(11, 13), mis = s.slice(14, 16), ses = s.slice(17, 19);
  if (!allDigits(hs) || !allDigits(mis) || !allDigits(ses)) return null;
  const h = +hs, mi = +mis, se = +ses;
  if (h > 23 || mi > 59 || se > 60) return null;
  let rest = s.slice(19);
  if (rest[0] === ".") {
    const n = /^[0-9]*/.exec(rest.slice(1))[0].length;
    if (n === 0) return null;
    rest = rest.slice(1 + n);
  }
  let offset = 0;
  if (rest !== "Z" && rest !== "z") {
    const sign = rest[0] === "+" ? 1 : rest[0] === "-" ? -1 : 0;
    if (sign === 0) return null;
    const o = rest.slice(1);
    let oh, om;
    if (o.length === 4) [oh, om] = [o.slice(0, 2), o.slice(2)];
    else if (o.length === 5 && o[2] === ":") [oh, om] = [o.slice(0, 2), o.slice(3)];
    else return null;
    if (!allDigits(oh) || !allDigits(om) || +oh > 23 || +om > 59) return null;
    offset = sign * (+oh * 3600 + +om * 60);
  }
  const y = +s.slice(0, 4), mo = +s.slice(5, 7), d = +s.slice(8, 10);
  return Date.UTC(y, mo - 1, d, h, mi, se) / 1000 - offset;
}

/** Not in the past (to the second) and at most one week after now (crm.rs `expiry_within_a_week`). */
export function expiryInRange(s) {
  const secs = parseTimestamp(s);
  if (secs === null) return true; // the format rule reports it
  const now = Date.now();
  const at = secs * 1000;
  return at >= Math.floor(now / 1000) * 1000 && at <= now + WEEK_MS;
}

/** An absolute http(s) URL with a host, no whitespace or control characters (format.rs `is_http_url`). */
export function isHttpUrl(s) {
  const i = s.indexOf("://");
  if (i < 0) return false;
  const scheme = s.slice(0, i).toLowerCase();
  if (scheme !== "http" && scheme !== "https") return false;
  const authority = s.slice(i + 3).split(/[/?#]/)[0];
  const host = authority.slice(authority.lastIndexOf("@") + 1);
  return host !== "" && host[0] !== ":" && !/[\s\x00-\x1f\x7f-\x9f]/.test(s);
}

/** A custom module's API name: letters, digits and underscores, starting with a letter. */
const MODULE = /^[A-Za-z][A-Za-z0-9_]*$/;

/** The issue of one `events` entry (crm.rs `check_event`): null, or [code, message]. */
export function eventIssue(event) {
  const dot = event.indexOf(".");
  if (dot < 0 || !MODULE.test(event.slice(0, dot))) {
    return ["invalid_format", `an event must be {module_api_name}.{operation}, got ${JSON.stringify(event)}`];
  }
  if (!EVENT_OPERATIONS.includes(event.slice(dot + 1))) {
    return ["invalid_value", `the operation of ${JSON.stringify(event)} must be one of ${EVENT_OPERATIONS.join(", ")}`];
  }
  return null;
}

/** Fields of a field selection, however nested (crm.rs `count_fields`). */
export function countFields(members) {
  let n = 0;
  for (const m of members) {
    if (m === null || typeof m !== "object" || Array.isArray(m)) continue;
    if ("field" in m) n += 1;
    else if (Array.isArray(m.group)) n += countFields(m.group);
  }
  return n;
}

