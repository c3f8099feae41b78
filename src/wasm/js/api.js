// The public surface of svc-sdk, shared by every runtime's entry: the JS Client over the wasm one,
// pages, the proxy and the receivers, with the validation functions of core.js.
import * as core from "../../../../../svc_sdk.js";
import { SvcError } from "./error.js";
import { OPERATION_IDS, REGIONS } from "./catalog.js";
import { call, generation, guarded, info, settling } from "./core.js";
export { SvcError };
export { operations, requiredScopes, schemaFor, validate } from "./core.js";

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

/** A plain copy of an options object, so that later changes by the caller do not reach the core. */
function copied(options, what) {
  if (options === null || typeof options !== "object" || Array.isArray(options)) return options;
  try {
    return { ...options };
  } catch (e) {
    throw new SvcError("config", `${what} could not be read: ${messageOf(e)}`);
  }
}

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

/** Calls a method of a client's wasm half; a failure before anything is sent is a rejection, and a restart of the core ends the call. */
function viaCore(client, name, args, kind = "config") {
  try {
    const c = coreOf(client);
    return settling(guarded(c[name], c, args, kind));
  } catch (e) {
    return Promise.reject(e);
  }
}

/**
 * A page of a list: `items`, `page_context`, and async iteration over every item of every page.
 * `asked` is what asked for it (the call's params); the core says which page comes next, if any.
 */
function makePage(data, pager, asked) {
  const page = { items: data.items, ...(data.page_context !== undefined ? { page_context: data.page_context } : {}) };
  Object.defineProperty(page, Symbol.asyncIterator, {
    enumerable: false,
    value: async function* () {
      let [current, at] = [page, asked];
      for (;;) {
        const next = call("__nextPage", "decode", at, current.page_context, current.items.length);
        for (const item of current.items) yield item;
        if (next === undefined) return;
        [current, at] = [await pager(next), next];
      }
    },
  });
  return page;
}

/** The promise of a call's data, whose `withResponse()` gives `{ data, response }` (the core resolves to both). */
function answered(full) {
  const data = full.then((r) => r.data);
  data.withResponse = () => {
    data.catch(() => {});
    return full;
  };
  return data;
}

/** Calls operation `id` with the method's arguments; a list's answer is a page that fetches the next. */
function invoke(client, id, args) {
  const sent = viaCore(client, "__call", [id, args], "validation");
  const op = info(id);
  if (!op.list) return answered(sent);
  const n = op.pathParams.length;
  const next = (page) => {
    const more = args.slice();
    while (more.length <= n) more.push(undefined);
    more[n] = { ...(more[n] ?? {}), page };
    return invoke(client, id, more);
  };
  return answered(sent.then(({ data, response }) => ({ data: makePage(data, next, args[n]), response })));
}

/** A client of the Svc API. The token only ever goes into the Authorization header. */
export class Client {
  constructor(options) {
    const copy = copied(options, "the options");
    cores.set(this, { options: copy, core: made(copy), generation });
  }

  /** What the limiter allows now: per minute, in flight, today, and what the server last said. */
  rateLimitState() {
    const c = coreOf(this);
    return guarded(c.rateLimitState, c, [], "config");
  }

  /** A call that is not in the table: `request(method, family, path, { query?, body? }, options?)`. */
  request(method, family, path, init, options) {
    return answered(viaCore(this, "__request", [method, family, path, init, options]));
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

/** A notification-channel callback body, checked against the channel's token. */
export function parseWatchNotification(body, options) {
  return call("parseWatchNotification", "decode", body, options);
}

/** A billing event (webhook body or `{ event }` answer) with its event_type checked. */
export function parseEvent(body, options) {
  return call("parseEvent", "decode", body, options);
}

/**
 * An edge handler `(request) => Promise<Response>` that forwards the allowed operations to the
 * service with the token and the organization added: a browser Client points its apiDomain here
 * and never holds the token. Requests are routed by the catalog and validated before forwarding;
 * a body above `maxBodyBytes` is answered with 413, a body without its operation's Content-Type
 * with 415, and a request from an Origin outside `allowedOrigins` (when given) with 403, and none
 * of them is forwarded.
 */
export function createProxy(options) {
  const copy = copied(options, "the options of createProxy");
  const make = () => guarded(Reflect.construct, undefined, [core.__Proxy, [copy]], "config");
  let proxy = make();
  let made = generation;
  const restarted = (error) => call("__proxyFailed", "config", error);
  return function handle(request) {
    try {
      if (made !== generation) [proxy, made] = [make(), generation];
      return settling(guarded(proxy.handle, proxy, [request], "config"), restarted);
    } catch (e) {
      return Promise.reject(e);
    }
  };
}
