// toNodeHandler as a Node user's TypeScript meets it (issue 38, item 2): compiled with Node's global types
// (tests/js/types.test.mjs, the Node projects), its handler is what node:http, Connect-style `use` with a
// mount path and Fastify's routes take, typed by shape (the declarations need no @types/node).
import http from "node:http";
import Fastify from "fastify";
import { createProxy, toNodeHandler, type FastifyReplyLike, type NodeRequestLike } from "svc-sdk";

const proxy = createProxy({ accessToken: "token", organizationId: "1", allow: ["listAccounts"] });
const handler = toNodeHandler(proxy);
http.createServer(handler);
http.createServer((req, res) => handler(req, res));
toNodeHandler(async (request) => Response.json({ url: request.url }));

/** Connect's and Vite's `server.middlewares.use(path, fn)`, as they type it. */
declare function use(path: string, fn: (req: http.IncomingMessage, res: http.ServerResponse, next: (err?: any) => void) => void): void;
use("/api", handler);

const app = Fastify();
app.all("/api/*", handler);

export const shapes = (req: http.IncomingMessage, reply: { raw: http.ServerResponse; hijack(): unknown }): [NodeRequestLike, FastifyReplyLike] => [req, reply];
// @ts-expect-error: the handler answers a Response
toNodeHandler(async () => "text");
// @ts-expect-error: a request has headers
handler({ method: "GET" }, { writeHead: () => {}, end: () => {} });
