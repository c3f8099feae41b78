// The JS half of the wasm bindings: the SvcError class, user input as JSON, an upload's files, and
// the platform's streams (bodies read, a proxied body redacted). The rules and the send loop are Rust.

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

/** A Blob of bytes the core holds. */
export function blob(bytes, type) {
  return new Blob([bytes], { type });
}

/** What `prepare()` gives: `{ method, url, headers, body }`; `lines` hold each header's name and value. */
export function prepared(method, url, lines, body) {
  const parts = lines.split("\n");
  const headers = {};
  for (let i = 0; i + 1 < parts.length; i += 2) headers[parts[i]] = parts[i + 1];
  return { method, url, headers, body: body ?? null };
}

/** Sets the cause of a network error: an Error with the underlying code and the host. */
export function withCause(error, message, code, host) {
  const cause = new Error(message);
  if (code !== undefined) cause.code = code;
  cause.host = host;
  Object.defineProperty(error, "cause", { value: cause, writable: true, configurable: true, enumerable: false });
}

/** A promise that resolves when `signal` aborts, and the function that removes its listener. */
export function onAbort(signal) {
  let remove = () => {};
  const promise = new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener("abort", resolve, { once: true });
    remove = () => signal.removeEventListener("abort", resolve);
  });
  return [promise, remove];
}

/** Lets go of an unread body. */
export function discard(res) {
  const body = res && res.body;
  if (body && typeof body.cancel === "function") body.cancel().catch(() => {});
}

const TOO_LARGE = Symbol("too large");

/** Every byte of an answer's body, or null once it is known to be above `max` bytes. */
export async function readAll(res, declared, max) {
  const length = declared == null ? NaN : Number(declared);
  const body = res.body;
  if (length > max) {
    discard(res);
    return null;
  }
  if (length <= max || !body || typeof body.getReader !== "function") {
    const bytes = new Uint8Array(await res.arrayBuffer());
    return bytes.length > max ? null : bytes;
  }
  try {
    return await readStream(body, max, () => TOO_LARGE);
  } catch (e) {
    if (e === TOO_LARGE) return null;
    throw e;
  }
}

/** Every byte of a stream, or the error of `tooMuch()` once more than `max` bytes came. */
export async function readStream(stream, max, tooMuch) {
  const reader = stream.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > max) {
      reader.cancel().catch(() => {});
      throw tooMuch();
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** The names of the answer's headers a proxy hands back, each value with the token redacted. */
const PASSED_BACK = ["content-type", "content-disposition", "retry-after", "x-rate-limit-limit", "x-rate-limit-remaining", "x-rate-limit-reset"];

/** A proxied answer: its status, the headers passed back and its body, with `secret` redacted from both. */
export function passBack(res, secret, idleMs) {
  const headers = {};
  for (const name of PASSED_BACK) {
    const v = res.headers.get(name);
    if (v) headers[name] = redactEscaped(v, secret);
  }
  return { status: res.status, headers, body: guarded(res.body, secret, idleMs) };
}

const BACKSLASH = 0x5c;

function hexValue(b) {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  const l = b | 0x20;
  return l >= 0x61 && l <= 0x66 ? l - 0x61 + 10 : -1;
}

/**
 * Where `secret` (visible ASCII) stands in `buf` from `from` on, each of its characters as it is or
 * JSON-escaped (`\u0053`, `\/`): `[start, end]`, or null.
 */
function findSecret(buf, secret, from) {
  const first = secret.charCodeAt(0);
  for (let i = from; i < buf.length; i++) {
    const b = buf[i];
    if (b !== first && b !== BACKSLASH) continue;
    let p = i;
    let j = 0;
    for (; j < secret.length && p < buf.length; j++) {
      const c = secret.charCodeAt(j);
      if (buf[p] === c) {
        p++;
      } else if (buf[p] === BACKSLASH && buf[p + 1] === 0x75 && p + 5 < buf.length) {
        // A digit that is not hex makes the value negative.
        const v = (hexValue(buf[p + 2]) << 12) | (hexValue(buf[p + 3]) << 8) | (hexValue(buf[p + 4]) << 4) | hexValue(buf[p + 5]);
        if (v !== c) break;
        p += 6;
      } else if (c === 0x2f && buf[p] === BACKSLASH && buf[p + 1] === 0x2f) {
        p += 2;
      } else {
        break;
      }
    }
    if (j === secret.length) return [i, p];
  }
  return null;
}

const encoder = new TextEncoder();
const MARK = encoder.encode("[redacted]");

/** `bytes` with every spelling of `secret` redacted; `keep` bytes of the tail held back (a match may go on). */
function redactBytes(bytes, secret, keep, emit) {
  let start = 0;
  for (let m = findSecret(bytes, secret, 0); m !== null; m = findSecret(bytes, secret, start)) {
    if (m[0] > start) emit(bytes.slice(start, m[0]));
    emit(MARK.slice());
    start = m[1];
  }
  const held = Math.max(start, bytes.length - keep);
  if (held > start) emit(bytes.slice(start, held));
  return bytes.slice(held);
}

/** A header value with every spelling of `secret` redacted. */
function redactEscaped(text, secret) {
  if (!secret) return text;
  const parts = [];
  redactBytes(encoder.encode(text), secret, 0, (b) => parts.push(b));
  let out = "";
  const decoder = new TextDecoder();
  for (const p of parts) out += decoder.decode(p, { stream: true });
  return out + decoder.decode();
}

/**
 * A proxied answer's body: every spelling of `secret` reads `[redacted]`, also across chunk edges,
 * and a service that sends nothing for `idleMs` errors the stream (kind timeout) and is let go.
 */
function guarded(body, secret, idleMs) {
  if (!body) return null;
  const reader = body.getReader();
  const keep = secret ? secret.length * 6 - 1 : 0;
  let carry = new Uint8Array(0);
  const next = () => {
    if (!(idleMs > 0)) return reader.read();
    let timer;
    const stalled = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new SvcError("timeout", `the service sent nothing more for ${idleMs} ms`)), idleMs);
    });
    return Promise.race([reader.read(), stalled]).finally(() => clearTimeout(timer));
  };
  return new ReadableStream({
    async pull(controller) {
      let sent = false;
      const emit = (b) => {
        sent = true;
        controller.enqueue(b);
      };
      try {
        while (!sent) {
          const { done, value } = await next();
          if (done) {
            if (secret) redactBytes(carry, secret, 0, emit);
            else if (carry.length) emit(carry);
            controller.close();
            return;
          }
          if (!secret) {
            emit(value);
          } else {
            const buf = new Uint8Array(carry.length + value.length);
            buf.set(carry);
            buf.set(value, carry.length);
            carry = redactBytes(buf, secret, keep, emit);
          }
        }
      } catch (e) {
        reader.cancel(e).catch(() => {});
        controller.error(e);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

