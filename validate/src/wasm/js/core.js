// The calls into the wasm that every entry makes, each guarded so that a failing core restarts, and
// what svc-sdk and svc-sdk/validate both export: validate, schemaFor, operations, requiredScopes.
import * as core from "../../../../../svc_sdk.js";
import { SvcError } from "./error.js";

/** How many times the core was restarted: a Client made before a restart makes its wasm half anew. */
export let generation = 0;

/** What ends each pending call of the running core if it is restarted: its calls' futures die with it. */
const pending = new Set();

/** The running core's timers, cleared when it is restarted (no dead wait keeps a process alive). */
export const timers = new Set();

/**
 * The promise of a call of the running core that settles whatever becomes of the core: on a restart
 * it rejects with an SvcError, or resolves with `answer(error)` when given (a proxy's answer).
 */
export function settling(promise, answer) {
  return new Promise((resolve, reject) => {
    const forget = onRestart((error) => {
      try {
        answer ? resolve(answer(error)) : reject(error);
      } catch (e) {
        reject(e);
      }
    });
    promise.then(
      (v) => forget() && resolve(v),
      (e) => forget() && reject(e),
    );
  });
}

/** Calls `end(error)` if the core restarts before the returned function is called. */
export function onRestart(end) {
  pending.add(end);
  return () => pending.delete(end);
}

/** Restarts the core if `e` is a trap (and ends every call the old one held); rethrows anything else. */
export function restartOnTrap(e) {
  if (!(e instanceof WebAssembly.RuntimeError)) throw e;
  restart(e);
}

/** Starts a new instance after a trap and ends every call the old one held. */
function restart(e) {
  core.__wbg_reset_state();
  generation++;
  for (const t of timers) clearTimeout(t);
  timers.clear();
  const stranded = [...pending];
  pending.clear();
  for (const end of stranded) {
    end(new SvcError("aborted", `the SDK's core was restarted (${e.message}) while this call was pending: it was stopped, and may have reached the service; every client keeps working`));
  }
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
export function info(id) {
  let op = infos.get(id);
  if (op === undefined) infos.set(id, (op = call("__operation", "config", id)));
  return op;
}

/** Every operation of the table: `{ id, family, method, path, scope, pathParams }`. */
export function operations() {
  return call("operations", "config");
}

/** The sorted, unique scopes the given operations need. */
export function requiredScopes(ids) {
  return call("requiredScopes", "config", ids);
}

/** Checks params of an operation without sending anything: `{ ok: true }` or `{ ok: false, issues }`. */
export function validate(operationId, params) {
  const issues = call("__validate", "validation", info(operationId).index, params);
  return issues === undefined ? { ok: true } : { ok: false, issues: JSON.parse(issues) };
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
