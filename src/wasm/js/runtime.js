// The JS half of the wasm bindings: the SvcError class, JSON conversion of user input, the send
// loop (token, limiter, attempts, retries; each decision asked of the wasm synchronously), one fetch
// attempt with its timeout and abort signal, and the async-iterable page.

const KINDS = new Set([
  "validation", "api", "rate_limited", "unauthorized", "network",
  "timeout", "aborted", "decode", "config", "verification",
]);

export class SvcError extends Error {
  constructor(kind, message, extra = {}) {
    super(message);
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

const wellFormed = typeof String.prototype.isWellFormed === "function"
  ? (s) => s.isWellFormed()
  : (s) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?:[^\ud800-\udbff]|^)[\udc00-\udfff]/.test(s);

function describe(v) {
  if (typeof v === "number") return String(v);
  if (typeof v === "function") return "a function";
  if (typeof v === "symbol") return "a symbol";
  if (typeof v === "undefined") return "undefined";
  return typeof v;
}

/** JSON text of user params: the text of `jsonValue`. */
export function toWire(value) {
  try {
    return JSON.stringify(jsonValue(value) ?? null);
  } catch (e) {
    if (e instanceof SvcError) throw e;
    throw unreadable(`params could not be read: ${e && e.message}`);
  }
}

/**
 * User params as the JSON value they are sent as: the value itself when JSON holds it as it is,
 * else a copy in which values JSON cannot hold (NaN, Infinity, functions, symbols, undefined inside
 * arrays, text with a lone surrogate) are markers that validation reports at their path, BigInts
 * are their exact digits and `toJSON` has been applied. Cycles, throwing getters and nesting deeper
 * than MAX_DEPTH are a validation SvcError.
 */
export function jsonValue(value) {
  if (plain(value, 0)) return value;
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
        if (seen.has(v)) throw unreadable("params contain a circular reference");
        if (depth >= MAX_DEPTH) throw unreadable(`params have more than ${MAX_DEPTH} levels of nesting`);
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
    if (e instanceof SvcError) throw e;
    throw unreadable(`params could not be read: ${e && e.message}`);
  }
}

function unreadable(message) {
  const issues = [{ path: [], code: "invalid_format", message, format: "JSON" }];
  return new SvcError("validation", `invalid params: ${message}`, { issues });
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

/** Whether a value is a plain params object (or absent). */
export function isParams(v) {
  return v === undefined || v === null || (typeof v === "object" && !Array.isArray(v) && !(typeof Blob !== "undefined" && v instanceof Blob));
}

/** Whether a value is an options object of a call (signal, timeoutMs, maxRetries). */
export function readOptions(v) {
  if (v === undefined || v === null) return {};
  if (typeof v !== "object" || Array.isArray(v)) {
    throw new SvcError("config", "call options must be an object { signal, timeoutMs, maxRetries }");
  }
  for (const key of Object.keys(v)) {
    if (!["signal", "timeoutMs", "maxRetries"].includes(key)) {
      throw new SvcError("config", `unknown call option ${JSON.stringify(key)} (expected signal, timeoutMs, maxRetries)`);
    }
  }
  if (v.signal !== undefined && !(v.signal && typeof v.signal.aborted === "boolean" && typeof v.signal.addEventListener === "function")) {
    throw new SvcError("config", "signal must be an AbortSignal");
  }
  for (const key of ["timeoutMs", "maxRetries"]) {
    if (v[key] !== undefined && !(Number.isInteger(v[key]) && v[key] >= 0)) {
      throw new SvcError("config", `${key} must be a non-negative integer`);
    }
  }
  return v;
}

/** A FormData with every file under `field`. */
export function formData(field, files) {
  const form = new FormData();
  for (const f of files) form.append(field, f.blob, f.name);
  return form;
}

/** A page of a list: `items`, `page_context`, and async iteration over every item of every page. */
function makePage(data, pager) {
  const page = { items: data.items, ...(data.page_context !== undefined ? { page_context: data.page_context } : {}) };
  Object.defineProperty(page, Symbol.asyncIterator, {
    enumerable: false,
    value: async function* () {
      let current = page;
      for (;;) {
        for (const item of current.items) yield item;
        const ctx = current.page_context;
        if (!ctx || ctx.has_more_page !== true || current.items.length === 0) return;
        const next = Number(ctx.page ?? 1) + 1;
        current = await pager(next);
      }
    },
  });
  return page;
}

function abortReason(signal) {
  const r = signal && signal.reason;
  return r && typeof r.message === "string" ? r.message : "the call was aborted";
}

/**
 * One HTTP attempt. Resolves to { status, contentType, retryAfter, rateLimit..., bytes? | blob? | body? }
 * or rejects with an SvcError of kind timeout, aborted or network. Leaves no timer or listener behind.
 * The rate-limit headers are read for a client with a limiter (`limited`) and for a proxy, which hands
 * them back; `secret` (a forwarding proxy's token) asks for the body as a stream, with the secret redacted.
 */
async function attempt(fetchFn, url, init, signal, timeoutMs, binary, secret, limited) {
  if (signal && signal.aborted) throw new SvcError("aborted", abortReason(signal));
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort(signal.reason);
  if (signal) signal.addEventListener("abort", onAbort, { once: true });
  const timer = timeoutMs > 0 ? setTimeout(() => { timedOut = true; controller.abort(); }, timeoutMs) : undefined;
  init.signal = controller.signal;
  try {
    const res = await fetchFn(url, init);
    const h = res.headers;
    const get = (n) => (h && typeof h.get === "function" ? h.get(n) : null);
    const status = res.status;
    const out = { status, contentType: get("content-type"), retryAfter: status === 429 || status >= 500 || secret != null ? get("retry-after") : null };
    if (limited || secret != null) {
      out.rateLimitLimit = get("x-rate-limit-limit");
      out.rateLimitRemaining = get("x-rate-limit-remaining");
      out.rateLimitReset = get("x-rate-limit-reset");
    }
    if (secret != null) {
      out.contentDisposition = get("content-disposition");
      out.body = redacting(res.body, secret);
      return out;
    }
    const isJson = (out.contentType || "").toLowerCase().includes("json");
    if (binary && !isJson && res.status >= 200 && res.status < 300) out.blob = await res.blob();
    else out.bytes = new Uint8Array(await res.arrayBuffer());
    return out;
  } catch (e) {
    if (e instanceof SvcError) throw e;
    if (timedOut) throw new SvcError("timeout", `no answer within ${timeoutMs} ms`);
    if (signal && signal.aborted) throw new SvcError("aborted", abortReason(signal));
    throw new SvcError("network", `the request failed: ${e && e.message ? e.message : String(e)}`);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (signal) signal.removeEventListener("abort", onAbort);
  }
}

/** Lets go of an attempt's unread body stream (an answer that is retried). */
function discard(answer) {
  const body = answer && answer.body;
  if (body && typeof body.cancel === "function") body.cancel().catch(() => {});
}

/** A body stream in which every occurrence of `secret` reads `[redacted]`, also across chunk edges. */
export function redacting(body, secret) {
  if (!body || !secret) return body ?? null;
  const enc = new TextEncoder();
  const needle = enc.encode(secret);
  const mark = enc.encode("[redacted]");
  let carry = new Uint8Array(0);
  const find = (buf, from) => {
    for (let i = buf.indexOf(needle[0], from); i !== -1 && i <= buf.length - needle.length; i = buf.indexOf(needle[0], i + 1)) {
      let j = 1;
      while (j < needle.length && buf[i + j] === needle[j]) j++;
      if (j === needle.length) return i;
    }
    return -1;
  };
  const pass = (buf, last, controller) => {
    let start = 0;
    for (let i = find(buf, 0); i !== -1; i = find(buf, start)) {
      if (i > start) controller.enqueue(buf.slice(start, i));
      controller.enqueue(mark.slice());
      start = i + needle.length;
    }
    const keep = last ? 0 : Math.min(needle.length - 1, buf.length - start);
    if (buf.length - keep > start) controller.enqueue(buf.slice(start, buf.length - keep));
    carry = buf.slice(buf.length - keep);
  };
  return body.pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        const buf = new Uint8Array(carry.length + chunk.length);
        buf.set(carry);
        buf.set(chunk, carry.length);
        pass(buf, false, controller);
      },
      flush(controller) {
        pass(carry, true, controller);
      },
    }),
  );
}

/** Waits `ms`, or rejects with kind aborted when the signal fires first. */
function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal && signal.aborted) return reject(new SvcError("aborted", abortReason(signal)));
    const onAbort = () => { clearTimeout(t); reject(new SvcError("aborted", abortReason(signal))); };
    const t = setTimeout(() => { if (signal) signal.removeEventListener("abort", onAbort); resolve(); }, ms);
    if (signal) signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * A wait that ends when `wake` is called, after `ms` (when given), or rejects when the signal aborts.
 * Returns { promise, wake }; nothing is left behind once it settles.
 */
function wakeable(ms, signal) {
  let wake;
  const promise = new Promise((resolve, reject) => {
    let timer;
    const done = () => {
      if (timer !== undefined) clearTimeout(timer);
      if (signal) signal.removeEventListener("abort", onAbort);
    };
    const onAbort = () => { done(); reject(new SvcError("aborted", abortReason(signal))); };
    wake = () => { done(); resolve(); };
    if (signal && signal.aborted) return onAbort();
    if (signal) signal.addEventListener("abort", onAbort, { once: true });
    if (typeof ms === "number") timer = setTimeout(wake, ms);
  });
  return { promise, wake };
}

// ---- the send loop ----

/**
 * A call as the wasm builds it (`Client::call_of`): `lines` are the method, the URL, and each
 * header's name and value; `index` is the operation's place in the table, and `op` its id (set by
 * whoever starts the call: "" for `request()`).
 */
export function callOf(index, pathParams, lines, body, field, files, kind, options) {
  const parts = lines.split("\n");
  const headers = {};
  for (let i = 2; i + 1 < parts.length; i += 2) headers[parts[i]] = parts[i + 1];
  return { op: "", index, pathParams, method: parts[0], url: parts[1], headers, body: field ? formData(field, files) : (body ?? undefined), kind, options: options ?? {}, args: undefined };
}

/** What the send loop needs of a client's options (`Client::transport`). */
export function transportOf(fetch, token, timeoutMs, maxRetries, limited) {
  return { fetch, token, timeoutMs, maxRetries, limited };
}

/** Per client: its transport, the calls waiting in its limiter's queue, and its token refresh. */
const states = new WeakMap();

function stateOf(client) {
  let s = states.get(client);
  if (s === undefined) {
    s = { ...client.__transport(), waiters: new Map(), generation: 0, refreshing: undefined };
    states.set(client, s);
  }
  return s;
}

const viaGlobalFetch = (url, init) => globalThis.fetch(url, init);

/** Calls operation `id` with the method's arguments: checked and built in wasm, then sent. */
export function invoke(client, id, args) {
  let call;
  try {
    call = client.__start(id, args);
  } catch (e) {
    return Promise.reject(e);
  }
  call.op = id;
  call.args = args;
  return send(client, call);
}

/** `client.request(...)`: a call that is not in the table. */
export function request(client, method, family, path, init, options) {
  try {
    return send(client, client.__startRequest(method, family, path, init, options));
  } catch (e) {
    return Promise.reject(e);
  }
}

/** The edge proxy's upstream call: its answer as it came (the body a stream, the token redacted). */
export function forward(client, id, pathParams, params) {
  let call;
  try {
    call = client.__startForward(id, pathParams, params);
  } catch (e) {
    return Promise.reject(e);
  }
  call.op = id;
  return send(client, call);
}

/** The next page of a list call: the same arguments with `page` set. */
function nextPage(client, call, page) {
  const args = call.args.slice();
  while (args.length <= call.pathParams) args.push(undefined);
  args[call.pathParams] = { ...(args[call.pathParams] ?? {}), page };
  return invoke(client, call.op, args);
}

function tokenError(why) {
  return new SvcError("unauthorized", `the accessToken function ${why}`);
}

/** Calls the token function: a string, or a promise of one. */
function callToken(fn) {
  try {
    return Promise.resolve(fn());
  } catch {
    return Promise.reject(tokenError("threw an error"));
  }
}

async function tokenFrom(promise) {
  let token;
  try {
    token = await promise;
  } catch (e) {
    throw e instanceof SvcError && e.kind === "unauthorized" ? e : tokenError("rejected");
  }
  if (typeof token !== "string" || token === "") throw tokenError("must return a non-empty string (or a promise of one)");
  return token;
}

/** After a 401: one refresh shared by every call that saw a 401 with a token of `generation`. */
function refreshedToken(s, generation) {
  if (s.refreshing === undefined || s.generation <= generation) {
    s.refreshing = callToken(s.token);
    s.generation++;
  }
  return tokenFrom(s.refreshing);
}

/** Wakes the call at the head of the limiter's queue so that it asks again. */
function wakeHead(client, s) {
  const head = client.__head();
  const wake = head >= 0 ? s.waiters.get(head) : undefined;
  if (wake !== undefined) {
    s.waiters.delete(head);
    wake();
  }
}

/** Waits for a slot of the limiter; true when the call holds one (to give back with __finish). */
async function admit(client, s, signal) {
  const ticket = client.__enqueue();
  if (ticket < 0) return false;
  for (;;) {
    let ms;
    try {
      ms = client.__poll(ticket);
    } catch (e) {
      wakeHead(client, s);
      throw e;
    }
    if (ms < 0) {
      wakeHead(client, s);
      return true;
    }
    const w = wakeable(ms === Infinity ? undefined : ms, signal);
    s.waiters.set(ticket, w.wake);
    try {
      await w.promise;
    } catch (e) {
      client.__cancel(ticket);
      wakeHead(client, s);
      throw e;
    } finally {
      s.waiters.delete(ticket);
    }
  }
}

/**
 * Sends a call: the token, a slot of the limiter, the attempt, retries as the policy says (a POST
 * never after the server may have acted), and the answer decoded in wasm.
 */
export async function send(client, call) {
  const s = stateOf(client);
  const { signal, timeoutMs = s.timeoutMs, maxRetries = s.maxRetries } = call.options;
  try {
    const fetchFn = s.fetch ?? (typeof globalThis.fetch === "function" ? viaGlobalFetch : undefined);
    if (fetchFn === undefined) throw new SvcError("config", "no global fetch in this runtime: pass options.fetch");
    let retries = 0;
    let uncertain = false;
    let refreshed;
    for (;;) {
      let token;
      let generation = 0;
      if (refreshed !== undefined) {
        [token, refreshed, generation] = [refreshed, undefined, Infinity];
      } else if (s.token !== undefined) {
        generation = s.generation;
        token = await tokenFrom(callToken(s.token));
      }
      const headers = token === undefined ? call.headers : { ...call.headers, Authorization: client.__authorization(token) };
      const secret = call.kind === "raw" ? (token ?? call.headers.Authorization?.slice("Svc-oauthtoken ".length)) : undefined;
      const admitted = s.limited && (await admit(client, s, signal));
      let res;
      let failure;
      try {
        const init = { method: call.method, headers, body: call.body, signal: undefined };
        res = await attempt(fetchFn, call.url, init, signal, timeoutMs, call.kind === "binary", secret, s.limited);
      } catch (e) {
        failure = e;
      } finally {
        if (admitted) {
          client.__finish();
          wakeHead(client, s);
        }
      }
      if (failure !== undefined) {
        if (failure.kind !== "timeout" && failure.kind !== "network") throw failure;
        const ms = client.__retryDelay(call.method, retries, maxRetries, 0, failure.kind === "timeout", undefined);
        if (ms < 0) throw failure;
        await sleep(ms, signal);
        retries++;
        uncertain = true;
        continue;
      }
      const status = res.status;
      if (s.limited) client.__observe(status, res.rateLimitLimit, res.rateLimitRemaining, res.rateLimitReset, res.retryAfter);
      if (status === 401 && s.token !== undefined && generation !== Infinity) {
        discard(res);
        refreshed = await refreshedToken(s, generation);
        continue;
      }
      if (status === 429 || status >= 500) {
        const ms = client.__retryDelay(call.method, retries, maxRetries, status, false, res.retryAfter);
        if (ms >= 0) {
          discard(res);
          await sleep(ms, signal);
          retries++;
          uncertain ||= status >= 500;
          continue;
        }
      }
      if (call.kind === "raw") return res;
      if (res.blob !== undefined) return res.blob;
      const binary = call.kind === "binary";
      const text = client.__decode(call.index, call.method, status, binary ? res.contentType : null, res.bytes, res.retryAfter, uncertain, token);
      if (text === undefined) return new Blob([res.bytes], { type: res.contentType ?? "" });
      const value = JSON.parse(text);
      return call.kind === "list" ? makePage(value, (page) => nextPage(client, call, page)) : value;
    }
  } catch (e) {
    if (e instanceof SvcError && call.op !== "" && e.operationId === undefined) e.operationId = call.op;
    throw e;
  }
}
