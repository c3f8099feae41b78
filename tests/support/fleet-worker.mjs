// One process of a fleet test: one Client of the installed package sharing its limits through a
// store. Its options come as JSON in argv[2]; the test drives it with JSON lines on stdin
// ({ "run": [names] } creates one account per name, all at once; { "list": n } lists the accounts n
// times at once; { "exit": true }) and reads JSON
// lines on stdout: ready, begin/end of every request the fetch sends (by account name), the
// result of every call, and every call of the token function. With `clock: { epoch, scale }` its
// clock runs `scale` times as fast (scaled-clock.mjs), redis's with it: the store's `now` is mapped
// the same way, so the Client's minute, leases and waits all read one scaled clock. With `oauth` its
// Client gets its tokens itself from the sandbox's accounts server.
import { createInterface } from "node:readline";
import { Client } from "svc-sdk";
import { redisStore } from "svc-sdk/redis";
import { scaleClock } from "./scaled-clock.mjs";

const config = JSON.parse(process.argv[2]);
const say = (line) => process.stdout.write(JSON.stringify(line) + "\n");
const clock = config.clock ? scaleClock(config.clock) : null;
const redis = redisStore({ url: config.redisUrl });
const store = clock
  ? {
      load: async (key) => {
        const loaded = await redis.load(key);
        return { ...loaded, now: clock.at(loaded.now) };
      },
      save: (...args) => redis.save(...args),
      close: () => redis.close(),
    }
  : redis;
let tokenCalls = 0;
const accessToken = config.mintTokens
  ? async () => {
      tokenCalls += 1;
      say({ tokenCall: tokenCalls });
      const res = await fetch(`${config.sandboxUrl}/__sandbox/tokens`, { method: "POST" });
      return (await res.json()).token;
    }
  : "dev-token";

const client = new Client({
  ...(config.oauth ? { oauth: { ...config.oauth, accountsUrl: config.sandboxUrl } } : { accessToken }),
  organizationId: config.organizationId,
  apiDomain: config.sandboxUrl,
  maxRetries: config.maxRetries ?? 0,
  ...(config.deadlineMs === undefined ? {} : { deadlineMs: config.deadlineMs }),
  rateLimit: { store, leaseMs: config.leaseMs, storeTimeoutMs: config.storeTimeoutMs, fallbackShare: config.fallbackShare, requestsPerMinute: config.requestsPerMinute },
  fetch: async (url, init) => {
    if (String(url).endsWith("/oauth/v2/token")) return fetch(url, init);
    const name = init?.body ? JSON.parse(init.body).account_name : undefined;
    say({ begin: name, at: Date.now() });
    try {
      return await fetch(url, init);
    } finally {
      say({ end: name, at: Date.now() });
    }
  },
});

async function create(name) {
  try {
    await client.createAccount({ account_name: name, account_type: "cash" });
    say({ done: name, ok: true, at: Date.now() });
  } catch (e) {
    say({ done: name, ok: false, kind: e.kind, status: e.status, message: e.message, retryAfterMs: e.retryAfterMs, at: Date.now() });
  }
}

async function list(n) {
  try {
    await client.listAccounts();
    say({ done: `list-${n}`, ok: true, at: Date.now() });
  } catch (e) {
    say({ done: `list-${n}`, ok: false, kind: e.kind, status: e.status, message: e.message, at: Date.now() });
  }
}

createInterface({ input: process.stdin }).on("line", async (line) => {
  const command = JSON.parse(line);
  if (command.run) await Promise.all(command.run.map(create));
  if (command.list) await Promise.all(Array.from({ length: command.list }, (_, n) => list(n)));
  if (command.exit) {
    await store.close();
    process.exit(0);
  }
});
process.stdin.on("end", () => process.exit(0));
// On a scaled clock, the store's first connection (loading the redis package, connecting) is made
// before the run: it is the process's start, not part of the run, and takes the machine's time.
if (clock) await redis.load("warm-up");
say({ ready: true });
