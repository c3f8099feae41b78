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
run("wasm-bindgen", ["--target", "web", "--out-dir", pkg, wasmIn]);

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
// The JS rule engine and the send loop, beside the runtime snippet.
const rules = snippet.replace(/runtime\.js$/, "rules.js");
const sendJs = snippet.replace(/runtime\.js$/, "send.js");

const built = await import(path.join(pkg, "svc_sdk.js"));
built.initSync({ module: readFileSync(wasm) });
const regions = built.__regions();
const ops = built.operations();

writeFileSync(
  path.join(pkg, "api.js"),
  `// The public surface of svc-sdk, shared by every runtime's entry.
import { Client, operations, __proxyPlan, __rules } from "./svc_sdk.js";
import { SvcError } from "${snippet}";
import { forward, invoke, prepare, request } from "${sendJs}";
import { useRules, validate } from "${rules}";
export { Client, operations, parseEvent, parseWatchNotification, requiredScopes } from "./svc_sdk.js";
export { SvcError, validate };

useRules(__rules);

/** The regions and their API domains. */
export const regions = Object.freeze(${JSON.stringify(regions)});

// One method per catalog row, each checked and built by the one wasm entry point, then sent.
for (const id of ${JSON.stringify(ops.map((o) => o.id))}) {
  const method = { [id](...args) { return invoke(this, id, args); } }[id];
  Object.defineProperty(Client.prototype, id, { value: method, writable: true, configurable: true });
}

const methods = {
  /** A call that is not in the table: \`request(method, family, path, { query?, body? }, options?)\`. */
  request(method, family, path, init, options) {
    return request(this, method, family, path, init, options);
  },
  /** The request an operation would send, validated; nothing is sent. The Authorization header is left out. */
  prepare(id, ...args) {
    return prepare(this, id, args);
  },
};
for (const [name, value] of Object.entries(methods)) {
  Object.defineProperty(Client.prototype, name, { value, writable: true, configurable: true });
}

const known = () => new Set(operations().map((o) => o.id));
let ids;

/** A Standard Schema v1 object for the params of an operation (react-hook-form, any Standard Schema consumer). */
export function schemaFor(operationId) {
  ids ??= known();
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

const PASSED_BACK = ["content-type", "content-disposition", "retry-after", "x-rate-limit-limit", "x-rate-limit-remaining", "x-rate-limit-reset"];

function answer(status, body) {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

/**
 * An edge handler \`(request) => Promise<Response>\` that forwards the allowed operations to the
 * service with the token and the organization added: a browser Client points its apiDomain here
 * and never holds the token. Requests are routed by the catalog and validated before forwarding.
 */
export function createProxy(options) {
  const { allow, ...clientOptions } = options ?? {};
  if (!Array.isArray(allow) || allow.length === 0) {
    throw new SvcError("config", "createProxy needs allow: the operation ids it forwards");
  }
  const known = new Set(operations().map((o) => o.id));
  for (const id of allow) {
    if (!known.has(id)) throw new SvcError("config", \`allow names an unknown operation \${JSON.stringify(id)}\`);
  }
  if (clientOptions.accessToken === undefined) throw new SvcError("config", "createProxy needs the accessToken it adds");
  const allowed = new Set(allow);
  const client = new Client(clientOptions);
  return async function proxy(request) {
    let plan;
    const url = new URL(request.url);
    try {
      const multipart = (request.headers.get("content-type") ?? "").startsWith("multipart/form-data");
      const body = multipart || request.method === "GET" || request.method === "DELETE" ? null : await request.text();
      plan = __proxyPlan(request.method, url.pathname, url.search.slice(1), Object.fromEntries(request.headers), body);
      if (!allowed.has(plan.opId)) {
        return answer(403, { code: 1403, message: \`this proxy does not forward \${plan.opId}\` });
      }
      if (plan.files) {
        const files = [];
        for (const [key, value] of (await request.formData()).entries()) {
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
      const headers = new Headers();
      const values = { "content-type": res.contentType, "content-disposition": res.contentDisposition, "retry-after": res.retryAfter, "x-rate-limit-limit": res.rateLimitLimit, "x-rate-limit-remaining": res.rateLimitRemaining, "x-rate-limit-reset": res.rateLimitReset };
      for (const name of PASSED_BACK) if (values[name]) headers.set(name, values[name]);
      return new Response(res.body, { status: res.status, headers });
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
