// The static build's client (`vite build --mode static`): no server, no proxy. The page runs the
// sandbox in-process (svc-sdk/testing), seeds it with the demo assets, and its Client's fetch is the
// sandbox's, so no request leaves the page.
import { Client } from "svc-sdk";
import { Sandbox } from "svc-sdk/testing";
import { seedFixedAssets } from "../demo-data.mjs";

/** A seeded in-process sandbox and a Client that talks to it with the sandbox's dev token. */
export async function sandboxClient(): Promise<{ client: Client; apiDomain: string }> {
  const sandbox = new Sandbox();
  const service = { accessToken: "dev-token", organizationId: sandbox.organizationId, apiDomain: sandbox.url, fetch: sandbox.fetch };
  await seedFixedAssets(service);
  return { client: new Client(service), apiDomain: sandbox.url };
}
