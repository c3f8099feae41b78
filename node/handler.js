// Node's servers (node:http, Express, Connect, Vite's dev server, Fastify) hand over an IncomingMessage and
// a ServerResponse, not the Fetch Request and Response that createProxy and the receivers take: the
// platform makes this JS turn one into the other, both bodies streamed (the answer only as fast as the
// client reads it), the URL whole again where a framework cut its mount path off, and a client that
// leaves aborting the request's signal. What is done with the request is the handler's.
import { PassThrough, Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

const FASTIFY_BODY =
  "Fastify parsed the request body before toNodeHandler could stream it: in the plugin that mounts it, add " +
  '`app.removeAllContentTypeParsers(); app.addContentTypeParser("*", (_r, body, done) => done(null, body));`';
const READ_BODY = "the request body was read before toNodeHandler (by a body parser such as express.json()): mount toNodeHandler before it";
/** The methods a Fetch Request refuses to carry (the Fetch standard's forbidden methods), and those it can. */
const UNCARRIED = /^(CONNECT|TRACE|TRACK)$/i;
const CARRIED = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

/** A (req, res, next?) middleware, or a Fastify route handler (request, reply), around a Fetch handler. */
export function toNodeHandler(handler) {
  return function nodeHandler(req, res, next) {
    let body = req;
    if (typeof res?.hijack === "function" && req?.raw) {
      res.hijack();
      [body, req, res] = [req.body ?? req.raw, req.raw, res.raw];
    }
    serve(handler, req, res, body, next);
  };
}

async function serve(handler, req, res, body, next) {
  // Node's Request constructor throws on these: a 405 that names them, and the handler is not called.
  if (UNCARRIED.test(req.method)) {
    res.writeHead(405, { allow: CARRIED, "content-type": "text/plain; charset=utf-8" });
    return void res.end(`a Fetch handler cannot take the method ${req.method}; allowed: ${CARRIED}`);
  }
  const aborter = new AbortController();
  res.on("close", () => res.writableFinished || aborter.abort());
  const sent = req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"]) > 0;
  if (!(body instanceof Readable)) return fail(res, FASTIFY_BODY);
  if (sent && body.readableEnded) return fail(res, READ_BODY);
  let response, headers;
  try {
    const scheme = req.socket?.encrypted ? "https" : "http";
    const init = { method: req.method, headers: headersOf(req.rawHeaders), signal: aborter.signal };
    if (sent) Object.assign(init, { body: streamOf(body), duplex: "half" });
    response = await handler(new Request(`${scheme}://${req.headers.host ?? "localhost"}${req.originalUrl ?? req.url}`, init));
    const cookies = response.headers.getSetCookie();
    headers = Object.fromEntries([...response.headers].filter(([k]) => k !== "set-cookie"));
    if (cookies.length) headers["set-cookie"] = cookies;
  } catch (e) {
    return next ? next(e) : fail(res, "internal server error");
  }
  res.writeHead(response.status, response.statusText || undefined, headers);
  if (!response.body || req.method === "HEAD") return void (response.body?.cancel(), res.end());
  // On a client that left or an answer that failed midway, pipeline destroys both ends: nothing is left to tell.
  await pipeline(Readable.fromWeb(response.body), res).catch(() => {});
}

/**
 * The request body as a web stream. One the handler lets go of (the proxy at maxBodyBytes) is read to
 * its end and dropped, as Node does with a body no one reads, so the answer reaches the client and the
 * connection is not held paused; one the client breaks off errors the stream.
 */
function streamOf(body) {
  const pass = body.pipe(new PassThrough());
  pass.on("close", () => body.resume());
  body.once("error", (e) => pass.destroy(e));
  return Readable.toWeb(pass);
}

/** A 500 whose body is `text`: never the handler's error, which may hold what the client must not see. */
function fail(res, text) {
  res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
  res.end(text);
}

/** The request's headers, each value kept (HTTP/2's pseudo-headers left out). */
function headersOf(raw) {
  const headers = new Headers();
  for (let i = 0; i < raw.length; i += 2) if (!raw[i].startsWith(":")) headers.append(raw[i], raw[i + 1]);
  return headers;
}
