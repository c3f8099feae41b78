// The public surface of svc-sdk, shared by every runtime's entry. The platform makes this JS: a Client
// and a proxy must outlive a restart of the core (their wasm half is made anew, from a copy of their
// options), a call's promise carries withResponse() and its error the caller's stack, and a list's
// promise and page are async iterables, which toArray() gathers. Which page comes next, how many items
// toArray() may gather, and every rule and message, are the core's.
import * as core from "../../../../../svc_sdk.js";
import { FAMILIES } from "./catalog.js";
import { call, generation, guarded, info, settling } from "./core.js";
export { SvcError } from "./error.js";
export { ExactNumber } from "./exact.js";
// The regions with their API domains and accounts servers, and the service's documented error codes, from the core's tables.
export { accountsServers, ErrorCode, regions } from "./catalog.js";
export { operations, requiredScopes, schemaFor, validate } from "./core.js";

/** Per Client: the options it was made with, its wasm half, and the instance that half lives in. */
const cores = new WeakMap();

const made = (Class, options) => guarded(Reflect.construct, undefined, [Class, [options]], "config");

/** The wasm half of a client, made anew from the same options after the instance was restarted. */
function coreOf(client) {
  const s = client !== null && typeof client === "object" ? cores.get(client) : undefined;
  if (s?.core === undefined) throw call("__misused", "config", s !== undefined);
  if (s.generation !== generation) [s.core, s.generation] = [s.make ? s.make() : made(core.Client, s.options), generation];
  return s.core;
}

/** Calls a method of a client's wasm half. */
function inCore(client, name, args, kind) {
  const c = coreOf(client);
  return guarded(c[name], c, args, kind);
}

/**
 * Calls a method of a client's wasm half that answers later: a failure before anything is sent is a
 * rejection, and a restart of the core ends the call. The caller's stack is taken when the call starts
 * (its frames are formatted only if the call fails), and the core adds it to the error's.
 */
const viaCore = (client, name, args, kind = "config", site = new Error()) =>
  new Promise((resolve) => resolve(settling(inCore(client, name, args, kind)))).catch((e) => Promise.reject(call("__calledFrom", "config", e, site)));

/** The promise of a call's data, whose `withResponse()` gives `{ data, response }` (the core resolves to both). */
function answered(full) {
  const data = full.then((r) => r.data);
  data.withResponse = () => (data.catch(() => {}), full);
  return data;
}

/** Every item from `page` on: whether another page follows is asked before its items are given. */
async function* pages(page) {
  for (let more = true; more; page = more && (await page.getNextPage())) {
    more = page.hasNextPage();
    yield* page.items;
  }
}

/** Every item that `this` (a page, or a list's promise) iterates over, in one array: one more than `max` (10000 unless given) is a config SvcError. */
async function toArray(options) {
  const [all, max] = [[], call("__maxItems", "config", options)];
  for await (const item of this) if (all.push(item) > max) throw call("__tooMany", "config", max);
  return all;
}

/** A list's page with hasNextPage(), getNextPage() and an iterator over every item from it on. */
function paged(client, id, page, args) {
  const next = (required) => call("__nextArgs", "decode", id, args, page.page_context, page.items.length, required);
  return Object.defineProperties(page, {
    hasNextPage: { value: () => next(false) !== undefined },
    getNextPage: { value: async () => invoke(client, id, next(true)) },
    [Symbol.asyncIterator]: { value: () => pages(page) },
    toArray: { value: toArray },
  });
}

/** Calls operation `id` with the method's arguments; a list's promise, and the page it gives, iterate over (and toArray() gathers) every item of every page. */
function invoke(client, id, args) {
  const sent = viaCore(client, "__call", [id, args], "validation");
  if (!info(id).list) return answered(sent);
  const data = answered(sent.then(({ data, response }) => ({ data: paged(client, id, data, args), response })));
  return Object.defineProperties(data, { [Symbol.asyncIterator]: { value: async function* () { yield* await data; } }, toArray: { value: toArray } });
}

/** A client of the Svc API. The token only ever goes into the Authorization header. */
export class Client {
  constructor(options) {
    const copy = call("__copied", "config", options, "the options");
    cores.set(this, { options: copy, core: made(core.Client, copy), generation });
  }

  /** What the limiter allows now: per minute, in flight, today, and what the server last said. */
  rateLimitState() { return inCore(this, "rateLimitState", [], "config"); }

  /** A call that is not in the table: `request(method, family, path, { query?, body? }, options?)`. */
  request(method, family, path, init, options) { return answered(viaCore(this, "__request", [method, family, path, init, options])); }

  /** The request an operation would send, validated; nothing is sent. The Authorization header is left out. */
  prepare(id, ...args) { return viaCore(this, "__prepare", [id, args], "validation"); }

  /** Lets go of the client's wasm memory; the client takes no more calls. */
  free() {
    const s = cores.get(this) ?? {}, old = s.generation === generation ? s.core : undefined;
    s.core = undefined;
    old?.free();
  }

  [Symbol.dispose]() { this.free(); }
}

/**
 * `target` seen through the core's table: the id of the row the client calls `name` (in `family`'s
 * namespace when given) is asked on first use, its method `make(id)` then kept on `keep`.
 */
function finding(target, keep, family, make) {
  const find = (name) => { try { return name in target || typeof name !== "string" ? undefined : call("__operationNamed", "config", family, name); } catch {} };
  const get = (t, name, r, id = find(name)) => (id === undefined ? Reflect.get(t, name, r) : Object.defineProperty(keep, name, { value: make(id), writable: true, configurable: true })[name]);
  return new Proxy(target, { get, has: (t, name) => name in t || find(name) !== undefined });
}

// Every operation is a method of Client, checked, built and sent by the wasm, whose table alone holds the
// ids; each family is a namespace of a client under its rows' names there (`client.books.createContact`).
Object.setPrototypeOf(Client.prototype, finding(Object.prototype, Client.prototype, undefined, (id) => ({ [id](...args) { return invoke(this, id, args); } })[id]));
const spaces = new WeakMap();
for (const family of FAMILIES) Object.defineProperty(Client.prototype, family, { get() { const own = spaces.get(this) ?? spaces.set(this, {}).get(this), space = Object.create(null); return (own[family] ??= finding(space, space, family, (id) => (...args) => invoke(this, id, args))); } });

/** A notification-channel callback body, checked against the channel's token. */
export const parseWatchNotification = (body, options) => call("parseWatchNotification", "decode", body, options);

/** A billing event (webhook body or `{ event }` answer) with its event_type checked. */
export const parseEvent = (body, options) => call("parseEvent", "decode", body, options);

/**
 * An edge handler `(request) => Promise<Response>` that forwards the allowed operations to the
 * service with the token and the organization added: a browser Client points its apiDomain here
 * and never holds the token. Requests are routed by the catalog and validated before forwarding;
 * a body above `maxBodyBytes` is answered with 413, a body without its operation's Content-Type
 * with 415, and a request from an Origin outside `allowedOrigins` (when given) with 403, and none
 * of them is forwarded.
 */
export function createProxy(options) {
  const copy = call("__copied", "config", options, "the options of createProxy");
  let [proxy, born] = [made(core.__Proxy, copy), generation];
  return function handle(request) {
    return new Promise((resolve) => {
      if (born !== generation) [proxy, born] = [made(core.__Proxy, copy), generation];
      // A forward that a restart of the core stopped is answered (503); what is not a Request stays a rejection.
      resolve(settling(guarded(proxy.handle, proxy, [request], "config")).catch((e) => call("__proxyFailed", "config", e)));
    });
  };
}

/** A ConnectionStore in this process's memory (tests, a single process), with a key of its own to seal refresh tokens. */
export function memoryConnectionStore() {
  const map = new Map(), key = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
  const store = { get: async (k) => map.get(k) ?? null, set: async (k, v) => void map.set(k, v), delete: async (k) => void map.delete(k) };
  return Object.defineProperty(store, Symbol.for("svc-sdk.memoryConnectionStore"), { value: key });
}

/**
 * One app's connections to its customers' organizations (consent, redirect, sealed refresh tokens,
 * a client per connection); its wasm half, and each client's, is made anew after a restart of the core.
 */
export function createConnections(options) {
  const copy = call("__copied", "config", options, "the options of createConnections");
  let [inner, born] = [made(core.__Connections, copy), generation];
  const now = () => (born === generation ? inner : ([inner, born] = [made(core.__Connections, copy), generation])[0]);
  const run = (name, args) => new Promise((resolve) => resolve(settling(guarded(now()[name], now(), args, "config"))));
  const client = (id, clientOptions) => {
    const c = Object.create(Client.prototype), make = () => guarded(now().client, now(), [id, clientOptions], "config");
    cores.set(c, { make, core: make(), generation });
    return c;
  };
  const methods = ["authorizeUrl", "handleRedirect", "get", "revoke", "deviceLogin"].map((name) => [name, (...args) => run(name, args)]);
  return Object.freeze({ ...Object.fromEntries(methods), organizations: (id) => client(id).listOrganizations().toArray(), client });
}
