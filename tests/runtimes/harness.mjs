// Test-side helpers for the runtime smoke tests (tests/js/runtimes-*.test.mjs). They run in Node,
// in the consumer project, and load this file from SVC_ROOT, so the tools (deno, wrangler, vite,
// playwright-core: devDependencies of the root package) resolve from the root's node_modules while
// the runtimes resolve "svc-sdk" from the consumer's node_modules, as a user's project does.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cpSync, createReadStream, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = process.env.SVC_ROOT ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const bin = (name) => path.join(root, "node_modules/.bin", name);
export const ORG = "10234695";
/** A fixed asset id beyond 2^53: JSON.parse would round it to 3640355000000319000. */
export const BIG_ID = "3640355000000319008";

/**
 * Copies tests/runtimes/scenario.mjs and tests/runtimes/<name>/ into <consumer>/runtime-<name>/
 * (fresh; one directory per runtime, so the test files may also run in parallel) and returns the
 * host project's directory, <consumer>/runtime-<name>/<name>.
 */
export function installRuntime(consumer, name) {
  const dir = path.join(consumer, `runtime-${name}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(path.join(root, "tests/runtimes/scenario.mjs"), path.join(dir, "scenario.mjs"));
  cpSync(path.join(root, "tests/runtimes/receivables.mjs"), path.join(dir, "receivables.mjs"));
  cpSync(path.join(root, "tests/runtimes", name), path.join(dir, name), { recursive: true });
  return path.join(dir, name);
}

/** Answers the scenario's calls: a one-item list whose id exceeds 2^53 (sent as a JSON number), and an error envelope for page 2. */
export async function startScenarioServer(startRecordingServer) {
  const server = await startRecordingServer({ cors: true });
  server.handle((req) => {
    const url = new URL(req.url, server.url);
    if (req.method !== "GET" || url.pathname !== "/books/v3/fixedassets") {
      return { status: 404, body: { code: 5, message: "Invalid URL Passed" } };
    }
    if (url.searchParams.get("page") === "2") {
      return { status: 400, body: { code: 1002, message: "Page 2 does not exist." } };
    }
    return {
      status: 200,
      body:
        `{"code":0,"message":"success","fixedassets":[{"fixed_asset_id":${BIG_ID},"asset_number":"FA-00013",` +
        `"asset_name":"Laptop","status":"draft","asset_cost":1000,"custom_marker":"kept"}],` +
        `"page_context":{"page":1,"per_page":1,"has_more_page":false}}`,
    };
  });
  return server;
}

/** What the runtime reported, and what the recording server received, for one token. */
export function checkScenario(report, server, token) {
  assert.ok(report && typeof report === "object", "a JSON report");
  assert.equal(report.error, undefined, `the scenario failed: ${JSON.stringify(report.error)}`);
  assert.equal(report.ok, true, `steps done: ${report.steps}`);

  for (const key of ["first", "after"]) {
    const p = report[key];
    assert.equal(p.count, 1, key);
    assert.equal(p.idType, "string", `${key}: the id is a string`);
    assert.equal(p.id, BIG_ID, `${key}: the id keeps every digit`);
    assert.equal(p.name, "Laptop", key);
    assert.equal(p.unknownFieldKept, "kept", `${key}: unknown fields are kept`);
    assert.deepEqual(p.iterated, [BIG_ID], `${key}: the page is async-iterable`);
  }

  const v = report.validation;
  assert.equal(v.thrown, true, "an invalid call rejects");
  assert.equal(v.instanceofSvcError, true, "instanceof SvcError");
  assert.equal(v.instanceofError, true, "instanceof Error");
  assert.equal(v.kind, "validation");
  assert.equal(v.operationId, "listFixedAssets");
  assert.ok(Array.isArray(v.issues) && v.issues.length >= 1, "issues");
  assert.deepEqual(v.issues[0].path, ["per_page"]);
  assert.equal(v.issues[0].code, "invalid_type");
  assert.deepEqual(report.validate.good, { ok: true });

  const a = report.apiError;
  assert.equal(a.thrown, true, "an error envelope rejects");
  assert.equal(a.instanceofSvcError, true, "instanceof SvcError");
  assert.deepEqual([a.kind, a.status, a.code, a.operationId], ["api", 400, 1002, "listFixedAssets"]);
  assert.equal(a.message, "Page 2 does not exist.");
  assert.ok(!JSON.stringify(report).includes(token), "the token appears nowhere in the report");

  // The server side: list, error, list again. The invalid call sent nothing.
  const seen = server.requests.map((r) => {
    const url = new URL(r.url, server.url);
    return [r.method, url.pathname, url.searchParams.get("page"), r.headers.authorization, url.searchParams.get("organization_id"), url.searchParams.get("per_page")];
  });
  const want = (page) => ["GET", "/books/v3/fixedassets", page, `Svc-oauthtoken ${token}`, ORG, "1"];
  assert.deepEqual(seen, [want(null), want("2"), want(null)]);
}

/** A free loopback port (closed again before it is handed over). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts a child in its own process group (so stop() ends it and everything it started, and
 * nothing else), collecting its output. `exited` resolves with { code, signal }.
 */
export function startChild(cmd, args, { cwd, env, label = path.basename(cmd) } = {}) {
  const child = spawn(cmd, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise((resolve) => {
    child.once("error", (error) => resolve({ code: null, signal: null, error }));
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  let done = false;
  exited.then(() => (done = true));
  const signalGroup = (sig) => {
    try {
      process.kill(-child.pid, sig);
    } catch {}
  };
  return {
    child,
    exited,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    output: () => `--- ${label} stdout ---\n${stdout.slice(-4000)}\n--- ${label} stderr ---\n${stderr.slice(-4000)}`,
    async stop(graceMs = 3000) {
      if (child.pid === undefined) return;
      signalGroup("SIGTERM");
      if (!done) {
        const late = await Promise.race([exited.then(() => false), sleep(graceMs).then(() => true)]);
        if (late) {
          signalGroup("SIGKILL");
          await Promise.race([exited, sleep(1000)]);
        }
      }
      // Grandchildren may outlive the leader: make sure the whole group is gone.
      signalGroup("SIGKILL");
    },
  };
}

/** Runs a command to its end within timeoutMs; resolves { code, signal, stdout, stderr, ms }. */
export async function runChild(cmd, args, { cwd, env, timeoutMs, label } = {}) {
  const started = performance.now();
  const c = startChild(cmd, args, { cwd, env, label });
  const timer = sleep(timeoutMs).then(() => "timeout");
  const result = await Promise.race([c.exited, timer]);
  if (result === "timeout") {
    await c.stop(500);
    throw new Error(`${label ?? cmd} did not finish within ${timeoutMs} ms\n${c.output()}`);
  }
  return { ...result, stdout: c.stdout, stderr: c.stderr, output: c.output(), ms: Math.round(performance.now() - started) };
}

/** Vite's build of the page in `dir` into `dist`, run in `cwd` (the project whose svc-sdk it bundles); its time in ms. */
export async function viteBuild(dir, dist, { cwd, mode, timeoutMs = 60_000 }) {
  const args = ["build", dir, ...(mode ? ["--mode", mode] : []), "--outDir", dist, "--emptyOutDir", "--logLevel", "warn"];
  const r = await runChild(bin("vite"), args, { cwd, env: toolEnv(), timeoutMs, label: "vite build" });
  assert.equal(r.code, 0, `vite build of ${dir} failed\n${r.output}`);
  return r.ms;
}

export function sleep(ms) {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    t.unref?.();
  });
}

/** The version of wrangler installed at the root. */
export const wranglerVersion = () => JSON.parse(readFileSync(path.join(root, "node_modules/wrangler/package.json"), "utf8")).version;

/**
 * wrangler must reach no host but loopback: no metrics, no error reports, its npm update check
 * answered from a fresh cache (and pointed at a closed loopback port should the cache be ignored),
 * and miniflare's Request.cf object read from a fresh local cache instead of being downloaded.
 */
export function offlineWranglerEnv(workerDir) {
  const state = path.join(workerDir, ".state");
  const tmp = ensureDir(path.join(state, "tmp"));
  ensureDir(path.join(tmp, "update-check"));
  writeFileSync(path.join(tmp, "update-check", "wrangler-latest.json"), JSON.stringify({ latest: wranglerVersion(), lastUpdate: Date.now() }));
  mkdirSync(path.join(workerDir, "node_modules/.mf"), { recursive: true });
  writeFileSync(path.join(workerDir, "node_modules/.mf/cf.json"), JSON.stringify({ colo: "LOCAL", country: "US", httpProtocol: "HTTP/1.1" }));
  return toolEnv({
    TMPDIR: tmp,
    XDG_CONFIG_HOME: ensureDir(path.join(state, "config")),
    WRANGLER_LOG_PATH: ensureDir(path.join(state, "logs")),
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_SEND_ERROR_REPORTS: "false",
    npm_registry: "http://127.0.0.1:9/",
    CI: "1",
  });
}

/**
 * `wrangler dev` (local workerd) of the worker in `dir` on free loopback ports, kept offline; resolves
 * { child, url, ms } once `readyPath` answers, and stops it if that never happens.
 */
export async function startWranglerDev(dir, readyPath, timeoutMs) {
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const started = performance.now();
  const child = startChild(
    process.execPath,
    [path.join(root, "node_modules/wrangler/bin/wrangler.js"), "dev", "--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspectorPort), "--local-protocol", "http", "--show-interactive-dev-session=false", "--log-level", "info"],
    { cwd: dir, env: offlineWranglerEnv(dir), label: "wrangler dev" },
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}${readyPath}`, { timeoutMs, child });
  } catch (e) {
    await child.stop();
    throw e;
  }
  return { child, url, ms: Math.round(performance.now() - started) };
}

/** Polls url until any HTTP answer arrives, or throws after timeoutMs (also if the child exited). */
export async function waitForHttp(url, { timeoutMs, child }) {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child?.exited.then(() => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`the server exited before answering ${url}\n${child.output()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      return;
    } catch {}
    await sleep(200);
  }
  throw new Error(`no answer from ${url} within ${timeoutMs} ms${child ? "\n" + child.output() : ""}`);
}

/** An environment for child tools: no colours, no prompts, no telemetry, no update checks. */
export function toolEnv(extra = {}) {
  const env = { ...process.env, NO_COLOR: "1", ...extra };
  delete env.NODE_TEST_CONTEXT; // a child node must not talk to our test runner
  delete env.FORCE_COLOR;
  return env;
}

/** Resolves with what p resolves to, or rejects after ms. */
export function withTimeout(p, ms, what) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}

export function ensureDir(dir) {
  mkdirSync(dir, { recursive: true });
  return dir;
}

const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".css": "text/css", ".svg": "image/svg+xml", ".json": "application/json" };

/**
 * Serves the files under `dir` on a loopback port (.wasm as application/wasm, nothing cached);
 * `answer(req, res, pathname)`, when given, answers first what it returns true for.
 */
export function serveStatic(dir, answer) {
  const srv = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url, "http://127.0.0.1").pathname);
    if (answer?.(req, res, pathname)) return;
    const file = path.join(dir, pathname === "/" ? "index.html" : pathname);
    if (!file.startsWith(dir + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.statusCode = 404;
      return res.end("not found");
    }
    res.setHeader("content-type", TYPES[path.extname(file)] ?? "application/octet-stream");
    res.setHeader("cache-control", "no-store");
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => srv.listen(0, "127.0.0.1", () => resolve(srv)));
}

/** Stops a server of serveStatic, its open connections too. */
export function closeServer(srv) {
  return new Promise((resolve) => (srv ? (srv.closeAllConnections(), srv.close(resolve)) : resolve()));
}
