// Redis as a fleet store (svc-sdk/redis): one organization's shared state as text under one key,
// loaded with the server's clock and saved by compare-and-set, each one Lua script. The platform makes
// this JS: the redis client is a JS package, imported and connected from JS, and a store outlives a
// restart of the core. The steps on the state, the connection's options, the scripts and their calls,
// how long the key lives, the options' checks and how long close() waits are the core's
// (scripts/build.mjs hangs them on SvcError).
import { SvcError } from "./node.js";

const { __redisBackoff, __redisClient, __redisClose, __redisConnectionSet, __redisLoad, __redisOptions, __redisSave } = SvcError[Symbol.for("svc-sdk.internal")];

/** A connection to Redis of `{ url }` (its own) or `{ client }`, and the keys' `prefix`; the core checks them. */
function connection(options) {
  const [url, client, prefix] = __redisOptions(options);
  let connected, own;
  const ready = () =>
    (connected ??= (async () => {
      if (client) return client.isOpen ? client : client.connect().then(() => client);
      // A lost connection is reopened once this one opened; a first one that fails fails the step (__redisClient).
      let opened = false;
      own = __redisClient(await import("redis"), url, (n) => opened && __redisBackoff(n));
      await own.connect();
      opened = true;
      return own;
    })().catch((e) => {
      connected = undefined;
      throw e;
    }));
  /** Ends the connection it opened (a client given stays open): the core waits for it at most the default storeTimeoutMs. */
  const close = () => {
    const closing = [connected, own];
    [connected, own] = [];
    return client ? Promise.resolve() : __redisClose(...closing);
  };
  return { ready, close, prefix };
}

/** A fleet store on Redis: `{ url }` (a connection of its own) or `{ client }`, and the keys' `prefix`. */
export function redisStore(options) {
  const { ready, close, prefix } = connection(options);
  return {
    load: async (key) => __redisLoad(await ready(), prefix + key),
    save: async (key, expected, version, text) => __redisSave(await ready(), prefix + key, expected, version, text),
    close,
  };
}

/** A ConnectionStore on Redis (createConnections' `store`): the same options as redisStore. */
export function redisConnectionStore(options) {
  const { ready, close, prefix } = connection(options);
  return {
    get: async (key) => (await ready()).get(prefix + key),
    set: async (key, value) => __redisConnectionSet(await ready(), prefix, key, value),
    delete: async (key) => void (await (await ready()).del(prefix + key)),
    close,
  };
}
