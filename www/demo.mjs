// The demo as `npm start` serves it: the demo fixed assets seeded into a sandbox, then the app's server
// (server.mjs) with the proxy in front of that sandbox. Used by scripts/start.mjs and the browser tests.
import { seedFixedAssets } from "./demo-data.mjs";
import { startServer } from "./server.mjs";

/** The sandbox's default token (every scope) and its seeded organization: they stay on the server. */
export const SANDBOX_TOKEN = "dev-token";
export const SANDBOX_ORG = "10234695";

/** Seeds the sandbox at `sandboxUrl` (all demo assets, or the first `count`) and serves `dist`; resolves with the server and the seeded assets. */
export async function serveDemo({ dist, sandboxUrl, port = 0, count, onApi }) {
  const service = { apiDomain: sandboxUrl, accessToken: SANDBOX_TOKEN, organizationId: SANDBOX_ORG };
  const seeded = await seedFixedAssets({ ...service, count });
  const server = await startServer({ ...service, dist, port, onApi });
  return { ...server, seeded };
}
