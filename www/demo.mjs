// The demo as `npm start` serves it: the demo fixed assets seeded into a sandbox, then the app's server
// (server.mjs) with the proxy in front of that sandbox. Used by scripts/start.mjs and the browser tests.
import { seedContacts, seedFixedAssets } from "./demo-data.mjs";
import { startServer } from "./server.mjs";

/** The sandbox's default token (every scope), for seeding, and its seeded organization: they stay on the server. */
export const SANDBOX_TOKEN = "dev-token";
export const SANDBOX_ORG = "10234695";
/**
 * Seeds the sandbox at `sandboxUrl` (all demo assets, or the first `count`, and the demo contacts) and
 * serves `dist` behind a proxy that gets its tokens with `oauth`, the demo client the sandbox prints,
 * which also connects organizations at /svc/* through the sandbox's consent page; resolves with the
 * server and the seeded assets.
 */
export async function serveDemo({ dist, sandboxUrl, oauth, port = 0, count, onApi }) {
  const service = { apiDomain: sandboxUrl, accessToken: SANDBOX_TOKEN, organizationId: SANDBOX_ORG };
  const seeded = await seedFixedAssets({ ...service, count });
  await seedContacts(service);
  const connect = { clientId: oauth.clientId, clientSecret: oauth.clientSecret, accountsUrl: oauth.accountsUrl };
  const server = await startServer({ apiDomain: sandboxUrl, oauth, organizationId: SANDBOX_ORG, connect, dist, port, onApi });
  return { ...server, seeded };
}
