// Redis as a fleet store (svc-sdk/redis): one organization's shared state as text under one key,
// loaded with the server's clock and saved by compare-and-set, each one Lua script. The platform makes
// this JS: the redis client is a JS package, connected and called from JS. The steps on the state, the
// scripts, how long the key lives, the options' checks and how long close() waits are the core's
// (scripts/build.mjs hangs them on SvcError).
import { SvcError } from "./node.js";

const { __redisScripts, __redisOptions, __redisClose } = SvcError[Symbol.for("svc-sdk.internal")];
const [LOAD, SAVE, KEEP_MS] = __redisScripts();

/** A fleet store on Redis: `{ url }` (a connection of its own) or `{ client }`, and the keys' `prefix`; the core checks them. */
export function redisStore(options) {
  const [url, client, prefix] = __redisOptions(options);
  let connected, own;
  const ready = () =>
    (connected ??= (async () => {
      if (client) return client.isOpen ? client : client.connect().then(() => client);
      const { createClient } = await import("redis");
      // A first connection that fails fails the step (the core asks again within storeTimeoutMs)
      // instead of holding every step until the server answers; once open, a lost connection is
      // reopened, and steps fail at once meanwhile (disableOfflineQueue).
      let opened = false;
      const reconnectStrategy = (n) => opened && Math.min(50 * 2 ** n, 1000);
      own = createClient({ url, disableOfflineQueue: true, socket: { connectTimeout: 2000, reconnectStrategy } });
      own.on("error", () => {});
      await own.connect();
      opened = true;
      return own;
    })().catch((e) => {
      connected = undefined;
      throw e;
    }));
  const keyOf = (key) => `${prefix}${key}`;
  return {
    async load(key) {
      const [text, seconds, micros] = await (await ready()).eval(LOAD, { keys: [keyOf(key)], arguments: [] });
      return { text: text ?? null, now: Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) };
    },
    async save(key, expected, version, text) {
      const args = [String(expected), String(version), text, KEEP_MS];
      return (await (await ready()).eval(SAVE, { keys: [keyOf(key)], arguments: args })) === 1;
    },
    /** Ends the connection it opened (a client given stays open): the core waits for it at most the default storeTimeoutMs. */
    close() {
      const closing = [connected, own];
      [connected, own] = [];
      return client ? Promise.resolve() : __redisClose(...closing);
    },
  };
}
