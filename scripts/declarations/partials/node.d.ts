// pkg/node.d.ts (and node.d.cts, importing ./index.cjs): the types of package.json's `node` condition,
// everything of index.d.ts and what Node's entries add, toNodeHandler and the shapes it reads and writes.

export * from "./index.js";
/** What toNodeHandler reads of a request of node:http, Express, Connect or Vite's dev server (Node's IncomingMessage), by its shape. */
export interface NodeRequestLike {
  method?: string;
  url?: string;
  headers: object;
  rawHeaders: string[];
}
/** What toNodeHandler writes to (Node's ServerResponse), by its shape. */
export interface NodeResponseLike {
  writeHead(statusCode: number, ...rest: unknown[]): unknown;
  end(...args: unknown[]): unknown;
}
/** A Fastify route handler's request, by its shape: its `raw` request, and its body (a stream, from a passthrough content-type parser). */
export interface FastifyRequestLike {
  raw: NodeRequestLike;
  body?: unknown;
}
/** A Fastify route handler's reply, by its shape. */
export interface FastifyReplyLike {
  raw: NodeResponseLike;
  hijack(): unknown;
}
/**
 * Node only (the entries of the other runtimes do not export it): a Fetch handler (`createProxy`'s, or a
 * receiver of your own) as a `(req, res, next?)` middleware of node:http, Express, Connect and Vite's dev
 * server, or a Fastify route handler. Both bodies are streamed (the answer as fast as the client reads
 * it); the URL is whole again where the framework cut the mount path off (`req.originalUrl`); a client
 * that leaves aborts `request.signal`. A handler that throws goes to `next`, or is a 500 whose body is
 * not the error's. Under Fastify, the body must reach it unparsed (a passthrough content-type parser).
 */
export declare function toNodeHandler(
  handler: (request: Request) => Promise<Response>,
): (req: NodeRequestLike | FastifyRequestLike, res: NodeResponseLike | FastifyReplyLike, next?: (error?: unknown) => void) => void;
