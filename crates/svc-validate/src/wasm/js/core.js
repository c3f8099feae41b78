// The calls into the wasm that every entry makes, and what svc-sdk and svc-sdk/validate both export
// (validate, schemaFor, operations, requiredScopes). The platform makes this JS: a wasm trap is a JS
// exception, so only a JS caller can catch it, start a new instance and end every call the old one held.
import * as core from "../../../../../svc_sdk.js";
import { SvcError } from "./error.js";

/** How many times the core was restarted: a Client made before a restart makes its wasm half anew. */
export let generation = 0;

/** What rejects each pending call of the running core if it is restarted: its calls' futures die with it. */
const pending = new Set();

/** The running core's timers, cleared when it is restarted (no dead wait keeps a process alive). */
export const timers = new Set();

/** The promise of a call of the running core that settles whatever becomes of the core: a restart rejects it with an SvcError. */
export function settling(promise) {
  return new Promise((resolve, reject) => {
    pending.add(reject);
    promise.then((v) => pending.delete(reject) && resolve(v), (e) => pending.delete(reject) && reject(e));
  });
}

/** Restarts the core if `e` is a trap (a new instance, the old one's timers cleared, and every call it held ended); rethrows anything else. */
export function restartOnTrap(e) {
  if (!(e instanceof WebAssembly.RuntimeError)) throw e;
  core.__wbg_reset_state();
  generation++;
  // The new core clears the old one's timers, and words the error of every call it held.
  const why = core.__restarted(e.message);
  for (const reject of pending) pending.delete(reject) && reject(new SvcError("aborted", why));
}

/**
 * Calls into the wasm. A trap (a bug, or memory spent on an input above the limits the user
 * raised) starts a new wasm instance, so that every Client made before keeps working; the caller
 * gets an SvcError of `kind`.
 */
export function guarded(fn, self, args, kind) {
  try {
    return Reflect.apply(fn, self, args);
  } catch (e) {
    restartOnTrap(e);
    throw new SvcError(kind, `the SDK's core failed on this input (${e.message}) and was restarted; every client keeps working`);
  }
}

export const call = (name, kind, ...args) => guarded(core[name], undefined, args, kind);

const infos = new Map();

/** `{ id, pathParams, list, index }` of an operation (`index`: its row, which `__validate` takes), asked once; a config SvcError for an unknown id. */
export const info = (id) => infos.get(id) ?? infos.set(id, call("__operation", "config", id)).get(id);

/** Every operation of the table: `{ id, family, method, path, scope, pathParams }`. */
export const operations = () => call("operations", "config");

/** The sorted, unique scopes the given operations need. */
export const requiredScopes = (ids) => call("requiredScopes", "config", ids);

/** Checks params of an operation without sending anything: `{ ok: true }` or `{ ok: false, issues }`; options `{ blankAsMissing, labels }`. */
export const validate = (operationId, params, options) => call("__validate", "validation", info(operationId).index, params, options, false);

/**
 * A Standard Schema v1 object for the params of an operation (react-hook-form, any Standard Schema
 * consumer): its issues are the SDK's `Issue`s; the core checks `options` now and words the issues
 * (with `options.labels`, then `options.message` when given).
 */
export function schemaFor(id, options) {
  const index = call("__schemaIndex", "config", id, options);
  const validate = (value) => call("__validate", "validation", index, value, options, true);
  return Object.freeze({ "~standard": Object.freeze({ version: 1, vendor: "svc-sdk", validate }) });
}
