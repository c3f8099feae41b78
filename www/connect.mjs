// "Connect an organization", the server's half: createConnections with the accounts server's client
// (the sandbox's demo client for the demo), one connection per browser, named in an HttpOnly cookie.
// The client secret and the refresh tokens stay here; the page gets the organizations and contacts.
//
//   GET  /svc/connect      a new authorization: 302 to the accounts server's consent page
//   GET  /svc/callback     the redirect back: the connection made, then 303 to /?connect=<outcome>#connect
//   GET  /svc/connection   JSON: { connected: false } or the connection, its organizations and contacts
//   POST /svc/disconnect   the grant revoked at the accounts server, the connection forgotten
import { createConnections, memoryConnectionStore, SvcError } from "svc-sdk";

const COOKIE = "demo-connection";
const OPERATIONS = ["listOrganizations", "listContacts"];
const CONTACTS_SHOWN = 5;

/**
 * The Fetch handler of /svc/*. `origin` is the app's own (the redirect comes back to it);
 * `clientId`, `clientSecret` and `accountsUrl` are the accounts server's client and where it is.
 */
export function connectRoutes({ origin, clientId, clientSecret, accountsUrl }) {
  const connections = createConnections({
    clientId,
    clientSecret,
    redirectUri: `${origin}/svc/callback`,
    operations: OPERATIONS,
    store: memoryConnectionStore(),
    accountsServers: { us: accountsUrl },
  });
  const routes = {
    "GET /svc/connect": (request, id) => start(connections, origin, request, id),
    "GET /svc/callback": (request, id) => finish(connections, request, id),
    "GET /svc/connection": (request, id) => describe(connections, request, id),
    "POST /svc/disconnect": (request, id) => disconnect(connections, origin, request, id),
  };
  return async (request) => {
    const route = routes[`${request.method} ${new URL(request.url).pathname}`];
    if (!route) return Response.json({ message: "not found" }, { status: 404 });
    return route(request, cookieOf(request));
  };
}

function cookieOf(request) {
  const pair = (request.headers.get("cookie") ?? "").split(/;\s*/).find((c) => c.startsWith(`${COOKIE}=`));
  const id = pair?.slice(COOKIE.length + 1);
  return id && /^[\w-]{1,64}$/.test(id) ? id : null;
}

function redirect(location, status = 302, headers = {}) {
  return new Response(null, { status, headers: { location, "cache-control": "no-store", ...headers } });
}

/** The browser's connection id (a new one when it has none), in the cookie, and the consent page. */
async function start(connections, origin, request, id) {
  if (new URL(request.url).origin !== origin) return redirect(`${origin}/svc/connect`);
  const connectionId = id ?? crypto.randomUUID();
  const cookie = `${COOKIE}=${connectionId}; Path=/svc; HttpOnly; SameSite=Lax`;
  return redirect(await connections.authorizeUrl(connectionId), 302, { "set-cookie": cookie });
}

/** The redirect back from the consent page, to the page with the outcome's name. */
async function finish(connections, request, id) {
  return redirect(`/?connect=${await outcome(connections, request, id)}#connect`, 303);
}

async function outcome(connections, request, id) {
  try {
    const connection = await connections.handleRedirect(request);
    if (connection.connectionId === id) return "connected";
    await connections.revoke(connection.connectionId);
    return "elsewhere";
  } catch (e) {
    if (!(e instanceof SvcError)) throw e;
    if (new URL(request.url).searchParams.has("error")) return "declined";
    return e.kind === "verification" ? "expired" : "refused";
  }
}

/** What the page shows: the connection, its organizations, and a few contacts of the chosen one. */
async function describe(connections, request, id) {
  const connection = id && (await connections.get(id));
  if (!connection) return Response.json({ connected: false }, { headers: { "cache-control": "no-store" } });
  const { connectionId, ...shown } = connection;
  try {
    const organizations = (await connections.organizations(id)).map((o) => ({ id: o.organization_id, name: o.name }));
    const wanted = new URL(request.url).searchParams.get("organization");
    const organization = organizations.find((o) => o.id === wanted) ?? organizations[0];
    const contacts = organization ? await contactsOf(connections.client(id, { organizationId: organization.id })) : [];
    return Response.json({ connected: true, connection: shown, organizations, organization: organization?.id ?? null, contacts }, { headers: { "cache-control": "no-store" } });
  } catch (e) {
    if (!(e instanceof SvcError)) throw e;
    const status = e.reauthorize ? "reauthorize" : shown.status;
    return Response.json({ connected: true, connection: { ...shown, status }, failed: e.kind }, { headers: { "cache-control": "no-store" } });
  }
}

async function contactsOf(client) {
  const page = await client.listContacts({ per_page: CONTACTS_SHOWN });
  return page.items.map((c) => ({ id: c.contact_id, name: c.contact_name, company: c.company_name ?? "", email: c.email ?? "" }));
}

/** Revokes the browser's connection; only from the app's own pages (the Origin header). */
async function disconnect(connections, origin, request, id) {
  if (request.headers.get("origin") !== origin) return Response.json({ message: "not from this app" }, { status: 403 });
  if (id) await connections.revoke(id);
  return new Response(null, { status: 204, headers: { "set-cookie": `${COOKIE}=; Path=/svc; HttpOnly; SameSite=Lax; Max-Age=0` } });
}
