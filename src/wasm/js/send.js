// The send loop: a call checked and built (wasm), then the token and its single-flight
// refresh, a slot of the limiter, the attempt with its timeout and abort signal, retries as the
// policy says, the answer decoded, and pages; each decision is asked of the wasm synchronously.
import { SvcError, formData, redact, scrub, wellFormed } from "./runtime.js";

let lookup;
const known = new Map();

/** Tells the send loop where operations are looked up: `(id) => { id, index, pathParams }` (the wasm's `__operation`). */
export function useOperations(operationOf) {
  lookup = operationOf;
}

function operation(id) {
  let op = typeof id === "string" ? known.get(id) : undefined;
  if (op === undefined) {
    op = lookup(id);
    known.set(op.id, op);
  }
  return op;
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

function aborted(signal) {
  return new SvcError("aborted", abortReason(signal));
}

/** The names of the answer's headers a proxy hands back, each value with the token redacted. */
const PASSED_BACK = ["content-type", "content-disposition", "retry-after", "x-rate-limit-limit", "x-rate-limit-remaining", "x-rate-limit-reset"];

/**
 * One HTTP attempt. Resolves to { status, contentType, retryAfter, rateLimit..., bytes? | blob? | body? }
 * or rejects with an SvcError of kind timeout, aborted, network or decode (an answer above
 * `maxBytes`). Leaves no timer or listener behind. The rate-limit headers are read for a client
 * with a limiter (`limited`) and for a proxy, which hands them back; `raw` (a proxy's forward)
 * asks for the body as a stream with the `secret` redacted and that errors when the service stalls.
 */
async function attempt(fetchFn, url, init, signal, timeoutMs, kind, secret, limited, maxBytes) {
  if (signal && signal.aborted) throw aborted(signal);
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort(signal.reason);
  if (signal) signal.addEventListener("abort", onAbort, { once: true });
  const timer = timeoutMs > 0 ? setTimeout(() => { timedOut = true; controller.abort(); }, timeoutMs) : undefined;
  init.signal = controller.signal;
  const raw = kind === "raw";
  try {
    const res = await fetchFn(url, init);
    const h = res.headers;
    const get = (n) => (h && typeof h.get === "function" ? h.get(n) : null);
    const status = res.status;
    const out = { status, contentType: get("content-type"), retryAfter: status === 429 || status >= 500 || raw ? get("retry-after") : null };
    if (limited || raw) {
      out.rateLimitLimit = get("x-rate-limit-limit");
      out.rateLimitRemaining = get("x-rate-limit-remaining");
      out.rateLimitReset = get("x-rate-limit-reset");
    }
    if (raw) {
      out.headers = {};
      for (const name of PASSED_BACK) {
        const v = get(name);
        if (v) out.headers[name] = redactEscaped(v, secret);
      }
      out.body = guarded(res.body, secret, timeoutMs);
      return out;
    }
    const bytes = await readAll(res, get("content-length"), maxBytes);
    const isJson = (out.contentType || "").toLowerCase().includes("json");
    if (kind === "binary" && !isJson && res.status >= 200 && res.status < 300) out.blob = new Blob([bytes], { type: out.contentType ?? "" });
    else out.bytes = bytes;
    return out;
  } catch (e) {
    if (e instanceof SvcError) throw e;
    if (timedOut) throw new SvcError("timeout", `no answer within ${timeoutMs} ms`);
    if (signal && signal.aborted) throw aborted(signal);
    throw networkError(e, url, secret);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (signal) signal.removeEventListener("abort", onAbort);
  }
}

/** The message of anything thrown, without throwing. */
export function messageOf(e) {
  try {
    return e && typeof e.message === "string" ? e.message : String(e);
  } catch {
    return "an error that could not be read";
  }
}

/** A network failure: the host and the underlying code, with the cause kept and the token out of all of it. */
function networkError(e, url, secret) {
  let host = "the service";
  try {
    host = new URL(url).host;
  } catch {
    // A URL the wasm built always parses; a custom fetch may still have thrown before using it.
  }
  let inner;
  try {
    inner = e && e.cause !== undefined ? e.cause : undefined;
  } catch {
    inner = undefined;
  }
  const codeOf = (x) => {
    try {
      return x && typeof x.code === "string" ? x.code : undefined;
    } catch {
      return undefined;
    }
  };
  const code = codeOf(inner) ?? codeOf(e);
  const what = redact(messageOf(e), secret);
  const cause = new Error(redact(inner !== undefined ? messageOf(inner) : what, secret));
  if (code !== undefined) cause.code = code;
  cause.host = host;
  return new SvcError("network", `the request to ${host} failed: ${what}${code !== undefined ? ` (${code})` : ""}`, { cause });
}

function tooLarge(max) {
  return new SvcError("decode", `the answer is larger than maxResponseBytes (${max} bytes) and was not read; raise maxResponseBytes if such an answer is expected`);
}

/** An answer's body, refused as soon as it is known to be above `max` bytes. */
async function readAll(res, declared, max) {
  const length = declared === null ? NaN : Number(declared);
  const body = res.body;
  if (length > max) {
    if (body && typeof body.cancel === "function") body.cancel().catch(() => {});
    throw tooLarge(max);
  }
  if (length <= max || !body || typeof body.getReader !== "function") {
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (bytes.length > max) throw tooLarge(max);
    return bytes;
  }
  return readStream(body, max, () => tooLarge(max));
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

/** Lets go of an attempt's unread body stream (an answer that is retried). */
function discard(answer) {
  const body = answer && answer.body;
  if (body && typeof body.cancel === "function") body.cancel().catch(() => {});
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

/** The wasm half of a client, made anew when the wasm instance was (see `api.js`). */
function core(client) {
  if (client === null || typeof client !== "object" || typeof client.__core !== "function") {
    throw new SvcError("config", "this method needs a Client made with new Client(options)");
  }
  return client.__core();
}

/**
 * A call as the wasm builds it (`Client::call_of`): `lines` are the method, the URL, and each
 * header's name and value. `op` (the operation's id) and `index` (its place in the table) are set
 * by `build`; a `request()` call has neither.
 */
export function callOf(lines, body, field, files, kind, options) {
  const parts = lines.split("\n");
  const headers = {};
  for (let i = 2; i + 1 < parts.length; i += 2) headers[parts[i]] = parts[i + 1];
  return { op: "", index: -1, method: parts[0], url: parts[1], headers, body: field ? formData(field, files) : (body ?? undefined), kind, options: options ?? {}, args: undefined };
}

/** What the send loop needs of a client's options (`Client::transport`). */
export function transportOf(fetch, token, secret, timeoutMs, maxRetries, limited, maxResponseBytes) {
  return { fetch, token, secret, timeoutMs, maxRetries, limited, maxResponseBytes };
}

/** Per client: its transport, the calls waiting in its limiter's queue, and its token refresh. */
const states = new WeakMap();

function stateOf(client) {
  let s = states.get(client);
  if (s === undefined) {
    s = { ...core(client).__transport(), waiters: new Map(), generation: 0, refreshing: undefined };
    states.set(client, s);
  }
  return s;
}

/** The wakes of every call waiting for a limiter, so that a new wasm instance can wake them all. */
const sleepers = new Set();

/** Wakes every waiting call: their limiters went with the wasm instance, so they queue again. */
export function wakeAll() {
  for (const wake of [...sleepers]) wake();
}

const viaGlobalFetch = (url, init) => globalThis.fetch(url, init);

function configError(message, operationId) {
  return new SvcError("config", message, { operationId });
}

/** Path params, params and options from the arguments of an operation method, checked. */
function split(op, args) {
  const names = op.pathParams;
  const n = names.length;
  const usage = () => `${op.id}(${[...names.map((p) => `${p}: string`), "params?", "options?"].join(", ")})`;
  for (let i = 0; i < n; i++) {
    if (typeof args[i] === "string") {
      if (wellFormed(args[i])) continue;
      const message = `${names[i]} holds a lone surrogate: it is not Unicode text and cannot be sent as it is`;
      const issues = [{ path: [names[i]], code: "invalid_format", message, format: "Unicode text" }];
      throw new SvcError("validation", `invalid params: ${message}`, { issues, operationId: op.id });
    }
    throw configError(
      args[i] === undefined
        ? `${names[i]} is missing: call ${usage()}`
        : `${names[i]} must be a string (ids are strings so that no digit is lost): call ${usage()}`,
      op.id,
    );
  }
  for (let i = n + 2; i < args.length; i++) {
    if (args[i] !== undefined) throw configError(`too many arguments: call ${usage()}`, op.id);
  }
  return [args.slice(0, n), args[n], args[n + 1]];
}

/** A call of operation `op`: its params validated and its request built in wasm. */
function build(client, op, path, params, bare) {
  const call = core(client).__build(op.index, path, params, bare);
  call.op = op.id;
  call.index = op.index;
  return call;
}

/** Calls operation `id` with the method's arguments: checked, built, then sent. */
export function invoke(client, id, args) {
  let call;
  try {
    const op = operation(id);
    const [path, params, options] = split(op, args);
    if (options !== undefined && options !== null) {
      try {
        core(client).__checkCallOptions(options);
      } catch (e) {
        if (e instanceof SvcError) e.operationId ??= op.id;
        throw e;
      }
    }
    call = build(client, op, path, params, false);
    call.options = options ?? {};
  } catch (e) {
    return Promise.reject(e);
  }
  call.args = args;
  return send(client, call);
}

/** `client.prepare(id, ...pathParams, params?)`: the request an operation would send; nothing is sent. */
export function prepare(client, id, args) {
  try {
    const op = operation(id);
    const [path, params, options] = split(op, [...args, undefined]);
    if (options !== undefined) throw configError(`prepare takes (${op.id}, ...pathParams, params?)`);
    const call = build(client, op, path, params, true);
    return Promise.resolve({ method: call.method, url: call.url, headers: call.headers, body: call.body ?? null });
  } catch (e) {
    return Promise.reject(e);
  }
}

/** `client.request(...)`: a call that is not in the table. */
export function request(client, method, family, path, init, options) {
  try {
    if (typeof path === "string" && !wellFormed(path)) {
      throw new SvcError("config", "path holds a lone surrogate: it is not Unicode text and cannot be sent as it is");
    }
    return send(client, core(client).__startRequest(method, family, path, init, options));
  } catch (e) {
    return Promise.reject(e);
  }
}

/** The edge proxy's upstream call: its answer as it came (the body a stream, the token redacted). */
export function forward(client, id, pathParams, params) {
  let call;
  try {
    call = build(client, operation(id), pathParams.map(String), params, false);
  } catch (e) {
    return Promise.reject(e);
  }
  call.kind = "raw";
  return send(client, call);
}

/** The next page of a list call: the same arguments with `page` set. */
function nextPage(client, call, page) {
  const n = operation(call.op).pathParams.length;
  const args = call.args.slice();
  while (args.length <= n) args.push(undefined);
  args[n] = { ...(args[n] ?? {}), page };
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

/** `promise`, or a rejection of kind aborted as soon as the signal fires. */
function unlessAborted(promise, signal) {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(aborted(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(aborted(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => { signal.removeEventListener("abort", onAbort); resolve(v); },
      (e) => { signal.removeEventListener("abort", onAbort); reject(e); },
    );
  });
}

async function tokenFrom(promise, signal) {
  let token;
  try {
    token = await unlessAborted(promise, signal);
  } catch (e) {
    throw e instanceof SvcError && (e.kind === "unauthorized" || e.kind === "aborted") ? e : tokenError("rejected");
  }
  if (typeof token !== "string" || token === "") throw tokenError("must return a non-empty string (or a promise of one)");
  return token;
}

/** After a 401: one refresh shared by every call that saw a 401 with a token of `generation`. */
function refreshedToken(s, generation, signal) {
  if (s.refreshing === undefined || s.generation <= generation) {
    s.refreshing = callToken(s.token);
    s.refreshing.catch(() => {});
    s.generation++;
  }
  return tokenFrom(s.refreshing, signal);
}

/** Wakes the call at the head of the limiter's queue so that it asks again. */
function wakeHead(client, s) {
  const head = core(client).__head();
  const wake = head >= 0 ? s.waiters.get(head) : undefined;
  if (wake !== undefined) {
    s.waiters.delete(head);
    wake();
  }
}

/**
 * Waits for a slot of the limiter. Resolves to the wasm client that holds the slot (to give it
 * back with __finish), or undefined without a limiter.
 */
async function admit(client, s, signal) {
  for (;;) {
    const limiter = core(client);
    const ticket = limiter.__enqueue();
    if (ticket < 0) return undefined;
    for (;;) {
      if (core(client) !== limiter) break;
      let ms;
      try {
        ms = limiter.__poll(ticket);
      } catch (e) {
        wakeHead(client, s);
        throw e;
      }
      if (ms < 0) {
        wakeHead(client, s);
        return limiter;
      }
      const w = wakeable(ms === Infinity ? undefined : ms, signal);
      s.waiters.set(ticket, w.wake);
      sleepers.add(w.wake);
      try {
        await w.promise;
      } catch (e) {
        if (core(client) === limiter) {
          limiter.__cancel(ticket);
          wakeHead(client, s);
        }
        throw e;
      } finally {
        s.waiters.delete(ticket);
        sleepers.delete(w.wake);
      }
    }
  }
}

/**
 * Sends a call: the token, a slot of the limiter, the attempt, retries as the policy says (a POST
 * never after the server may have acted), and the answer decoded in wasm. No error leaves it with
 * the token in it, whoever wrote the error.
 */
async function send(client, call) {
  const s = stateOf(client);
  let secret;
  const { signal, timeoutMs = s.timeoutMs, maxRetries = s.maxRetries } = call.options;
  try {
    const fetchFn = s.fetch ?? (typeof globalThis.fetch === "function" ? viaGlobalFetch : undefined);
    if (fetchFn === undefined) throw new SvcError("config", "no global fetch in this runtime: pass options.fetch");
    secret = s.secret;
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
        token = await tokenFrom(callToken(s.token), signal);
      }
      if (token !== undefined) secret = token;
      const headers = token === undefined ? call.headers : { ...call.headers, Authorization: core(client).__authorization(token) };
      const admitted = s.limited ? await admit(client, s, signal) : undefined;
      let res;
      let failure;
      try {
        const init = { method: call.method, headers, body: call.body, signal: undefined };
        res = await attempt(fetchFn, call.url, init, signal, timeoutMs, call.kind, secret, s.limited, s.maxResponseBytes);
      } catch (e) {
        failure = e;
      } finally {
        if (admitted !== undefined && core(client) === admitted) {
          admitted.__finish();
          wakeHead(client, s);
        }
      }
      if (failure !== undefined) {
        if (failure.kind !== "timeout" && failure.kind !== "network") throw failure;
        const ms = core(client).__retryDelay(call.method, retries, maxRetries, 0, failure.kind === "timeout", undefined);
        if (ms < 0) throw failure;
        await sleep(ms, signal);
        retries++;
        uncertain = true;
        continue;
      }
      const status = res.status;
      if (s.limited) core(client).__observe(status, res.rateLimitLimit, res.rateLimitRemaining, res.rateLimitReset, res.retryAfter);
      if (status === 401 && s.token !== undefined && generation !== Infinity) {
        discard(res);
        refreshed = await refreshedToken(s, generation, signal);
        continue;
      }
      if (status === 429 || status >= 500) {
        const ms = core(client).__retryDelay(call.method, retries, maxRetries, status, false, res.retryAfter);
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
      const text = core(client).__decode(call.index, call.method, status, binary ? res.contentType : null, res.bytes, res.retryAfter, uncertain, token);
      if (text === undefined) return new Blob([res.bytes], { type: res.contentType ?? "" });
      const value = JSON.parse(text);
      return call.kind === "list" ? makePage(value, (page) => nextPage(client, call, page)) : value;
    }
  } catch (e) {
    if (e instanceof SvcError && call.op !== "" && e.operationId === undefined) e.operationId = call.op;
    throw scrub(e, secret);
  }
}
