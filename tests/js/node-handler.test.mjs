// Issue 38, item 2: toNodeHandler serves createProxy and a receiver of one's own from node:http, Express and
// Connect (mounted at /api), Vite's dev server (a plugin's configureServer) and Fastify (a plugin with the
// passthrough content-type parser), each from its npm package (devDependencies of the root, which the
// consumer project resolves from its parent directory), against the sandbox. Each server binds 127.0.0.1:
// a call through the mounted path reaches its operation with ids beyond 2^53 unchanged; a request body is
// streamed (refused at maxBodyBytes long before the client has sent it all); an answer is written only as
// fast as the client reads it (checked at every chunk the handler is asked for, not by time); a client
// that leaves aborts the upstream call; status, status text and every Set-Cookie pass; a handler that
// throws goes to `next` or is a 500 that does not echo the error.
// Issue 46, item 1: a method a Fetch Request cannot carry (TRACE, TRACK, CONNECT) is a 405 with Allow, never
// a 500, and the handler is not called.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import http from "node:http";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import connect from "connect";
import express from "express";
import Fastify from "fastify";
import { createServer as createViteServer } from "vite";
import { Client, createProxy, parseEvent, SvcError, toNodeHandler } from "svc-sdk";
import { startSandbox } from "./support/sandbox.mjs";

const TOKEN = "node-handler-secret-token-38";
const HOOK_TOKEN = "node-handler-hook-token";
const ORG = "10234695";
const ALLOW = ["listAccounts", "createExpense", "addExpenseAttachment", "listEvents", "getEvent", "listFixedAssets"];
const MOUNTS = ["/api", "/hooks", "/big", "/held"];
const MAX_BODY = 256 * 1024;
const CHUNK = 64 * 1024;
const TOTAL = 64 * 1024 * 1024;
/** What the loopback's socket buffers can hold, with room: an answer never runs further ahead of its reader. */
const AHEAD = 16 * 1024 * 1024;
/** What the server's own write buffer may hold: a handful of chunks, never the answer. */
const BUFFERED = 1024 * 1024;

let sandbox;
let held;
/** The fetch app every server mounts: the proxy, a held proxy, a receiver, and answers of its own. */
let app;
/** Per /big answer: bytes the handler made, bytes the client read, the most made ahead, the server's write buffer at its fullest. */
const big = { produced: 0, received: 0, ahead: 0, buffered: 0, res: null };

before(async () => {
  sandbox = await startSandbox(["--token", `${TOKEN}=*`, "--no-rate-limit"]);
  held = await startHoldingServer();
  const options = { accessToken: TOKEN, organizationId: ORG, allow: ALLOW, maxBodyBytes: MAX_BODY };
  const proxy = createProxy({ ...options, apiDomain: sandbox.url });
  const heldProxy = createProxy({ ...options, apiDomain: held.url });
  app = async (request) => {
    const url = new URL(request.url);
    if (url.pathname.startsWith("/api/")) return proxy(request);
    if (url.pathname.startsWith("/held/")) return heldProxy(request);
    if (url.pathname === "/big") return bigAnswer();
    if (url.pathname === "/hooks/events") return receive(request);
    if (url.pathname === "/hooks/echo") return Response.json({ url: request.url, method: request.method, body: await request.text() });
    if (url.pathname === "/hooks/cookies") {
      return new Response("made", { status: 201, statusText: "Made Here", headers: [["set-cookie", "a=1; Path=/"], ["set-cookie", "b=2"], ["x-kept", "yes"]] });
    }
    if (url.pathname === "/hooks/throws") throw new Error(`the handler failed holding ${TOKEN}`);
    return new Response("not found", { status: 404 });
  };
});
after(async () => {
  await held?.close();
  await sandbox?.close();
});

/** A receiver written as a Fetch handler: a billing event posted to /hooks/events?token=..., checked by parseEvent. */
async function receive(request) {
  try {
    const event = parseEvent(await request.text(), { token: HOOK_TOKEN, url: request.url });
    return Response.json({ event_id: event.event_id, event_type: event.event_type });
  } catch (e) {
    if (!(e instanceof SvcError)) throw e;
    return Response.json({ kind: e.kind }, { status: e.kind === "verification" ? 401 : 400 });
  }
}

/** TOTAL bytes, one CHUNK each time the stream is asked for one; each ask notes how far the handler is ahead of the reader. */
function bigAnswer() {
  Object.assign(big, { produced: 0, received: 0, ahead: 0, buffered: 0 });
  const chunk = new Uint8Array(CHUNK).fill(120);
  const body = new ReadableStream({
    pull(c) {
      big.ahead = Math.max(big.ahead, big.produced - big.received);
      big.buffered = Math.max(big.buffered, big.res?.writableLength ?? 0);
      if (big.produced >= TOTAL) return c.close();
      big.produced += CHUNK;
      c.enqueue(chunk);
    },
  }, { highWaterMark: 0 });
  return new Response(body, { headers: { "content-type": "application/octet-stream" } });
}

/** An upstream that never answers: `next()` resolves with the request it holds, which emits "close" when the caller lets go. */
async function startHoldingServer() {
  const waiting = [];
  const server = http.createServer((req) => waiting.shift()?.(req));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    next: () => new Promise((resolve) => waiting.push(resolve)),
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}

/** Listens on 127.0.0.1; the URL, the server, and its close. */
async function listen(server) {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `http://127.0.0.1:${server.address().port}`, server, close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
}

/** Where a framework sends an error its middleware passed to next(err): the test sees 599. */
function handled(err, req, res, _next) {
  res.statusCode = 599;
  res.end(`handled by next: ${err instanceof Error}`);
}

const FRAMEWORKS = {
  // Not mounted: node:http hands over the whole URL.
  "node:http": async (h) => listen(http.createServer(h)),
  express: async (h) => {
    const server = express();
    for (const mount of MOUNTS) server.use(mount, h);
    // A body parser ahead of it reads the body first.
    server.use("/parsed", express.json(), h);
    server.use(handled);
    return listen(http.createServer(server));
  },
  connect: async (h) => {
    const server = connect();
    for (const mount of MOUNTS) server.use(mount, h);
    server.use(handled);
    return listen(http.createServer(server));
  },
  vite: async (h) => {
    const dir = mkdtempSync(path.join(tmpdir(), "svc-vite-"));
    const plugin = { name: "svc-sdk-proxy", configureServer(server) {
      for (const mount of MOUNTS) server.middlewares.use(mount, h);
      server.middlewares.use(handled);
    } };
    const vite = await createViteServer({ configFile: false, root: dir, appType: "custom", logLevel: "silent", server: { middlewareMode: true, hmr: false, ws: false, watch: null }, plugins: [plugin] });
    const served = await listen(http.createServer(vite.middlewares));
    return { ...served, close: async () => { await served.close(); await vite.close(); rmSync(dir, { recursive: true }); } };
  },
  fastify: async (h) => {
    const server = Fastify();
    await server.register(async (api) => {
      api.removeAllContentTypeParsers();
      api.addContentTypeParser("*", (_request, payload, done) => done(null, payload));
      for (const mount of MOUNTS) api.all(`${mount}/*`, h);
      api.all("/big", h);
    });
    // Outside the plugin, Fastify parses JSON before the handler.
    server.post("/parsed/*", h);
    await server.listen({ port: 0, host: "127.0.0.1" });
    return { url: `http://127.0.0.1:${server.server.address().port}`, server: server.server, close: () => server.close() };
  },
};

/** A raw request: resolves with the response once its headers arrive, and `sent`, the body bytes written by then. */
function send(url, { method = "GET", headers = {}, body } = {}) {
  const req = http.request(url, { method, headers });
  const state = { req, sent: 0 };
  const answered = new Promise((resolve, reject) => {
    req.on("response", (res) => resolve(Object.assign(state, { res, sentAtAnswer: state.sent })));
    req.on("error", reject);
  });
  if (body) {
    (async () => {
      for await (const chunk of body) {
        if (req.destroyed) return;
        state.sent += chunk.length;
        if (!req.write(chunk)) await new Promise((resolve) => req.once("drain", resolve));
      }
      req.end();
    })().catch(() => {});
  } else req.end();
  return answered;
}

async function text(res) {
  let out = "";
  for await (const c of res) out += c;
  return out;
}

for (const [name, serve] of Object.entries(FRAMEWORKS)) {
  describe(name, () => {
    let server;
    before(async () => {
      server = await serve(toNodeHandler((request) => app(request)));
      // Express and Connect have cut the mount path off by the time this listener runs.
      server.server.on("request", (req, res) => {
        if ((req.originalUrl ?? req.url).startsWith("/big")) big.res = res;
      });
    });
    after(() => server?.close());

    test("a Client pointed at the mounted proxy reaches its operations; ids beyond 2^53 pass unchanged; an upload streams through", async () => {
      const client = new Client({ apiDomain: `${server.url}/api`, viaProxy: true, maxRetries: 0 });
      const accounts = (await client.listAccounts()).items;
      const expense = await client.createExpense({ account_id: accounts[0].account_id, date: "2024-01-02", amount: 5 });
      assert.ok(BigInt(expense.expense_id) > 2n ** 53n, expense.expense_id);
      const attached = await client.addExpenseAttachment(expense.expense_id, { files: [new File(["%PDF-1.4 receipt"], "r.pdf")] });
      assert.ok(Array.isArray(attached));
      // The answer's text as the service wrote it: the id's digits, not a double's.
      const raw = await send(`${server.url}/api/books/v3/expenses`, { method: "POST", headers: { "content-type": "application/json" },
        body: [JSON.stringify({ account_id: accounts[0].account_id, date: "2024-01-03", amount: 7 })] });
      const answer = await text(raw.res);
      assert.equal(raw.res.statusCode, 201, answer);
      const id = answer.match(/"expense_id":\s*"?(\d+)/)[1];
      assert.ok(BigInt(id) > 2n ** 53n && !answer.includes(String(Number(id))), answer);
    });

    test("the handler gets the whole URL, the mount path and the query kept, and the body", async () => {
      const res = await fetch(`${server.url}/hooks/echo?x=1&y=%20`, { method: "POST", headers: { "content-type": "text/plain" }, body: "hello" });
      assert.equal(res.status, 200);
      const seen = await res.json();
      assert.equal(seen.url, `${server.url}/hooks/echo?x=1&y=%20`);
      assert.deepEqual([seen.method, seen.body], ["POST", "hello"]);
    });

    test("status, status text and every header of the Response pass, each Set-Cookie on its own", async () => {
      const { res } = await send(`${server.url}/hooks/cookies`);
      assert.equal(res.statusCode, 201);
      assert.equal(res.statusMessage, "Made Here");
      assert.deepEqual(res.headers["set-cookie"], ["a=1; Path=/", "b=2"]);
      assert.equal(res.headers["x-kept"], "yes");
      assert.equal(await text(res), "made");
    });

    test("a receiver written as a Fetch handler takes a billing event posted with its token, and refuses another token", async () => {
      const client = new Client({ apiDomain: `${server.url}/api`, viaProxy: true, maxRetries: 0 });
      const events = (await client.listEvents()).items;
      const raw = await fetch(`${server.url}/api/billing/v1/events/${events[0].event_id}`);
      const { event } = await raw.json();
      const post = (query) => fetch(`${server.url}/hooks/events${query}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(event) });
      const ok = await post(`?token=${HOOK_TOKEN}`);
      assert.equal(ok.status, 200);
      assert.deepEqual(await ok.json(), { event_id: event.event_id, event_type: event.event_type });
      const forged = await post("?token=someone-elses");
      assert.equal(forged.status, 401);
      assert.deepEqual(await forged.json(), { kind: "verification" });
    });

    test("a request body is streamed to the proxy: one far above maxBodyBytes is refused while the client is still sending it", async () => {
      const chunk = Buffer.alloc(CHUNK, 32);
      async function* endless() {
        yield Buffer.from('{"account_id":"1","date":"2024-01-02","amount":5,"description":"');
        for (let n = 0; n < TOTAL / CHUNK; n++) yield chunk;
        yield Buffer.from('"}');
      }
      const answered = await send(`${server.url}/api/books/v3/expenses`, { method: "POST", headers: { "content-type": "application/json" }, body: endless() });
      assert.equal(answered.res.statusCode, 413, await text(answered.res));
      assert.ok(answered.sentAtAnswer < TOTAL, `the answer came after the whole body (${answered.sentAtAnswer} bytes) was sent`);
      answered.req.destroy();
    });

    test("an answer is written as fast as the client reads it: a reader that pauses holds the handler back", async () => {
      const { res } = await send(`${server.url}/big`);
      assert.equal(res.statusCode, 200);
      res.pause();
      // The reader stops until the server's socket is full (or the handler made the whole answer), then reads the rest.
      while (!big.res?.writableNeedDrain && big.produced < TOTAL) await new Promise((r) => setImmediate(r));
      res.on("data", (c) => (big.received += c.length));
      res.resume();
      await once(res, "end");
      assert.equal(big.received, TOTAL);
      assert.ok(big.ahead <= AHEAD, `the handler ran ${big.ahead} bytes ahead of its reader`);
      assert.ok(big.buffered <= BUFFERED, `the server buffered ${big.buffered} bytes of the answer`);
    });

    test("a client that leaves while the proxy waits for the service aborts the upstream call", async () => {
      const upstream = held.next();
      const client = http.get(`${server.url}/held/books/v3/fixedassets`);
      client.on("error", () => {});
      const { socket } = await upstream;
      const gone = once(socket, "close");
      client.destroy();
      await gone;
    });

    test("a handler that throws goes to next(err), or is a 500 that does not echo the error", async () => {
      const res = await fetch(`${server.url}/hooks/throws`);
      const body = await res.text();
      assert.ok(!body.includes(TOKEN), body);
      if (name === "node:http" || name === "fastify") assert.deepEqual([res.status, body], [500, "internal server error"]);
      else assert.deepEqual([res.status, body], [599, "handled by next: true"]);
    });

    if (name === "fastify" || name === "express") {
      test("a body parsed before the handler is a 500 that says what to change, never the body written again", async () => {
        const res = await fetch(`${server.url}/parsed/books/v3/expenses`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"amount":9007199254740993}' });
        assert.equal(res.status, 500);
        assert.match(await res.text(), name === "fastify" ? /addContentTypeParser\("\*"/ : /mount toNodeHandler before it/);
      });
    }
  });
}

test("TRACE, TRACK and CONNECT, which a Fetch Request cannot carry, are a 405 with Allow, and the handler is not called", async () => {
  let calls = 0;
  const handler = toNodeHandler(() => (calls++, new Response("reached")));
  // node:http hands the method over as sent; a listener in front sets the ones Node's own parser refuses (TRACK, CONNECT).
  const server = await listen(http.createServer((req, res) => ((req.method = req.headers["x-method"] ?? req.method), handler(req, res))));
  try {
    const answer = async (method, headers = {}) => {
      const { res } = await send(`${server.url}/api/books/v3/chartofaccounts`, { method, headers });
      return { status: res.statusCode, allow: res.headers.allow, body: await text(res) };
    };
    const traced = await answer("TRACE");
    assert.equal(traced.status, 405, traced.body);
    assert.equal(traced.allow, "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    assert.match(traced.body, /cannot take the method TRACE/);
    // Node 20's parser answers TRACK itself (400) before any listener; a Node that lets it through gets the 405.
    const tracked = await answer("TRACK");
    assert.ok([400, 405].includes(tracked.status), `${tracked.status} ${tracked.body}`);
    if (tracked.status === 405) assert.equal(tracked.allow, traced.allow);
    for (const method of ["TRACK", "CONNECT", "trace"]) {
      const got = await answer("GET", { "x-method": method });
      assert.deepEqual([got.status, got.allow], [405, traced.allow], `${method}: ${got.body}`);
      assert.ok(got.body.includes(`method ${method}`), got.body);
    }
    assert.equal(calls, 0, "the handler was called");
    const passed = await answer("GET", { "x-method": "PROPFIND" });
    assert.deepEqual([passed.status, passed.body, calls], [200, "reached", 1], "another method reaches the handler");
  } finally {
    await server.close();
  }
});

test("require('svc-sdk') has toNodeHandler too; the entries of the browser, Deno and workerd do not carry it", () => {
  const required = createRequire(path.join(process.cwd(), "package.json"))("svc-sdk");
  assert.equal(typeof required.toNodeHandler, "function");
  const pkg = path.join(process.cwd(), "node_modules/svc-sdk/pkg");
  for (const entry of ["web.js", "deno.js", "workerd.js"]) {
    const text = readFileSync(path.join(pkg, entry), "utf8");
    assert.ok(!text.includes("toNodeHandler") && !text.includes("node:stream"), entry);
  }
});
