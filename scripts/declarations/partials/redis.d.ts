// pkg/redis.d.ts (and redis.d.cts, importing ./index.cjs): svc-sdk/redis, the fleet and connection stores
// on Redis, importing the main entry's types.

import type { ConnectionStore, FleetStore } from "./index.js";
/** A ConnectionStore on Redis (Node, Deno): the options of redisStore; an authorization's state expires with it. */
export declare function redisConnectionStore(options: { url: string; client?: never; prefix?: string } | { client: unknown; url?: never; prefix?: string }): ConnectionStore & { close(): Promise<void> };
/** A fleet store on Redis (Node, Deno): needs the `redis` package. The shared token is kept in it. */
export declare function redisStore(options: { url: string; client?: never; prefix?: string } | { client: unknown; url?: never; prefix?: string }): FleetStore & {
  /**
   * Ends the connection the store opened (a `client` you gave stays open): QUIT, or a connection not
   * ready dropped. Settles within the default `storeTimeoutMs` (`RateLimitOptions`), whatever Redis does: a Redis
   * that does not reply in that time is let go, its connection no longer keeping the process running.
   */
  close(): Promise<void>;
};
