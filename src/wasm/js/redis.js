// Redis as a fleet store (svc-sdk/redis): one organization's shared state as text under one key,
// loaded with the server's clock and saved by compare-and-set, each one Lua script. The steps on
// the state are the core's; this only keeps the text.
import { SvcError } from "./node.js";

// The state's text and the server's TIME (seconds, microseconds).
const LOAD = "local t = redis.call('TIME') return { redis.call('HGET', KEYS[1], 's') or false, t[1], t[2] }";
// Saves the text if the version is still the one loaded; the key lives two days past its last change.
const SAVE = `if (redis.call('HGET', KEYS[1], 'v') or '0') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 's', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`;
const KEEP_MS = "172800000";

export function redisStore(options = {}) {
  const { url, client, prefix = "svc-sdk:" } = options ?? {};
  if ((url === undefined) === (client === undefined) || (url !== undefined && typeof url !== "string") || typeof prefix !== "string") {
    throw new SvcError("config", "redisStore({ url } or { client }, prefix?) needs either a redis:// URL or a client of the redis package");
  }
  let connected;
  const ready = () =>
    (connected ??= (async () => {
      if (client) return client.isOpen ? client : client.connect().then(() => client);
      const { createClient } = await import("redis");
      // A first connection that fails fails the step (the core asks again within storeTimeoutMs)
      // instead of holding every step until the server answers; once open, a lost connection is
      // reopened, and steps fail at once meanwhile (disableOfflineQueue).
      let opened = false;
      const reconnectStrategy = (n) => opened && Math.min(50 * 2 ** n, 1000);
      const own = createClient({ url, disableOfflineQueue: true, socket: { connectTimeout: 2000, reconnectStrategy } });
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
    async close() {
      if (client || !connected) return;
      const own = await connected.catch(() => null);
      connected = undefined;
      // A client that is reconnecting to a server gone is stopped at once; an open one quits.
      if (own && !own.isReady) return own.disconnect().catch(() => {});
      await own?.quit().catch(() => own.disconnect());
    },
  };
}
