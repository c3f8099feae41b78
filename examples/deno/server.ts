// A Deno server in front of the Svc API:
//   deno run --allow-net --allow-read --allow-env server.ts
//   /api/...        the proxy: a browser's token-less Client calls the allowed operations through it;
//                   the server validates, adds the token and organization, and never hands them out.
//   /hooks/svc      notification-channel callbacks, verified against the channel's token.
//   /hooks/events   billing events (webhook bodies), verified against the token of the webhook URL
//                   registered with the service: https://<this server>/hooks/events?token=<SVC_EVENTS_TOKEN>.
//   /hooks/last     the last callbacks and events received (a demo aid).
// Environment: SVC_TOKEN, SVC_CHANNEL_TOKEN, SVC_EVENTS_TOKEN, SVC_ORGANIZATION_ID, SVC_REGION or SVC_API_DOMAIN, PORT.
import { createProxy, parseEvent, parseWatchNotification, SvcError } from "svc-sdk";
import type { Event, Region, WatchNotification } from "svc-sdk";

const env = (name: string) => Deno.env.get(name) || undefined;
const channelToken = env("SVC_CHANNEL_TOKEN") ?? "";
const eventsToken = env("SVC_EVENTS_TOKEN") ?? "";
if (!env("SVC_TOKEN") || !channelToken || !eventsToken) throw new Error("set SVC_TOKEN, SVC_CHANNEL_TOKEN and SVC_EVENTS_TOKEN");

const proxy = createProxy({
  accessToken: env("SVC_TOKEN")!,
  organizationId: env("SVC_ORGANIZATION_ID"),
  ...(env("SVC_API_DOMAIN") ? { apiDomain: env("SVC_API_DOMAIN") } : { region: (env("SVC_REGION") ?? "us") as Region }),
  // What browsers may call; any other operation is refused with 403.
  allow: ["listAccounts", "listFixedAssetTypes", "listFixedAssets", "createFixedAsset", "listEvents", "getEvent", "updateNotificationChannels"],
});

// Kept in memory for the demo only: use Deno KV or a database in production.
const last: { notifications: Omit<WatchNotification, "token">[]; events: Event[] } = { notifications: [], events: [] };
const remember = <T>(list: T[], item: T) => list.splice(0, list.length, item, ...list.slice(0, 9));

// The most a callback's body may hold: the receivers' default maxBodyBytes, 1 MiB.
const MAX_BODY = 1024 * 1024;

// The body's text, read no further than MAX_BODY bytes; undefined when it is larger (by its Content-Length, or as it streams).
async function boundedBody(request: Request): Promise<string | undefined> {
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY) return undefined;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let [text, size] = ["", 0];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > MAX_BODY) {
      await reader.cancel();
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
}

// 200 with a summary; 401 when the callback's or the event URL's token does not match; 400 when the body is
// not one; 413 when it is over MAX_BODY, known from its Content-Length or its first MAX_BODY bytes, the rest
// never read here (Deno at times reads and drops it before the answer goes out).
async function receive(request: Request, parse: (body: string) => unknown): Promise<Response> {
  const body = await boundedBody(request);
  if (body === undefined) return Response.json({ error: "too_large", message: `the body is over ${MAX_BODY} bytes` }, { status: 413 });
  try {
    return Response.json({ received: parse(body) });
  } catch (e) {
    if (!(e instanceof SvcError)) throw e;
    return Response.json({ error: e.kind, message: e.message }, { status: e.kind === "verification" ? 401 : 400 });
  }
}

async function handle(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (pathname.startsWith("/api/")) return proxy(request);
  if (pathname === "/hooks/svc" && request.method === "POST") {
    return receive(request, (body) => {
      const { token: _, ...notification } = parseWatchNotification(body, { token: channelToken });
      remember(last.notifications, notification);
      return { module: notification.module, operation: notification.operation, ids: notification.ids };
    });
  }
  if (pathname === "/hooks/events" && request.method === "POST") {
    return receive(request, (body) => {
      const event = parseEvent(body, { token: eventsToken, url: request.url });
      remember(last.events, event);
      return { event_id: event.event_id, event_type: event.event_type };
    });
  }
  if (pathname === "/hooks/last" && request.method === "GET") return Response.json(last);
  return new Response("not found", { status: 404 });
}

Deno.serve({
  hostname: "127.0.0.1",
  port: Number(env("PORT") ?? 8000),
  onListen: ({ hostname, port }) => console.log(`listening on http://${hostname}:${port}`),
}, handle);
