// The public surface of svc-sdk, shared by every runtime's entry: the wasm's exports, each call
// guarded so that a failing core restarts, the JS Client over the wasm one, pages and the proxy.
import * as core from "../../../../../svc_sdk.js";
import { SvcError, readStream } from "./runtime.js";
import { OPERATION_IDS, REGIONS } from "./catalog.js";
export { SvcError };

let generation = 0;

/**
 * Calls into the wasm. A trap (a bug, or memory spent on an input above the limits the user
 * raised) starts a new wasm instance, so that every Client made before keeps working; the caller
 * gets an SvcError of `kind`.
 */
function guarded(fn, self, args, kind) {
  try {
    return Reflect.apply(fn, self, args);
  } catch (e) {
    if (!(e instanceof WebAssembly.RuntimeError)) throw e;
    core.__wbg_reset_state();
    generation++;
    throw new SvcError(kind, `the SDK's core failed on this input (${e.message}) and was restarted; every client keeps working`);
  }
}

const call = (name, kind, ...args) => guarded(core[name], undefined, args, kind);

/** The message of anything thrown, without throwing. */
function messageOf(e) {
  try {
    return e && typeof e.message === "string" ? e.message : String(e);
  } catch {
    return "an error that could not be read";
  }
}

/** The regions and their API domains. */
export const regions = Object.freeze(REGIONS);

/** Per Client: the options it was made with, its wasm half, and the instance that half lives in. */
const cores = new WeakMap();

function made(options) {
  return guarded(Reflect.construct, undefined, [core.Client, [options]], "config");
}

/** The wasm half of a client, made anew from the same options after the instance was restarted. */
function coreOf(client) {
  const s = client !== null && typeof client === "object" ? cores.get(client) : undefined;
  if (s === undefined) throw new SvcError("config", "this method needs a Client made with new Client(options)");
  if (s.core === undefined) throw new SvcError("config", "this Client was freed (client.free()): make a new one");
  if (s.generation !== generation) {
    s.core = made(s.options);
    s.generation = generation;
  }
  return s.core;
}

/** Calls a method of a client's wasm half; a failure before anything is sent is a rejection. */
function viaCore(client, name, args, kind = "config") {
  try {
    const c = coreOf(client);
    return guarded(c[name], c, args, kind);
  } catch (e) {
    return Promise.reject(e);
  }
}

const infos = new Map();

function info(id) {
  let op = infos.get(id);
  if (op === undefined) infos.set(id, (op = call("__operation", "config", id)));
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
        current = await pager(Number(ctx.page ?? 1) + 1);
      }
    },
  });
  return page;
}

/** Calls operation `id` with the method's arguments; a list's answer is a page that fetches the next. */
function invoke(client, id, args) {
  const sent = viaCore(client, "__call", [id, args], "validation");
  const op = info(id);
  if (!op.list) return sent;
  const n = op.pathParams.length;
  return sent.then((value) =>
    makePage(value, (page) => {
      const next = args.slice();
      while (next.length <= n) next.push(undefined);
      next[n] = { ...(next[n] ?? {}), page };
      return invoke(client, id, next);
    }),
  );
}

/** A client of the Svc API. The token only ever goes into the Authorization header. */
export class Client {
  constructor(options) {
    let copy = options;
    if (options !== null && typeof options === "object" && !Array.isArray(options)) {
      try {
        copy = { ...options };
      } catch (e) {
        throw new SvcError("config", `the options could not be read: ${messageOf(e)}`);
      }
    }
    cores.set(this, { options: copy, core: made(copy), generation });
  }

  /** What the limiter allows now: per minute, in flight, today, and what the server last said. */
  rateLimitState() {
    const c = coreOf(this);
    return guarded(c.rateLimitState, c, [], "config");
  }

  /** A call that is not in the table: `request(method, family, path, { query?, body? }, options?)`. */
  request(method, family, path, init, options) {
    return viaCore(this, "__request", [method, family, path, init, options]);
  }

  /** The request an operation would send, validated; nothing is sent. The Authorization header is left out. */
  prepare(id, ...args) {
    return viaCore(this, "__prepare", [id, args], "validation");
  }

  /** Lets go of the client's wasm memory; the client takes no more calls. */
  free() {
    const s = cores.get(this);
    if (s === undefined || s.core === undefined) return;
    const old = s.core;
    s.core = undefined;
    if (s.generation === generation) old.free();
  }

  [Symbol.dispose]() {
    this.free();
  }
}

// One method per catalog row, each checked, built and sent by the wasm.
for (const id of OPERATION_IDS) {
  const method = { [id](...args) { return invoke(this, id, args); } }[id];
  Object.defineProperty(Client.prototype, id, { value: method, writable: true, configurable: true });
}

/** Every operation of the table: `{ id, family, method, path, scope, pathParams }`. */
export function operations() {
  return call("operations", "config");
}

/** The sorted, unique scopes the given operations need. */
export function requiredScopes(ids) {
  return call("requiredScopes", "config", ids);
}

/** A notification-channel callback body, checked against the channel's token. */
export function parseWatchNotification(body, options) {
  return call("parseWatchNotification", "decode", body, options);
}

/** A billing event (webhook body or `{ event }` answer) with its event_type checked. */
export function parseEvent(body, options) {
  return call("parseEvent", "decode", body, options);
}

/** Checks params of an operation without sending anything: `{ ok: true }` or `{ ok: false, issues }`. */
export function validate(operationId, params) {
  return call("validate", "validation", operationId, params);
}

/** A Standard Schema v1 object for the params of an operation (react-hook-form, any Standard Schema consumer). */
export function schemaFor(operationId) {
  info(operationId);
  return Object.freeze({
    "~standard": Object.freeze({
      version: 1,
      vendor: "svc-sdk",
      validate(value) {
        const result = validate(operationId, value);
        return result.ok ? { value } : { issues: result.issues };
      },
    }),
  });
}

// ---- the edge proxy ----

function answer(status, body) {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

function isRequest(r) {
  return r !== null && typeof r === "object" && typeof r.url === "string" && typeof r.method === "string" && r.headers !== null && typeof r.headers === "object" && typeof r.headers.get === "function";
}

/**
 * An edge handler `(request) => Promise<Response>` that forwards the allowed operations to the
 * service with the token and the organization added: a browser Client points its apiDomain here
 * and never holds the token. Requests are routed by the catalog and validated before forwarding;
 * a body above `maxBodyBytes` is answered with 413 and never forwarded.
 */
export function createProxy(options) {
  let allow, maxBodyBytes, clientOptions;
  try {
    ({ allow, maxBodyBytes, ...clientOptions } = options ?? {});
  } catch (e) {
    throw new SvcError("config", `the options of createProxy could not be read: ${messageOf(e)}`);
  }
  if (!Array.isArray(allow) || allow.length === 0) {
    throw new SvcError("config", "createProxy needs allow: the operation ids it forwards");
  }
  const known = new Set(operations().map((o) => o.id));
  for (const id of allow) {
    if (typeof id !== "string" || !known.has(id)) {
      throw new SvcError("config", `allow names an unknown operation ${typeof id === "string" ? JSON.stringify(id) : `(a ${typeof id}, not an operation id)`}`);
    }
  }
  if (clientOptions.accessToken === undefined) throw new SvcError("config", "createProxy needs the accessToken it adds");
  const limit = call("__proxyBodyLimit", "config", { maxBodyBytes });
  const allowed = new Set(allow);
  const client = new Client(clientOptions);
  const tooLarge = () => answer(413, { code: 1413, message: `the request body is larger than maxBodyBytes (${limit} bytes)` });
  return async function proxy(request) {
    if (!isRequest(request)) throw new SvcError("config", "proxy(request) takes the Request the runtime hands over");
    let plan;
    try {
      const url = new URL(request.url);
      const type = request.headers.get("content-type") ?? "";
      if (Number(request.headers.get("content-length")) > limit) return tooLarge();
      const withBody = request.method !== "GET" && request.method !== "DELETE" && request.method !== "HEAD" && request.body;
      let bytes = null;
      if (withBody) {
        bytes = await readStream(request.body, limit);
        if (bytes === null) return tooLarge();
      }
      const multipart = type.startsWith("multipart/form-data");
      const body = bytes === null || multipart ? null : new TextDecoder().decode(bytes);
      plan = call("__proxyPlan", "decode", request.method, url.pathname, url.search.slice(1), Object.fromEntries(request.headers), body);
      if (!allowed.has(plan.opId)) {
        return answer(403, { code: 1403, message: `this proxy does not forward ${plan.opId}` });
      }
      if (plan.files) {
        const files = [];
        const form = await new Response(bytes ?? new Uint8Array(0), { headers: { "content-type": type } }).formData();
        for (const [key, value] of form.entries()) {
          if (typeof value === "string") plan.params[key] = value;
          else files.push(value);
        }
        plan.params[plan.files.param] = plan.files.many ? files : files[0];
      }
    } catch (e) {
      const status = e instanceof SvcError && e.status ? e.status : 400;
      return answer(status, { code: 1000 + status, message: e instanceof SvcError ? e.message : "the request could not be read" });
    }
    try {
      const res = await viaCore(client, "__forward", [plan.opId, plan.pathParams.map(String), plan.params], "validation");
      return new Response(res.body, { status: res.status, headers: res.headers });
    } catch (e) {
      if (e instanceof SvcError && e.kind === "validation") {
        return answer(400, { code: 1001, message: e.message, issues: e.issues ?? [] });
      }
      const status = e instanceof SvcError && e.kind === "timeout" ? 504 : e instanceof SvcError && e.kind === "rate_limited" ? 429 : 502;
      return answer(status, { code: 1000, message: e instanceof SvcError ? e.message : "the service could not be reached" });
    }
  };
}
