// The send loop: a call checked (rules.js) and built (wasm), then the token and its single-flight
// refresh, a slot of the limiter, the attempt with its timeout and abort signal, retries as the
// policy says, the answer decoded, and pages; each decision is asked of the wasm synchronously.
import { SvcError, formData, readOptions } from "./runtime.js";
import { checkParams, operation } from "./rules.js";

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
function redacting(body, secret) {
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

function configError(message, operationId) {
  return new SvcError("config", message, { operationId });
}

/** Path params, params and options from the arguments of an operation method, checked. */
function split(op, args) {
  const names = op.pathParams;
  const n = names.length;
  const usage = () => `${op.id}(${[...names.map((p) => `${p}: string`), "params?", "options?"].join(", ")})`;
  for (let i = 0; i < n; i++) {
    if (typeof args[i] === "string") continue;
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

/** A call of operation `op` (rules.js's): its params validated, its request built in wasm. */
function build(client, op, path, params, bare) {
  const { files, value } = checkParams(op, params);
  let json;
  if (value !== undefined && value !== null) {
    try {
      json = JSON.stringify(value);
    } catch (e) {
      throw new SvcError("validation", `invalid params: params could not be read: ${e && e.message}`, { operationId: op.id });
    }
  }
  const call = client.__build(op.index, path, json, files, bare);
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
    let checked;
    try {
      checked = options === undefined ? undefined : readOptions(options);
    } catch (e) {
      e.operationId ??= op.id;
      throw e;
    }
    call = build(client, op, path, params, false);
    call.options = checked ?? {};
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
    return send(client, client.__startRequest(method, family, path, init, options));
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
async function send(client, call) {
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
