// The rule engine in JS: it runs the rules of the one table (read from the wasm, `validate::export`)
// as the Rust engine (`src/validate/`) runs them, with the same issues in the same order, so that a
// form validating as the user types never crosses into wasm. A differential test holds the two alike.
import { SvcError, jsonValue, isParams, UNREPRESENTABLE } from "./runtime.js";

let source;
const compiled = new Map();

/** Tells the engine where the rules of an operation come from: `(id) => JSON text`. */
export function useRules(rulesOf) {
  source = rulesOf;
}

/** Checks params of an operation without sending anything: `{ ok: true }` or `{ ok: false, issues }`. */
export function validate(operationId, params) {
  const issues = issuesOf(operationId, params);
  return issues.length ? { ok: false, issues } : { ok: true };
}

/** Every issue of the params at a given time (ms since the epoch; the clock's when not given). */
export function issuesOf(operationId, params, nowMs) {
  return inspect(operation(operationId), params, nowMs).issues;
}

/** The issues of the params, and the JSON value they are sent as (an upload's files left out). */
function inspect(op, params, nowMs) {
  try {
    return inspectValue(op, params, nowMs);
  } catch (e) {
    if (e instanceof SvcError && e.issues) return { issues: e.issues };
    const why = `params could not be read: ${e && typeof e.message === "string" ? e.message : "reading them threw"}`;
    return { issues: [{ path: [], code: "invalid_format", message: why, format: "JSON" }] };
  }
}

function inspectValue(op, params, nowMs) {
  if (!isParams(params)) {
    return { issues: [{ path: [], code: "invalid_type", message: `params of ${op.id} must be an object`, expected: "object" }] };
  }
  let value;
  try {
    value = jsonValue(op.files && params ? without(params, op.files.param) : params);
  } catch (e) {
    if (e instanceof SvcError && e.issues) return { issues: e.issues };
    throw e;
  }
  return { issues: check(op, value, nowMs), value };
}

/**
 * What an operation method checks before anything is sent: the params, and for an upload its files.
 * `op` is what `operation` gives. Returns the files (`[{ name, type, size, blob }]` or undefined)
 * and the params as the JSON value they are sent as; throws a validation SvcError carrying every issue.
 */
export function checkParams(op, params) {
  const { issues, value } = inspect(op, params);
  let files;
  if (op.files) {
    try {
      if (isParams(params)) {
        const split = splitFiles(params, op.files);
        issues.push(...split.issues);
        files = split.files;
      }
    } catch (e) {
      issues.push({ path: [op.files.param], code: "invalid_type", message: `the files could not be read: ${e && e.message}`, expected: "file" });
    }
  }
  if (issues.length) throw validationError(issues, op.id);
  return { files, value };
}

/** The SvcError of kind validation for these issues, worded as the Rust `Error::validation`. */
function validationError(issues, operationId) {
  const first = issues[0];
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  return new SvcError("validation", `invalid params: ${pathString(first.path)}: ${first.message}${more}`, { issues, operationId });
}

function pathString(path) {
  if (path.length === 0) return "params";
  let s = "";
  for (const seg of path) s += typeof seg === "number" ? `[${seg}]` : s === "" ? seg : `.${seg}`;
  return s;
}

function without(params, key) {
  const out = {};
  for (const k of Object.keys(params)) if (k !== key) out[k] = params[k];
  return out;
}

// ---- the operation's rules, compiled once ----

const KIND = { str: 1, num: 2, int: 3, bool: 4, id: 5, strnum: 6, boollike: 7, any: 8, obj: 9, arr: 10 };
const EXPECTED = ["", "string", "number", "integer", "boolean", "id (string or integer)", "string or number", "boolean", "any", "object", "array"];

/** An operation's rules, compiled on first use; a config SvcError for an unknown id. */
export function operation(id) {
  let op = typeof id === "string" ? compiled.get(id) : undefined;
  if (op) return op;
  const raw = JSON.parse(source(id));
  const schemas = raw.schemas.map(() => ({ fields: [], names: new Set(), checks: [] }));
  const field = ([name, kind, required, rules]) => {
    const f = { name, label: name === "" ? "each member" : name, required, rules: rules.map(rule), kind: 0, schema: null, member: null };
    if (typeof kind === "number") {
      f.kind = KIND.obj;
      f.schema = schemas[kind];
    } else if (Array.isArray(kind)) {
      f.kind = KIND.arr;
      f.member = field(kind[1]);
    } else {
      f.kind = KIND[kind];
    }
    return f;
  };
  raw.schemas.forEach((s, i) => {
    const out = schemas[i];
    for (const f of s.fields) {
      out.fields.push(field(f));
      out.names.add(f[0]);
    }
    for (const [name, below] of s.checks) {
      const run = CHECKS[name];
      if (!run) throw new SvcError("config", `the rules name a check this package does not have: ${name}`);
      out.checks.push({ run, below: below.map((j) => schemas[j]), schema: out });
    }
  });
  // Whether any param can travel in the URL or a header (a body with neither needs no wire check).
  const wire = !raw.body || raw.query.length > 0 || raw.headers.length > 0;
  op = { id: raw.id, index: raw.index, pathParams: raw.path_params, body: raw.body, query: raw.query, headers: raw.headers, files: raw.files, root: schemas[0], wire };
  compiled.set(raw.id, op);
  return op;
}

const RULE = { max_len: 1, len_between: 2, range: 3, one_of: 4, one_of_unless_blank: 5, format: 6, max_items: 7 };

function rule([name, a, b]) {
  const r = { t: RULE[name], a, b, test: null };
  if (r.t === RULE.format) r.test = FORMATS[a];
  return r;
}

// ---- the engine ----

class Ctx {
  constructor(now) {
    this.path = [];
    this.issues = [];
    this.at = now;
  }

  /** Now, in ms since the epoch (rules such as "at most one week ahead"). */
  get now() {
    return (this.at ??= Date.now());
  }

  push(code, message, details) {
    this.issues.push({ path: this.path.slice(), code, message, ...details });
  }

  pushAt(key, code, message, details) {
    this.path.push(key);
    this.push(code, message, details);
    this.path.pop();
  }
}

function check(op, value, now) {
  const ctx = new Ctx(now);
  const what = unrepresentable(value);
  if (what !== undefined) {
    ctx.push("invalid_type", `params must be an object, got ${what}`, { expected: "object" });
    return ctx.issues;
  }
  if (value === null || value === undefined) {
    checkObject(op.root, {}, ctx);
  } else if (isObject(value)) {
    checkObject(op.root, value, ctx);
    if (op.wire) for (const wire of wireIssues(op, value)) {
      if (!ctx.issues.some((i) => i.path.length === 0 || i.path[0] === wire.path[0])) ctx.issues.push(wire);
    }
  } else {
    ctx.push("invalid_type", `params must be an object, got ${typeName(value)}`, { expected: "object" });
  }
  return ctx.issues;
}

function isObject(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** What a marker of `jsonValue` stands for (a function, NaN, ...), or undefined for any other value. */
function unrepresentable(v) {
  if (!isObject(v)) return undefined;
  const what = v[UNREPRESENTABLE];
  if (typeof what !== "string") return undefined;
  for (const k in v) if (k !== UNREPRESENTABLE) return undefined;
  return what;
}

function checkObject(schema, map, ctx) {
  let known = 0;
  for (const field of schema.fields) {
    const v = map[field.name];
    if (v === undefined || v === null) {
      if (v === null) known++;
      if (field.required) ctx.pushAt(field.name, "required", `${field.name} is required`, {});
      continue;
    }
    known++;
    ctx.path.push(field.name);
    checkValue(field, v, ctx);
    ctx.path.pop();
  }
  // Own keys only, in effect: params are plain objects (or copies made by jsonValue).
  let keys = 0;
  for (const key in map) keys++;
  if (keys !== known) {
    for (const key in map) {
      if (schema.names.has(key)) continue;
      const v = map[key];
      if (v === undefined) continue;
      ctx.path.push(key);
      sweep(v, ctx);
      ctx.path.pop();
    }
  }
  for (const c of schema.checks) c.run(map, ctx, c);
}

/** Reports unrepresentable values anywhere below a value that no rule describes. */
function sweep(v, ctx) {
  if (typeof v !== "object" || v === null) return;
  const what = unrepresentable(v);
  if (what !== undefined) {
    ctx.push("invalid_type", `${what} cannot be sent as JSON`, { expected: "a JSON value" });
    return;
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      ctx.path.push(i);
      sweep(v[i], ctx);
      ctx.path.pop();
    }
  } else {
    for (const k of Object.keys(v)) {
      if (v[k] === undefined) continue;
      ctx.path.push(k);
      sweep(v[k], ctx);
      ctx.path.pop();
    }
  }
}

function typeName(v) {
  if (v === null || v === undefined) return "null";
  switch (typeof v) {
    case "boolean":
      return "boolean";
    case "number":
      return "number";
    case "string":
      return "string";
    default:
      if (Array.isArray(v)) return "array";
      return Object.prototype.hasOwnProperty.call(v, UNREPRESENTABLE) ? "a value that is not JSON" : "object";
  }
}

/** An integer as the Rust side reads JSON numbers: one that fits i64 or u64. */
function isInt(v) {
  return typeof v === "number" && Number.isInteger(v) && v >= -9223372036854775808 && v < 18446744073709551616;
}

function checkValue(field, v, ctx) {
  const what = unrepresentable(v);
  if (what !== undefined) {
    const expected = EXPECTED[field.kind];
    ctx.push("invalid_type", `${field.label} must be ${expected}, got ${what}`, { expected });
    return;
  }
  if (field.required && typeof v === "string" && isBlank(v)) {
    ctx.push("required", `${field.label} is required`, {});
    return;
  }
  let ok;
  switch (field.kind) {
    case KIND.any:
      ok = true;
      sweep(v, ctx);
      break;
    case KIND.str:
      ok = typeof v === "string";
      break;
    case KIND.num:
      ok = typeof v === "number";
      break;
    case KIND.int:
      ok = isInt(v);
      break;
    case KIND.bool:
      ok = typeof v === "boolean";
      break;
    case KIND.boollike:
      ok = typeof v === "boolean" || v === "true" || v === "false";
      break;
    case KIND.id:
      ok = typeof v === "string" ? v !== "" : isInt(v);
      break;
    case KIND.strnum:
      ok = typeof v === "string" || typeof v === "number";
      break;
    case KIND.obj:
      ok = isObject(v);
      if (ok) checkObject(field.schema, v, ctx);
      break;
    case KIND.arr:
      ok = Array.isArray(v);
      if (ok) {
        const member = field.member;
        for (let i = 0; i < v.length; i++) {
          ctx.path.push(i);
          if (v[i] === null) {
            ctx.push("invalid_type", `members of ${field.label} may not be null`, { expected: EXPECTED[member.kind] });
          } else {
            checkValue(member, v[i], ctx);
          }
          ctx.path.pop();
        }
      }
      break;
    default:
      ok = false;
  }
  if (!ok) {
    const expected = EXPECTED[field.kind];
    ctx.push("invalid_type", `${field.label} must be ${expected}, got ${typeName(v)}`, { expected });
    return;
  }
  if ((field.kind === KIND.id || field.kind === KIND.int) && typeof v === "number" && Math.abs(v) > Number.MAX_SAFE_INTEGER) {
    const tail = field.kind === KIND.id ? ": give the id as a string" : "";
    ctx.push("out_of_range", `${field.label} ${v} is beyond 2^53 - 1, where a JS number loses digits${tail}`, { minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });
    return;
  }
  for (const r of field.rules) applyRule(field, r, v, ctx);
}

/** The number of chars (code points) of a string, as Rust's `chars().count()`. */
function chars(s) {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      n--;
      i++;
    }
  }
  return n;
}

function applyRule(field, r, v, ctx) {
  const label = field.label;
  switch (r.t) {
    case RULE.max_len:
      if (typeof v === "string" && v.length > r.a) {
        const n = chars(v);
        if (n > r.a) ctx.push("too_long", `${label} may have at most ${r.a} characters, it has ${n}`, { maximum: r.a });
      }
      break;
    case RULE.len_between:
      if (typeof v === "string") {
        const n = chars(v);
        if (n < r.a) ctx.push("too_short", `${label} needs at least ${r.a} characters, it has ${n}`, { minimum: r.a });
        else if (n > r.b) ctx.push("too_long", `${label} may have at most ${r.b} characters, it has ${n}`, { maximum: r.b });
      }
      break;
    case RULE.range: {
      const n = typeof v === "number" ? v : typeof v === "string" ? decimal(rustTrim(v)) : undefined;
      if (n === undefined) ctx.push("invalid_type", `${label} must be a number`, { expected: "number" });
      else if (!(n >= r.a && n <= r.b)) ctx.push("out_of_range", `${label} must be between ${r.a} and ${r.b}`, { minimum: r.a, maximum: r.b });
      break;
    }
    case RULE.one_of:
      if (typeof v === "string" && !r.a.includes(v)) notOneOf(label, r.a, v, ctx);
      break;
    case RULE.one_of_unless_blank:
      if (typeof v === "string" && !isBlank(v) && !r.a.includes(v)) notOneOf(label, r.a, v, ctx);
      break;
    case RULE.format:
      if (typeof v === "string" && !r.test(v)) ctx.push("invalid_format", `${label} must be ${r.b}, got ${quoted(v)}`, { format: r.a });
      break;
    case RULE.max_items:
      if (Array.isArray(v) && v.length > r.a) ctx.push("too_many", `${label} may have at most ${r.a} members, it has ${v.length}`, { maximum: r.a });
      break;
  }
}

function notOneOf(label, allowed, s, ctx) {
  ctx.push("invalid_value", `${label} must be one of ${allowed.join(", ")}, got ${quoted(s)}`, { allowed: allowed.slice() });
}

/** Text echoed into a message: at most 64 chars and an ellipsis, quoted as a JSON string. */
function quoted(s) {
  const cut = Array.from(s);
  return JSON.stringify(cut.length > 64 ? cut.slice(0, 64).join("") + "…" : s);
}

// ---- text as Rust reads it ----

/** Rust's White_Space, which `str::trim` and `char::is_whitespace` use (not JS's set: U+0085 in, U+FEFF out). */
const WS = "\\t\\n\\v\\f\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const TRIM = new RegExp(`^[${WS}]+|[${WS}]+$`, "g");
const BLANK = new RegExp(`^[${WS}]*$`);
const SPACE_OR_CONTROL = new RegExp(`[${WS}\\x00-\\x1f\\x7f-\\x9f]`);

function rustTrim(s) {
  return s.replace(TRIM, "");
}

function isBlank(s) {
  const c = s.length > 0 ? s.charCodeAt(0) : 0;
  return c > 0x20 && c < 0x7f ? false : BLANK.test(s);
}

const DECIMAL = /^[+-]?(?=\.?[0-9])[0-9]*(\.[0-9]*)?([eE][+-]?[0-9]+)?$/;

/** A finite decimal number as `validate::format::decimal` (and so `f64::from_str`) reads one. */
function decimal(s) {
  if (!DECIMAL.test(s)) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

/** The number the ASCII digits of `s` from `i` to `j` (excluded) write, or -1. */
function digitsAt(s, i, j) {
  let n = 0;
  for (; i < j; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

/** `[y, m, d]` of a real calendar date `yyyy-mm-dd`. */
function parseDate(s) {
  if (s.length !== 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return undefined;
  const y = digitsAt(s, 0, 4);
  const mo = digitsAt(s, 5, 7);
  const d = digitsAt(s, 8, 10);
  if (y < 0 || mo < 0 || d < 0) return undefined;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [0, 31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo];
  return days && d >= 1 && d <= days ? [y, mo, d] : undefined;
}

const TIMESTAMP = /^([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?(?:([Zz])|([+-])([0-9]{2}):?([0-9]{2}))$/;

/** Seconds since the epoch of a timestamp with an offset, as `validate::format::parse_timestamp`. */
function parseTimestamp(s) {
  const m = TIMESTAMP.exec(s);
  if (!m) return undefined;
  const ymd = parseDate(m[1]);
  if (!ymd) return undefined;
  const [h, mi, se] = [Number(m[2]), Number(m[3]), Number(m[4])];
  if (h > 23 || mi > 59 || se > 60) return undefined;
  let offset = 0;
  if (!m[5]) {
    const [oh, om] = [Number(m[7]), Number(m[8])];
    if (oh > 23 || om > 59) return undefined;
    offset = (m[6] === "-" ? -1 : 1) * (oh * 3600 + om * 60);
  }
  return daysFromCivil(ymd[0], ymd[1], ymd[2]) * 86400 + h * 3600 + mi * 60 + se - offset;
}

/** Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm; `Date.UTC` reads years below 100 as 19xx). */
function daysFromCivil(y, m, d) {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

const FORMATS = {
  date: (s) => parseDate(s) !== undefined,
  duration: (s) => {
    const m = /^([0-9]{2,}):([0-9]{2})$/.exec(s);
    return m !== null && Number(m[1]) <= 0xffffffff && Number(m[2]) < 60;
  },
  "date-time": (s) => parseTimestamp(s) !== undefined,
  alphanumeric: (s) => /^[A-Za-z0-9]+$/.test(s),
  url: (s) => {
    const i = s.indexOf("://");
    if (i < 0 || !/^https?$/i.test(s.slice(0, i))) return false;
    const authority = s.slice(i + 3).split(/[/?#]/)[0];
    const host = authority.slice(authority.lastIndexOf("@") + 1);
    return host !== "" && !host.startsWith(":") && !SPACE_OR_CONTROL.test(s);
  },
};

// ---- params that travel in the URL or a header ----

function scalarIssue(name, v) {
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return undefined;
  return {
    path: [name],
    code: "invalid_type",
    message: `${name} is sent in the URL or a header and must be a string, number or boolean, got ${typeName(v)}`,
    expected: "string, number or boolean",
  };
}

/** As `request::wire_issues`: a query value that is not a scalar (or a GET's array of them), a header with a line break. */
function wireIssues(op, params) {
  const issues = [];
  const isHeader = (name) => op.headers.some(([p]) => p === name);
  for (const name of Object.keys(params)) {
    const v = params[name];
    if (v === undefined || v === null || (op.body && !op.query.includes(name)) || isHeader(name)) continue;
    if (Array.isArray(v) && !op.body) {
      v.forEach((item, i) => {
        const issue = scalarIssue(name, item);
        if (issue) issues.push({ ...issue, path: [name, i] });
      });
    } else {
      const issue = scalarIssue(name, v);
      if (issue) issues.push(issue);
    }
  }
  for (const [param, header] of op.headers) {
    const v = params[param];
    if (v === undefined || v === null) continue;
    const issue = scalarIssue(param, v);
    if (issue) issues.push(issue);
    else if (typeof v === "string" && /[^\x20-\x7e]/.test(v)) {
      issues.push({
        path: [param],
        code: "invalid_format",
        message: `${param} is sent as the ${header} header and may hold only printable ASCII characters (no line breaks, no accents or other Unicode)`,
        format: "header value",
      });
    }
  }
  return issues;
}

// ---- checks across the fields of one object: the twins of `validate::Check` ----

function given(map, name) {
  const v = map[name];
  if (v === undefined || v === null) return false;
  return typeof v !== "string" || !isBlank(v);
}

function notEmpty(map, key, ctx) {
  const v = map[key];
  if (Array.isArray(v) && v.length === 0) {
    ctx.pushAt(key, "required", `${key} needs at least one member`, {});
    return false;
  }
  return true;
}

function isDigits(s) {
  return /^[0-9]*$/.test(s);
}

const has = (map, key) => map[key] !== undefined;
const EVENT_OPERATIONS = ["create", "delete", "edit", "all"];
const EVENT_FORMAT = "{module_api_name}.{operation}";
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

function iso(ms) {
  const s = new Date(ms).toISOString();
  return ms % 1000 === 0 ? `${s.slice(0, 19)}Z` : s;
}

function countFields(members) {
  let n = 0;
  for (const m of members) {
    if (!isObject(m)) continue;
    if (has(m, "field")) n += 1;
    else if (Array.isArray(m.group)) n += countFields(m.group);
  }
  return n;
}

const CHECKS = {
  percentage_only_for_declining(map, ctx) {
    if (map.depreciation_method === "straight_line" && given(map, "depreciation_percentage")) {
      ctx.pushAt("depreciation_percentage", "not_allowed", "depreciation_percentage applies only to declining methods, not to straight_line", {});
    }
  },
  readings_only_for_odometer(map, ctx, { schema }) {
    if (typeof map.mileage_type === "string") {
      const t = rustTrim(map.mileage_type);
      const listed = schema.fields.find((f) => f.name === "mileage_type").rules.find((r) => r.t === RULE.one_of).a;
      if (t === "odometer" || (t !== "" && !listed.includes(t))) return;
    }
    for (const name of ["start_reading", "end_reading"]) {
      if (given(map, name)) ctx.pushAt(name, "not_allowed", `${name} applies only when mileage_type is odometer`, {});
    }
  },
  loose_integers(map, ctx) {
    for (const key of ["rate", "budget_hours"]) {
      const v = map[key];
      if (v === undefined || v === null || isInt(v)) continue;
      if (typeof v === "string") {
        const t = rustTrim(v);
        const digits = t.startsWith("-") ? t.slice(1) : t;
        if (t === "" || (digits !== "" && isDigits(digits))) continue;
      }
      if (isObject(v) && has(v, UNREPRESENTABLE)) continue;
      ctx.pushAt(key, "invalid_type", `${key} must be an integer, got ${typeName(v)}`, { expected: "integer" });
    }
  },
  watch_is_not_empty(map, ctx) {
    notEmpty(map, "watch", ctx);
  },
  channel_id_is_a_long(map, ctx) {
    const v = map.channel_id;
    const ok =
      v === undefined ||
      v === null ||
      (typeof v === "number" ? isInt(v) : typeof v === "string" ? isBlank(v) || isDigits(v) : isObject(v) && has(v, UNREPRESENTABLE));
    if (!ok) {
      ctx.pushAt("channel_id", "invalid_type", `channel_id must be an integer or a string of digits, got ${typeName(v)}`, { expected: "integer" });
    }
  },
  events_name_module_and_operation(map, ctx) {
    const events = map.events;
    if (!Array.isArray(events) || !notEmpty(map, "events", ctx)) return;
    ctx.path.push("events");
    events.forEach((event, i) => {
      if (typeof event !== "string") return;
      ctx.path.push(i);
      const dot = event.indexOf(".");
      if (dot >= 0 && /^[A-Za-z][A-Za-z0-9_]*$/.test(event.slice(0, dot))) {
        if (!EVENT_OPERATIONS.includes(event.slice(dot + 1))) {
          ctx.push("invalid_value", `the operation of ${quoted(event)} must be one of ${EVENT_OPERATIONS.join(", ")}`, { allowed: EVENT_OPERATIONS.slice() });
        }
      } else {
        ctx.push("invalid_format", `an event must be ${EVENT_FORMAT}, got ${quoted(event)}`, { format: EVENT_FORMAT });
      }
      ctx.path.pop();
    });
    ctx.path.pop();
  },
  expiry_within_a_week(map, ctx) {
    if (typeof map.channel_expiry !== "string") return;
    const secs = parseTimestamp(map.channel_expiry);
    if (secs === undefined) return;
    const at = secs * 1000;
    const earliest = Math.floor(ctx.now / 1000) * 1000;
    const latest = ctx.now + WEEK_MS;
    if (at < earliest || at > latest) {
      const [min, max] = [iso(earliest), iso(latest)];
      ctx.pushAt("channel_expiry", "out_of_range", `channel_expiry must be between now (${min}) and one week from now (${max})`, { minimum: min, maximum: max });
    }
  },
  group_members(map, ctx, { below: [fieldMember, group] }) {
    const members = map.group;
    if (!Array.isArray(members) || !notEmpty(map, "group", ctx)) return;
    ctx.path.push("group");
    members.forEach((member, i) => {
      if (!isObject(member)) return;
      ctx.path.push(i);
      if (has(member, "field")) checkObject(fieldMember, member, ctx);
      else if (has(member, "group") || has(member, "group_operator")) checkObject(group, member, ctx);
      else if (!has(member, UNREPRESENTABLE)) {
        ctx.push("invalid_type", "a group member must be {field: {api_name, id}} or {group_operator, group}", { expected: "field or group" });
      }
      ctx.path.pop();
    });
    ctx.path.pop();
  },
  at_most_ten_fields(map, ctx) {
    const selection = map.field_selection;
    if (!isObject(selection) || !Array.isArray(selection.group)) return;
    const n = countFields(selection.group);
    if (n > 10) {
      ctx.path.push("field_selection");
      ctx.pushAt("group", "too_many", `a field selection may hold at most 10 fields, however nested; it has ${n}`, { maximum: 10 });
      ctx.path.pop();
    }
  },
};

// ---- the files of an upload ----

/**
 * The files of an upload out of its params. Each is a Blob/File, or `{ name, data }` with data a
 * Blob, ArrayBuffer, typed array or string, named with one of the accepted types.
 */
function splitFiles(params, { param, many, accept }) {
  const issues = [];
  const raw = params == null ? undefined : params[param];
  let list = raw === undefined ? [] : many && Array.isArray(raw) ? raw : [raw];
  if (!many && Array.isArray(raw)) {
    issues.push({ path: [param], code: "invalid_type", message: `${param} takes one file`, expected: "file" });
    list = [];
  }
  if (raw === undefined || (Array.isArray(raw) && raw.length === 0)) {
    issues.push({ path: [param], code: "required", message: `${param} needs at least one file` });
  }
  const files = [];
  list.forEach((f, i) => {
    const path = many ? [param, i] : [param];
    let name, blob;
    if (typeof Blob !== "undefined" && f instanceof Blob) {
      name = typeof f.name === "string" ? f.name : undefined;
      blob = f;
    } else if (f && typeof f === "object" && "data" in f) {
      name = f.name;
      const d = f.data;
      if (typeof Blob !== "undefined" && d instanceof Blob) blob = d;
      else if (typeof d === "string" || d instanceof ArrayBuffer || ArrayBuffer.isView(d)) blob = new Blob([d], f.type ? { type: f.type } : {});
    }
    if (!blob) {
      issues.push({ path, code: "invalid_type", message: "a file must be a Blob, a File or { name, data }", expected: "file" });
      return;
    }
    if (typeof name !== "string" || name === "") {
      issues.push({ path: [...path, "name"], code: "required", message: "the file needs a name with its extension" });
      return;
    }
    const dot = name.lastIndexOf(".");
    const ext = dot < 0 ? "" : name.slice(dot + 1).replace(/[A-Z]/g, (c) => c.toLowerCase());
    if (!accept.includes(ext)) {
      issues.push({
        path,
        code: "invalid_format",
        message: `${quoted(name)} is not an accepted file type; accepted: ${accept.join(", ")}`,
        format: "file type",
        allowed: accept.slice(),
      });
    }
    files.push({ name, type: blob.type || "", size: blob.size, blob });
  });
  return { files, issues };
}
