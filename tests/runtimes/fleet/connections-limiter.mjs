// The worker that hosts the shipped SvcLimiter for the connections test in workerd: connection
// records and the fleet's state in its objects' storage.
export { SvcLimiter } from "svc-sdk/cloudflare";

export default {
  fetch: () => new Response("not found", { status: 404 }),
};
