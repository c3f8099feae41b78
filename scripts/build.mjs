// Builds the npm package into pkg/: release wasm, wasm-bindgen (web target), wasm-opt from the
// binaryen npm package, then the per-runtime entries and the TypeScript declarations.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ensureNodeModules, ensureRust } from "./setup.mjs";
import { log, root, run } from "./lib.mjs";
import { writeDeclarations } from "./declarations.mjs";
import { minifyTree } from "./minify.mjs";

const pkg = path.join(root, "pkg");
const wasmIn = path.join(root, "target/wasm32-unknown-unknown/release/svc_sdk.wasm");

ensureRust();
ensureNodeModules();

log("cargo build --release --target wasm32-unknown-unknown");
run("cargo", ["build", "--release", "--target", "wasm32-unknown-unknown", "-p", "svc-sdk", "--lib"]);

rmSync(pkg, { recursive: true, force: true });
run("wasm-bindgen", ["--target", "web", "--experimental-reset-state-function", "--out-dir", pkg, wasmIn]);

const wasm = path.join(pkg, "svc_sdk_bg.wasm");
const before = statSync(wasm).size;
run(path.join(root, "node_modules/.bin/wasm-opt"), ["-Oz", "--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-sign-ext", "--enable-mutable-globals", "--enable-reference-types", "--enable-multivalue", "--strip-debug", "--strip-producers", wasm, "-o", wasm]);
log(`wasm-opt -Oz: ${before} -> ${statSync(wasm).size} bytes`);

// The snippet holding SvcError: the entries re-export that very module so `instanceof` works.
function findSnippet(dir) {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      const found = findSnippet(p);
      if (found) return found;
    } else if (name === "runtime.js") {
      return p;
    }
  }
  return null;
}
const snippetPath = findSnippet(path.join(pkg, "snippets"));
const snippet = "./" + path.relative(pkg, snippetPath).split(path.sep).join("/");
// wasm-bindgen copies the modules the wasm imports from; the others of src/wasm/js/ go beside them.
const jsDir = path.join(root, "src/wasm/js");
for (const name of readdirSync(jsDir)) copyFileSync(path.join(jsDir, name), path.join(path.dirname(snippetPath), name));
// The send loop, beside the runtime snippet.
const sendJs = snippet.replace(/runtime\.js$/, "send.js");

const built = await import(path.join(pkg, "svc_sdk.js"));
built.initSync({ module: readFileSync(wasm) });
const regions = built.__regions();
const ops = built.operations();

writeFileSync(
  path.join(pkg, "api.js"),
  `// The public surface of svc-sdk, shared by every runtime's entry.
import * as core from "./svc_sdk.js";
import { SvcError } from "${snippet}";
import { forward, invoke, messageOf, prepare, readStream, request, useOperations, wakeAll } from "${sendJs}";
export { SvcError };

// ---- one failing input never takes the others down ----

let generation = 0;

/**
 * Calls into the wasm. A trap (a bug, or memory spent on an input above the limits the user
 * raised) starts a new wasm instance, so that every Client made before keeps working; the caller
 * gets an SvcError of \`kind\`.
 */
function guarded(fn, self, args, kind) {
  try {
    return Reflect.apply(fn, self, args);
  } catch (e) {
    if (!(e instanceof WebAssembly.RuntimeError)) throw e;
    core.__wbg_reset_state();
    generation++;
    wakeAll();
    throw new SvcError(kind, \`the SDK's core failed on this input (\${e.message}) and was restarted; every client keeps working\`);
  }
}

for (const name of Object.getOwnPropertyNames(core.Client.prototype)) {
  const d = Object.getOwnPropertyDescriptor(core.Client.prototype, name);
  if (name === "constructor" || typeof d.value !== "function") continue;
  const fn = d.value;
  const kind = name === "__decode" ? "decode" : name === "__build" ? "validation" : "config";
  Object.defineProperty(core.Client.prototype, name, { ...d, value: function (...args) { return guarded(fn, this, args, kind); } });
}

useOperations((id) => guarded(core.__operation, undefined, [id], "config"));

/** The regions and their API domains. */
export const regions = Object.freeze(${JSON.stringify(regions)});

/** Per Client: the options it was made with, its wasm half, and the instance that half lives in. */
const cores = new WeakMap();

/** A client of the Svc API. The token only ever goes into the Authorization header. */
export class Client {
  constructor(options) {
    let copy = options;
    if (options !== null && typeof options === "object" && !Array.isArray(options)) {
      try {
        copy = { ...options };
      } catch (e) {
        throw new SvcError("config", \`the options could not be read: \${messageOf(e)}\`);
      }
    }
    cores.set(this, { options: copy, core: guarded(Reflect.construct, undefined, [core.Client, [copy]], "config"), generation });
  }

  /** The wasm half, made anew from the same options after the instance was restarted. */
  __core() {
    const s = cores.get(this);
    if (s === undefined) throw new SvcError("config", "this is not a Client made with new Client(options)");
    if (s.core === undefined) throw new SvcError("config", "this Client was freed (client.free()): make a new one");
    if (s.generation !== generation) {
      s.core = guarded(Reflect.construct, undefined, [core.Client, [s.options]], "config");
      s.generation = generation;
    }
    return s.core;
  }

  /** What the limiter allows now: per minute, in flight, today, and what the server last said. */
  rateLimitState() {
    return Client.prototype.__core.call(this).rateLimitState();
  }

  /** A call that is not in the table: \`request(method, family, path, { query?, body? }, options?)\`. */
  request(method, family, path, init, options) {
    return request(this, method, family, path, init, options);
  }

  /** The request an operation would send, validated; nothing is sent. The Authorization header is left out. */
  prepare(id, ...args) {
    return prepare(this, id, args);
  }

  /** Lets go of the client's wasm memory; the client takes no more calls. */
  free() {
    const s = cores.get(this);
    if (s === undefined || s.core === undefined) return;
    const old = s.core;
    s.core = undefined;
    if (s.generation === generation) old.free();
  }

  [Symbol.dispose]() {
    this.free();
  }
}
Object.defineProperty(Client.prototype, "__core", { enumerable: false });

// One method per catalog row, each checked and built by the one wasm entry point, then sent.
for (const id of ${JSON.stringify(ops.map((o) => o.id))}) {
  const method = { [id](...args) { return invoke(this, id, args); } }[id];
  Object.defineProperty(Client.prototype, id, { value: method, writable: true, configurable: true });
}

/** Every operation of the table: \`{ id, family, method, path, scope, pathParams }\`. */
export function operations() {
  return guarded(core.operations, undefined, [], "config");
}

/** The sorted, unique scopes the given operations need. */
export function requiredScopes(ids) {
  return guarded(core.requiredScopes, undefined, [ids], "config");
}

/** A notification-channel callback body, checked against the channel's token. */
export function parseWatchNotification(body, options) {
  return guarded(core.parseWatchNotification, undefined, [body, options], "decode");
}

/** A billing event (webhook body or \`{ event }\` answer) with its event_type checked. */
export function parseEvent(body, options) {
  return guarded(core.parseEvent, undefined, [body, options], "decode");
}

/** Checks params of an operation without sending anything: \`{ ok: true }\` or \`{ ok: false, issues }\`. */
export function validate(operationId, params) {
  return guarded(core.validate, undefined, [operationId, params], "validation");
}

let ids;

/** A Standard Schema v1 object for the params of an operation (react-hook-form, any Standard Schema consumer). */
export function schemaFor(operationId) {
  ids ??= new Set(operations().map((o) => o.id));
  if (!ids.has(operationId)) validate(operationId, {});
  return Object.freeze({
    "~standard": Object.freeze({
      version: 1,
      vendor: "svc-sdk",
      validate(value) {
        const result = validate(operationId, value);
        if (result.ok) return { value };
        return { issues: result.issues.map((issue) => ({ ...issue, message: issue.message, path: issue.path })) };
      },
    }),
  });
}

// ---- the edge proxy ----

function answer(status, body) {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

function isRequest(r) {
  return r !== null && typeof r === "object" && typeof r.url === "string" && typeof r.method === "string" && r.headers !== null && typeof r.headers === "object" && typeof r.headers.get === "function";
}

const TOO_LARGE = Symbol("too large");

/**
 * An edge handler \`(request) => Promise<Response>\` that forwards the allowed operations to the
 * service with the token and the organization added: a browser Client points its apiDomain here
 * and never holds the token. Requests are routed by the catalog and validated before forwarding;
 * a body above \`maxBodyBytes\` is answered with 413 and never forwarded.
 */
export function createProxy(options) {
  let allow, maxBodyBytes, clientOptions;
  try {
    ({ allow, maxBodyBytes, ...clientOptions } = options ?? {});
  } catch (e) {
    throw new SvcError("config", \`the options of createProxy could not be read: \${messageOf(e)}\`);
  }
  if (!Array.isArray(allow) || allow.length === 0) {
    throw new SvcError("config", "createProxy needs allow: the operation ids it forwards");
  }
  const known = new Set(operations().map((o) => o.id));
  for (const id of allow) {
    if (typeof id !== "string" || !known.has(id)) {
      throw new SvcError("config", \`allow names an unknown operation \${typeof id === "string" ? JSON.stringify(id) : \`(a \${typeof id}, not an operation id)\`}\`);
    }
  }
  if (clientOptions.accessToken === undefined) throw new SvcError("config", "createProxy needs the accessToken it adds");
  const limit = guarded(core.__proxyBodyLimit, undefined, [{ maxBodyBytes }], "config");
  const allowed = new Set(allow);
  const client = new Client(clientOptions);
  const tooLarge = () => answer(413, { code: 1413, message: \`the request body is larger than maxBodyBytes (\${limit} bytes)\` });
  return async function proxy(request) {
    if (!isRequest(request)) throw new SvcError("config", "proxy(request) takes the Request the runtime hands over");
    let plan;
    try {
      const url = new URL(request.url);
      const type = request.headers.get("content-type") ?? "";
      if (Number(request.headers.get("content-length")) > limit) return tooLarge();
      const withBody = request.method !== "GET" && request.method !== "DELETE" && request.method !== "HEAD" && request.body;
      let bytes = null;
      if (withBody) {
        try {
          bytes = await readStream(request.body, limit, () => TOO_LARGE);
        } catch (e) {
          if (e === TOO_LARGE) return tooLarge();
          throw e;
        }
      }
      const multipart = type.startsWith("multipart/form-data");
      const body = bytes === null || multipart ? null : new TextDecoder().decode(bytes);
      plan = guarded(core.__proxyPlan, undefined, [request.method, url.pathname, url.search.slice(1), Object.fromEntries(request.headers), body], "decode");
      if (!allowed.has(plan.opId)) {
        return answer(403, { code: 1403, message: \`this proxy does not forward \${plan.opId}\` });
      }
      if (plan.files) {
        const files = [];
        const form = await new Response(bytes ?? new Uint8Array(0), { headers: { "content-type": type } }).formData();
        for (const [key, value] of form.entries()) {
          if (typeof value === "string") plan.params[key] = value;
          else files.push(value);
        }
        plan.params[plan.files.param] = plan.files.many ? files : files[0];
      }
    } catch (e) {
      const status = e instanceof SvcError && e.status ? e.status : 400;
      return answer(status, { code: 1000 + status, message: e instanceof SvcError ? e.message : "the request could not be read" });
    }
    try {
      const res = await forward(client, plan.opId, plan.pathParams, plan.params);
      return new Response(res.body, { status: res.status, headers: res.headers });
    } catch (e) {
      if (e instanceof SvcError && e.kind === "validation") {
        return answer(400, { code: 1001, message: e.message, issues: e.issues ?? [] });
      }
      const status = e instanceof SvcError && e.kind === "timeout" ? 504 : e instanceof SvcError && e.kind === "rate_limited" ? 429 : 502;
      return answer(status, { code: 1000, message: e instanceof SvcError ? e.message : "the service could not be reached" });
    }
  };
}
`,
);

const entries = {
  "node.js": `// Node entry: the wasm bytes are read from disk next to this file.
import { readFileSync } from "node:fs";
import { initSync } from "./svc_sdk.js";
initSync({ module: readFileSync(new URL("./svc_sdk_bg.wasm", import.meta.url)) });
export * from "./api.js";
`,
  "workerd.js": `// Cloudflare workerd entry: the bundler hands over the compiled module.
import wasmModule from "./svc_sdk_bg.wasm";
import { initSync } from "./svc_sdk.js";
initSync({ module: wasmModule });
export * from "./api.js";
`,
  "web.js": `// Browser, Deno and bundler entry: the wasm is fetched next to this file.
import init from "./svc_sdk.js";
await init({ module_or_path: new URL("./svc_sdk_bg.wasm", import.meta.url) });
export * from "./api.js";
`,
};
for (const [name, text] of Object.entries(entries)) writeFileSync(path.join(pkg, name), text);

writeDeclarations(pkg, snippet, ops, regions, built.__types ? built.__types() : {});
rmSync(path.join(pkg, ".gitignore"), { force: true });
minifyTree(pkg);
log(`pkg/ written: wasm ${statSync(wasm).size} bytes, glue ${statSync(path.join(pkg, "svc_sdk.js")).size} bytes`);
