// The demo app's server: the built app (Vite's output) and, on the same origin, the svc-sdk edge
// proxy at /api, which adds the token and the organization, so the browser never holds either. The
// proxy's bodies are streamed both ways (toNodeHandler), never held whole. With `connect`, /svc/*
// connects an organization through the accounts server's consent page (connect.mjs).
// Binds 127.0.0.1. Started by demo.mjs, for `npm start` (scripts/start.mjs) and the browser tests.
//
//   node www/server.mjs            (after a Vite build into www/dist)
//   env: SVC_API_DOMAIN (default http://127.0.0.1:8787), SVC_TOKEN (default dev-token),
//        SVC_ORG (default 10234695), PORT (default 5173); SVC_CLIENT_ID and SVC_CLIENT_SECRET (and
//        SVC_ACCOUNTS_URL, default SVC_API_DOMAIN) for /svc/*
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createProxy, toNodeHandler } from "svc-sdk";
import { connectRoutes } from "./connect.mjs";

/** The operations the app calls; the proxy refuses every other one (403). */
export const APP_OPERATIONS = ["createOrganization", "listFixedAssetTypes", "listAccounts", "createFixedAsset", "listFixedAssets", "updateNotificationChannels"];

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
};

const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  // The page loads only its own files and talks only to its own origin; the wasm needs 'wasm-unsafe-eval'.
  "content-security-policy":
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
};

/**
 * Starts the server. `dist` is the Vite output directory; apiDomain, accessToken (or oauth) and
 * organizationId are the proxy's (a sandbox URL and its demo OAuth client, for the demo); `connect`
 * ({ clientId, clientSecret, accountsUrl }) serves /svc/*. Resolves with { url, port, close }.
 */
export async function startServer({ dist, apiDomain, accessToken, oauth, organizationId, connect, port = 0, host = "127.0.0.1", maxBodyBytes = 1 << 20, onApi } = {}) {
  const proxy = createProxy({ apiDomain, ...(oauth ? { oauth } : { accessToken }), organizationId, allow: APP_OPERATIONS, maxBodyBytes });
  const root = path.resolve(dist);

  // A body over maxBodyBytes is the proxy's 413, refused from its Content-Length or as it streams.
  const serveApi = toNodeHandler(async (request) => {
    const started = performance.now();
    const { pathname } = new URL(request.url);
    try {
      const response = await proxy(request);
      const headers = new Headers(response.headers);
      // Asked again each time, kept by no shared cache. Not no-store: Chromium reports a no-store answer that
      // the page reads as a stream (the SDK does, to bound its size) as aborted, though every byte came
      // (playwright issue 42742), and DevTools shows the call as failed.
      headers.set("cache-control", "private, no-cache");
      onApi?.({ method: request.method, path: pathname, status: response.status, ms: Math.round(performance.now() - started) });
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    } catch (e) {
      onApi?.({ method: request.method, path: pathname, status: 502, error: String(e?.message ?? e) });
      return Response.json({ code: 1000, message: "the proxy failed" }, { status: 502 });
    }
  });

  async function serveFile(req, res, url) {
    if (req.method !== "GET" && req.method !== "HEAD") return send(res, 405, { message: "method not allowed" }, { allow: "GET, HEAD" });
    let pathname;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      return send(res, 400, { message: "bad path" });
    }
    const file = path.join(root, pathname === "/" ? "index.html" : pathname);
    if (!file.startsWith(root + path.sep) || pathname.includes("\0")) return send(res, 404, { message: "not found" });
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return send(res, 404, { message: "not found" });
    res.setHeader("content-type", TYPES[path.extname(file)] ?? "application/octet-stream");
    res.setHeader("content-length", info.size);
    // Vite names the built assets by their content hash: they never change.
    res.setHeader("cache-control", pathname.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "no-cache");
    if (req.method === "HEAD") return res.end();
    createReadStream(file).on("error", () => res.destroy()).pipe(res);
  }

  let serveSvc = (_req, res) => send(res, 404, { message: "connecting an organization is not set up on this server" });

  const server = http.createServer((req, res) => {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    const url = new URL(req.url ?? "/", `http://${host}:${server.address().port}`);
    if (url.pathname.startsWith("/api/")) return serveApi(req, res);
    if (url.pathname.startsWith("/svc/")) return serveSvc(req, res);
    serveFile(req, res, url).catch(() => (res.headersSent ? res.destroy() : send(res, 500, { message: "the file could not be read" })));
  });
  server.keepAliveTimeout = 5000;
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const actual = server.address().port;
  if (connect) serveSvc = toNodeHandler(connectRoutes({ ...connect, origin: `http://${host}:${actual}` }));
  return {
    url: `http://${host}:${actual}`,
    port: actual,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res, status, body, headers = {}) {
  res.statusCode = status;
  res.setHeader("content-type", "application/json");
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.end(JSON.stringify(body));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const server = await startServer({
    dist: path.join(path.dirname(fileURLToPath(import.meta.url)), "dist"),
    apiDomain: process.env.SVC_API_DOMAIN ?? "http://127.0.0.1:8787",
    accessToken: process.env.SVC_TOKEN ?? "dev-token",
    organizationId: process.env.SVC_ORG ?? "10234695",
    connect: process.env.SVC_CLIENT_ID && {
      clientId: process.env.SVC_CLIENT_ID,
      clientSecret: process.env.SVC_CLIENT_SECRET,
      accountsUrl: process.env.SVC_ACCOUNTS_URL ?? process.env.SVC_API_DOMAIN ?? "http://127.0.0.1:8787",
    },
    port: Number(process.env.PORT ?? 5173),
  });
  console.log(`demo app: ${server.url}`);
  const stop = () => server.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
