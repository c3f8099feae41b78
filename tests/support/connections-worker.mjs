// One process of the connections fleet test: createConnections on the shared Redis store (records and
// the fleet's tokens), calling each tenant's organization for a while through a client made per call.
// Its options come as JSON in argv[2]; it prints one JSON line: how many calls, how many answered with
// another tenant's data, and the errors. Each loop pauses between calls, so that the fleet stays under
// each organization's 100 calls a minute (the plan's, which the fleet's limiter keeps).
import { createConnections } from "svc-sdk";
import { redisConnectionStore, redisStore } from "svc-sdk/redis";

const config = JSON.parse(process.argv[2]);
const store = redisConnectionStore({ url: config.redisUrl });
const fleet = redisStore({ url: config.redisUrl });
const connections = createConnections({
  clientId: config.clientId,
  clientSecret: config.clientSecret,
  redirectUri: config.redirectUri,
  scopes: config.scopes,
  store,
  encryptionKey: config.encryptionKey,
  accountsServers: config.accountsServers,
  rateLimit: { store: fleet },
  maxRetries: 1,
});
const tenants = Object.entries(config.tenants);
const until = Date.now() + config.durationMs;
let calls = 0;
let foreign = 0;
const errors = [];
async function loop(seed) {
  for (let i = seed; Date.now() < until; i += 7) {
    const [id, org] = tenants[i % tenants.length];
    try {
      const page = await connections.client(id, { organizationId: org }).listContacts();
      calls++;
      if (page.items.length === 0 || page.items.some((c) => c.contact_name !== id)) foreign++;
    } catch (e) {
      errors.push(`${id}: ${e.kind} ${e.message}`);
    }
    await new Promise((r) => setTimeout(r, config.pauseMs));
  }
}
await Promise.all(Array.from({ length: config.concurrency }, (_, k) => loop(k * 13 + config.index)));
process.stdout.write(JSON.stringify({ calls, foreign, errors: errors.slice(0, 20), errorCount: errors.length }) + "\n");
await Promise.all([store.close(), fleet.close()]);
