// What the platform makes JS in the client's wasm: the runtime calls back only JS functions (a
// promise settling, a stream's pull), and each of them calls into the core guarded, so that a trap
// restarts the core instead of escaping. What they carry, when timers fire, how long a proxied body
// may stall and every message are the core's.
import { __settle } from "../../../../../svc_sdk.js";
import { call, generation, restartOnTrap, settling } from "./core.js";

/** Calls `fn` into the core of generation `g`: dropped if the core restarted since, a trap restarts it. */
function into(g, fn, ...args) {
  try {
    if (g === generation) fn(...args);
  } catch (e) {
    restartOnTrap(e);
  }
}

/** Settles wait `id` of the core when `promise` (a native promise: the core makes one of any value) settles. */
export function watch(promise, id) {
  const g = generation;
  promise.then((v) => into(g, __settle, id, true, v), (e) => into(g, __settle, id, false, e));
}

/** A proxied body: each chunk is the core's (`__passOn`); `reader`, the answer's, is let go when it fails or is cancelled. */
export function passedOn(id, reader) {
  const born = generation;
  return new ReadableStream({
    async pull(controller) {
      try {
        // A body of a core since restarted asks for body 0, which the core says was cut off.
        const chunk = await settling(call("__passOn", "aborted", born === generation ? id : 0));
        chunk ? controller.enqueue(chunk) : controller.close();
      } catch (e) {
        reader.cancel(e).catch(() => {});
        throw e;
      }
    },
    cancel(reason) {
      if (born === generation) call("__passStop", "aborted", id);
      return reader.cancel(reason);
    },
  });
}
