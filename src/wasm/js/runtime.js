// The JS half of the client's wasm bindings: an upload's files, the platform's streams (bodies read,
// a proxied body passed on), timers and hooks. The rules, the send loop and the redaction are Rust.
import { __Redactor, __run, __settle } from "../../../../../svc_sdk.js";
import { SvcError } from "./error.js";
import { generation, onRestart, restartOnTrap, timers } from "./core.js";

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
  return { method, url, headers: headersOf(lines), body: body ?? null };
}

/** An object of the headers in `name\nvalue\n` lines. */
function headersOf(lines) {
  const parts = lines.split("\n");
  const headers = {};
  for (let i = 0; i + 1 < parts.length; i += 2) headers[parts[i]] = parts[i + 1];
  return headers;
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

/** `[promise, resolve, reject]`: a promise and the functions that settle it. */
export function deferred() {
  let resolve, reject;
  const promise = new Promise((a, b) => ((resolve = a), (reject = b)));
  return [promise, resolve, reject];
}

/** Runs the core's woken tasks on the microtask queue; a trap in one restarts the core. */
export function scheduleRun() {
  const g = generation;
  queueMicrotask(() => g === generation && guard(__run));
}

/** Calls into the core from a callback of the runtime: a trap restarts it instead of escaping. */
function guard(fn, ...args) {
  try {
    fn(...args);
  } catch (e) {
    restartOnTrap(e);
  }
}

/** Settles wait `id` of the core of generation `g`; a wait of a core since restarted is dropped, and a trap restarts it. */
function settle(g, id, ok, value) {
  if (g === generation) guard(__settle, id, ok, value);
}

/** Settles wait `id` of the core when `promise` settles (a `then` that throws rejects it). */
export function watch(promise, id) {
  const g = generation;
  try {
    promise.then((v) => settle(g, id, true, v), (e) => settle(g, id, false, e));
  } catch (e) {
    queueMicrotask(() => settle(g, id, false, e));
  }
}

/** A timer that settles wait `id` of the core after `ms`. */
export function timer(ms, id) {
  const g = generation;
  const handle = setTimeout(() => {
    timers.delete(handle);
    settle(g, id, true, undefined);
  }, ms);
  timers.add(handle);
  return handle;
}

export function clearTimer(handle) {
  timers.delete(handle);
  clearTimeout(handle);
}

/** Lets go of an unread body. */
export function discard(res) {
  try {
    const body = res && res.body;
    if (body && typeof body.cancel === "function") body.cancel().catch(() => {});
  } catch {
    // A body that cannot even be reached holds nothing to let go of.
  }
}

/**
 * Every byte of an answer's body, or null once it is known to be above `max` bytes. `declared` is
 * the Content-Length when it counts the body's bytes (the core leaves it out for a compressed body):
 * then the body is read whole, else its bytes are counted as they stream.
 */
export async function readAll(res, declared, max) {
  const body = res.body;
  const length = declared == null ? NaN : Number(declared);
  if (length > max) {
    discard(res);
    return null;
  }
  if (!(length <= max) && body && typeof body.getReader === "function") return readStream(body, max);
  const bytes = new Uint8Array(await res.arrayBuffer());
  return bytes.length > max ? null : bytes;
}

/** Every byte of a stream, or null (the stream let go) once more than `max` bytes came. */
export async function readStream(stream, max) {
  const reader = stream.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > max) {
      reader.cancel().catch(() => {});
      return null;
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

/** A proxied answer as a Response: its status, the headers the core passes back (as lines, redacted) and its body, with `secret` redacted. */
export function passBack(res, status, lines, secret, idleMs) {
  // The statuses a Response may not give a body.
  const body = [204, 205, 304].includes(status) ? (discard(res), null) : guarded(res.body, secret, idleMs);
  return new Response(body, { status, headers: headersOf(lines) });
}

/** The `[name, value]` entries of a multipart body. */
export async function formEntries(bytes, type) {
  return [...(await new Response(bytes, { headers: { "content-type": type } }).formData()).entries()];
}

/**
 * A proxied answer's body: every spelling of `secret` reads `[redacted]`, also across chunk edges,
 * and a service that sends nothing for `idleMs` errors the stream (kind timeout) and is let go.
 */
function guarded(body, secret, idleMs) {
  if (!body) return null;
  const reader = body.getReader();
  const redactor = secret ? new __Redactor(secret) : undefined;
  let stop;
  const stopped = new Promise((_, reject) => (stop = reject));
  stopped.catch(() => {});
  const forget = onRestart((e) => stop(e));
  const next = () => {
    if (!(idleMs > 0)) return Promise.race([reader.read(), stopped]);
    let timer;
    const stalled = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new SvcError("timeout", `the service sent nothing more for ${idleMs} ms`)), idleMs);
    });
    return Promise.race([reader.read(), stalled, stopped]).finally(() => clearTimeout(timer));
  };
  let live = redactor;
  const born = generation;
  const done = () => {
    forget();
    if (born === generation) live?.free();
    live = undefined;
  };
  return new ReadableStream({
    async pull(controller) {
      try {
        for (;;) {
          const { done: end, value } = await next();
          if (born !== generation) throw new SvcError("aborted", "the SDK's core was restarted while this answer was passed on: it was cut off");
          const out = live ? (end ? live.finish() : live.push(value)) : value;
          if (out && out.length) controller.enqueue(out);
          if (end) {
            done();
            return controller.close();
          }
          if (out && out.length) return;
        }
      } catch (e) {
        done();
        reader.cancel(e).catch(() => {});
        controller.error(e);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
}

/** An answer's headers as `name\nvalue\n` lines (fetch joins a repeated header's values). */
export function headerLines(res) {
  let lines = "";
  try {
    res.headers.forEach((value, name) => (lines += `${name}\n${value}\n`));
  } catch {
    return "";
  }
  return lines;
}

/** The read-only view of an attempt a hook gets. */
export function hookInfo(operationId, method, url, attempt, status, durationMs) {
  const info = { operationId, method, url, attempt };
  if (status !== undefined) Object.assign(info, { status, durationMs });
  return Object.freeze(info);
}

/** `{ data, response }`: a result and the answer it came in. */
export function withResponse(data, response) {
  return { data, response: JSON.parse(response) };
}

/** An environment variable, where there is an environment the SDK may read without asking (Deno: only with the permission granted). */
export function envVar(name) {
  try {
    const deno = globalThis.Deno;
    if (deno) return deno.permissions.querySync({ name: "env", variable: name }).state === "granted" ? deno.env.get(name) : undefined;
    const value = globalThis.process?.env?.[name];
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The origin of the page the SDK runs in (http or https), if there is one. */
export function pageOrigin() {
  try {
    const origin = globalThis.location?.origin;
    return typeof origin === "string" && /^https?:\/\//.test(origin) ? origin : undefined;
  } catch {
    return undefined;
  }
}
