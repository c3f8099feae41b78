// A worker of the connections test in workerd (tests/js/connections-workerd.test.mjs): createConnections
// on Durable Object storage (durableObjectConnectionStore) with the fleet's token in the same objects
// (durableObjectStore), both reached through the SvcLimiter binding. Each request carries the options.
//   POST /authorize { options, id }       the consent URL
//   POST /redirect  { options, url }      the connection made from the redirect
//   POST /seed      { options, id }       the connection's organization, with a contact named after the id made in it
//   POST /calls     { options, calls: [{ id, org }] }  listContacts of each, all at once: each one's
//                   contact names, or its error
import { createConnections } from "svc-sdk";
import { durableObjectConnectionStore, durableObjectStore } from "svc-sdk/cloudflare";

const made = new Map();
function connections(env, options) {
  const key = JSON.stringify(options);
  if (!made.has(key)) {
    const store = durableObjectConnectionStore(env.SVC_LIMITER);
    made.set(key, createConnections({ ...options, store, rateLimit: { store: durableObjectStore(env.SVC_LIMITER) } }));
  }
  return made.get(key);
}

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    const body = await request.json();
    const c = connections(env, body.options);
    try {
      if (pathname === "/authorize") return Response.json({ url: await c.authorizeUrl(body.id) });
      if (pathname === "/redirect") return Response.json(await c.handleRedirect(body.url));
      if (pathname === "/seed") {
        const [org] = await c.organizations(body.id);
        await c.client(body.id, { organizationId: org.organization_id }).createContact({ contact_name: body.id });
        return Response.json({ org: org.organization_id });
      }
      if (pathname === "/calls") {
        const results = await Promise.all(
          body.calls.map(({ id, org }) =>
            c.client(id, { organizationId: org }).listContacts().then(
              (page) => ({ id, names: page.items.map((x) => x.contact_name) }),
              (e) => ({ id, error: `${e.kind}: ${e.message}` }),
            ),
          ),
        );
        return Response.json(results);
      }
      return new Response("not found", { status: 404 });
    } catch (e) {
      return Response.json({ error: `${e.kind}: ${e.message}` }, { status: 500 });
    }
  },
};
