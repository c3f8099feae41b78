// A loopback HTTP server that records every request and answers from a queue or a handler; a reply
// `{ hold: true }` is never sent (its connection ends when the server closes).
import assert from "node:assert/strict";
import http from "node:http";
import { Client } from "svc-sdk";

export async function startRecordingServer({ cors } = {}) {
  const requests = [];
  const queue = [];
  let handler = null;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const entry = { method: req.method, url: req.url, headers: req.headers, body, text: body.toString("utf8") };
      if (cors) {
        res.setHeader("access-control-allow-origin", "*");
        res.setHeader("access-control-allow-headers", "*");
        res.setHeader("access-control-allow-methods", "GET,POST,PUT,PATCH,DELETE");
        res.setHeader("access-control-expose-headers", "*");
        if (req.method === "OPTIONS") return res.end();
      }
      requests.push(entry);
      const reply = queue.shift() ?? (handler ? handler(entry) : { status: 200, body: { code: 0, message: "ok" } });
      const send = (r) => {
        if (r.destroy) return req.socket.destroy();
        res.statusCode = r.status ?? 200;
        for (const [k, v] of Object.entries(r.headers ?? {})) res.setHeader(k, v);
        if (r.raw !== undefined) {
          if (!res.hasHeader("content-type")) res.setHeader("content-type", "application/octet-stream");
          return res.end(r.raw);
        }
        res.setHeader("content-type", "application/json");
        res.end(typeof r.body === "string" ? r.body : JSON.stringify(r.body ?? {}));
      };
      // A held reply is never sent: the client must give up by itself (a timeout, an abort).
      if (reply.hold) return;
      if (r_delay(reply)) setTimeout(() => send(reply), reply.delayMs);
      else send(reply);
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply: (...r) => queue.push(...r),
    handle: (fn) => (handler = fn),
    reset: () => { requests.length = 0; queue.length = 0; handler = null; },
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); }),
  };
}

function r_delay(reply) {
  return reply && typeof reply.delayMs === "number" && reply.delayMs > 0;
}

/**
 * The one request a Client made with `options` sends for `listPlans()`, through a `fetch` that records
 * it and answers an empty page: its URL, method and Authorization header (null when there is none).
 */
export async function firstRequest(options) {
  const seen = [];
  const client = new Client({
    organizationId: "1",
    maxRetries: 0,
    ...options,
    fetch: async (url, init) => {
      seen.push({ url: String(url), method: init.method, authorization: new Headers(init.headers).get("authorization") });
      return Response.json({ code: 0, message: "ok", plans: [] });
    },
  });
  await client.listPlans();
  assert.equal(seen.length, 1, JSON.stringify(seen));
  return seen[0];
}
