// svc-sdk/validate through the installed package: in Node it answers as svc-sdk does and loads its own
// wasm, nothing of the client; a bundler's graph of it holds nothing of the client either; and in
// headless Chromium a Vite build, an esbuild bundle and a plain <script type="module"> page that
// imports the entry file by relative path each show a validation result, with no init call.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as main from "svc-sdk";
import * as entry from "svc-sdk/validate";
import { launchChromium } from "./support/chromium.mjs";

const consumer = path.dirname(fileURLToPath(import.meta.url));
const root = process.env.SVC_ROOT;
const h = await import(pathToFileURL(path.join(root, "tests/runtimes/harness.mjs")));
const installed = path.join(consumer, "node_modules/svc-sdk/pkg");
const validateWasm = path.join(installed, "validate/svc_sdk_bg.wasm");

/** Each vendor example (tests/fixtures/vendor) with the row of its family, method and path, and the params it sends. */
function vendorCases() {
  const dir = path.join(root, "tests/fixtures/vendor");
  const ops = main.operations();
  const cases = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".json"))) {
    const family = name.split("__")[0].split("-as-").pop();
    const file = JSON.parse(readFileSync(path.join(dir, name), "utf8"));
    const op = ops.find((o) => o.family === family && o.method === file.method && o.path === file.path);
    if (!op) continue;
    const { organization_id, ...query } = file.query_params_example ?? {};
    const params = ["POST", "PUT", "PATCH"].includes(op.method) ? file.request_body : query;
    if (params && typeof params === "object") cases.push({ id: op.id, name, params });
  }
  return cases;
}

/** The params broken one way at a time: each top-level field left out, or given a value of no field's type. */
function broken(params) {
  return Object.keys(params).flatMap((key) => {
    const { [key]: _, ...rest } = params;
    return [rest, { ...params, [key]: [[Symbol("x")]] }];
  });
}

const GARBAGE = [undefined, null, 0, "", [], { unknown_field: 1 }, { a: NaN }, Object.create(null)];

test("svc-sdk/validate exports what validate.d.ts declares: validate, schemaFor, operations, requiredScopes, SvcError, ExactNumber", () => {
  const dts = readFileSync(path.join(installed, "validate.d.ts"), "utf8");
  const values = dts.match(/^export \{ ([^}]+) \}/m)[1].split(", ");
  assert.deepEqual(Object.keys(entry).sort(), [...values].sort());
  assert.deepEqual(values.sort(), ["ExactNumber", "SvcError", "operations", "requiredScopes", "schemaFor", "validate"]);
  assert.match(dts, /^export type \{[^}]*\bIssue\b[^}]*\bIssueCode\b[^}]*\bOperationParams\b[^}]*\bValidationResult\b/m);
});

test("validate gives svc-sdk's results for every vendor example, each broken one field at a time, and garbage", () => {
  const cases = vendorCases();
  assert.ok(cases.length >= 90, `${cases.length} vendor examples`);
  let valid = 0;
  let invalid = 0;
  for (const c of cases) {
    for (const params of [c.params, ...broken(c.params), ...GARBAGE]) {
      const got = entry.validate(c.id, params);
      assert.deepEqual(got, main.validate(c.id, params), `${c.name}: ${JSON.stringify(params)}`);
      got.ok ? valid++ : invalid++;
    }
  }
  assert.ok(valid >= 100 && invalid >= 500, `${valid} valid and ${invalid} invalid params compared`);
});

test("operations, requiredScopes, schemaFor and an unknown operation's SvcError are svc-sdk's", () => {
  assert.deepEqual(entry.operations(), main.operations());
  const ids = main.operations().map((o) => o.id);
  assert.deepEqual(entry.requiredScopes(ids), main.requiredScopes(ids));
  for (const value of [{ task_name: "Design" }, { task_name: "" }, null]) {
    assert.deepEqual(entry.schemaFor("createTask")["~standard"].validate(value), main.schemaFor("createTask")["~standard"].validate(value));
  }
  const thrown = (sdk, fn) => {
    try {
      fn(sdk);
    } catch (e) {
      return { svcError: e instanceof sdk.SvcError, name: e.name, kind: e.kind, message: e.message };
    }
  };
  for (const fn of [(sdk) => sdk.validate("createtask", {}), (sdk) => sdk.schemaFor("nope"), (sdk) => sdk.requiredScopes("listPlans")]) {
    const got = thrown(entry, fn);
    assert.equal(got.svcError, true);
    assert.deepEqual(got, thrown(main, fn));
  }
});

test("importing or requiring svc-sdk/validate reads its own wasm and loads nothing of the client", async () => {
  const probe = `
    import fs from "node:fs";
    import { createRequire, syncBuiltinESMExports } from "node:module";
    const read = [];
    const readFileSync = fs.readFileSync;
    fs.readFileSync = (file, ...rest) => (read.push(String(file)), readFileSync(file, ...rest));
    syncBuiltinESMExports();
    const esm = await import("svc-sdk/validate");
    const cjs = createRequire(import.meta.url)("svc-sdk/validate");
    const ok = esm.validate("createTask", { task_name: "x" }).ok && cjs.validate("createTask", { task_name: "x" }).ok;
    console.log(JSON.stringify({ read: read.filter((f) => f.includes("svc-sdk")), ok }));`;
  const r = await h.runChild(process.execPath, ["--no-experimental-require-module", "--input-type=module", "-e", probe], { cwd: consumer, env: h.toolEnv(), timeoutMs: 30_000 });
  assert.equal(r.code, 0, r.output);
  const { read, ok } = JSON.parse(r.stdout.trim().split("\n").at(-1));
  assert.equal(ok, true);
  const wasm = read.map((f) => (f.startsWith("file:") ? fileURLToPath(f) : f)).filter((f) => f.endsWith(".wasm"));
  assert.deepEqual(wasm, [validateWasm, validateWasm], "the ESM and the CommonJS entry each read pkg/validate/svc_sdk_bg.wasm, and no other wasm");
});

test("a bundler's graph of svc-sdk/validate (esbuild, browser conditions) holds nothing of the client", async () => {
  const { build } = await import(pathToFileURL(path.join(h.root, "node_modules/esbuild/lib/main.js")));
  const { metafile } = await build({
    stdin: { contents: 'export * from "svc-sdk/validate";', resolveDir: consumer },
    bundle: true,
    format: "esm",
    platform: "browser",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const inputs = Object.keys(metafile.inputs).filter((f) => f.includes("svc-sdk/pkg/"));
  const relative = inputs.map((f) => f.slice(f.indexOf("svc-sdk/pkg/") + "svc-sdk/pkg/".length).replace(/snippets\/[^/]+\/src\/wasm\/js\//, "snippets/"));
  assert.deepEqual(relative, ["validate/web.js"]);
  // validate/web.js is one module, the binding's glue and snippets bundled: none of the client's exports is in it.
  assert.doesNotMatch(readFileSync(path.join(installed, "validate/web.js"), "utf8"), /\b(__call|__run|Client)\b/);
});

describe("in headless Chromium, with no init call", () => {
  let browser;
  let pageDir;
  const servers = [];

  /** Serves `dir` and opens `file` there; resolves to the page's report and the wasm files it fetched. */
  async function open(dir, file) {
    const srv = await h.serveStatic(dir);
    servers.push(srv);
    const page = await browser.newPage();
    const logs = [];
    const wasm = [];
    page.on("console", (m) => logs.push(`console.${m.type()}: ${m.text()}`));
    page.on("pageerror", (e) => logs.push(`pageerror: ${e.message}`));
    page.on("response", (r) => r.url().endsWith(".wasm") && wasm.push(r));
    await page.goto(`http://127.0.0.1:${srv.address().port}/${file}`, { timeout: 20_000 });
    try {
      await page.waitForSelector("body[data-status]", { timeout: 20_000 });
    } catch (e) {
      throw new Error(`the page never finished: ${e.message}\n${logs.join("\n")}`);
    }
    const report = JSON.parse(await page.textContent("#result"));
    const fetched = await Promise.all(wasm.map(async (r) => ({ type: r.headers()["content-type"], bytes: (await r.body()).length })));
    await page.close();
    assert.equal(report.error, undefined, `${report.error}\n${logs.join("\n")}`);
    return { report, fetched };
  }

  /** The page's answers are those of svc-sdk (in Node), and it fetched the validate wasm once, as application/wasm. */
  async function check({ report, fetched }) {
    const { answers } = await import(pathToFileURL(path.join(pageDir, "report.mjs")));
    assert.deepEqual(report.answers, answers(main));
    assert.equal(report.answers.invalid.ok, false);
    assert.deepEqual(fetched, [{ type: "application/wasm", bytes: statSync(validateWasm).size }]);
  }

  before(async () => {
    pageDir = h.installRuntime(consumer, "validate");
    browser = await launchChromium(path.join(path.dirname(pageDir), ".state"));
  }, { timeout: 60_000 });
  after(async () => {
    await h.withTimeout(browser?.close() ?? Promise.resolve(), 10_000, "closing Chromium").catch(() => {});
    await Promise.all(servers.map(h.closeServer));
  });

  test("a Vite build of a page that imports only svc-sdk/validate", { timeout: 90_000 }, async () => {
    const dist = path.join(path.dirname(pageDir), "dist-vite");
    await h.viteBuild(pageDir, dist, { cwd: consumer });
    const assets = readdirSync(path.join(dist, "assets"));
    assert.deepEqual(assets.filter((f) => f.endsWith(".wasm")).map((f) => statSync(path.join(dist, "assets", f)).size), [statSync(validateWasm).size], "one wasm shipped: the validate one");
    await check(await open(dist, "index.html"));
  });

  test("an esbuild bundle of the same page, the wasm copied beside it as a bundler's asset step does", { timeout: 60_000 }, async () => {
    const { build } = await import(pathToFileURL(path.join(h.root, "node_modules/esbuild/lib/main.js")));
    const dist = h.ensureDir(path.join(path.dirname(pageDir), "dist-esbuild"));
    await build({ entryPoints: [path.join(pageDir, "main.mjs")], outfile: path.join(dist, "main.mjs"), bundle: true, format: "esm", platform: "browser", minify: true, logLevel: "warning" });
    copyFileSync(path.join(pageDir, "index.html"), path.join(dist, "index.html"));
    copyFileSync(validateWasm, path.join(dist, "svc_sdk_bg.wasm"));
    await check(await open(dist, "index.html"));
  });

  test("a plain <script type=\"module\"> page that imports pkg/validate/web.js by relative path", { timeout: 60_000 }, async () => {
    await check(await open(consumer, path.relative(consumer, path.join(pageDir, "plain.html"))));
  });
});
