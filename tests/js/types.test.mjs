// The package's declarations as TypeScript users meet them: tests/types/consumer.ts compiled by
// tsc --strict with skipLibCheck: false in one project per module system (node16 CommonJS,
// nodenext ESM, bundler, node10) and per set of global types (Node's alone, the DOM's,
// Cloudflare's), and checked by `deno check`; the ESM project with Node's types compiles tests/types/node.ts (toNodeHandler); every @ts-expect-error line must be an error.
// tests/types/node-only.ts imports toNodeHandler under each condition: it compiles under `node` alone. The
// projects with a worker's global types (the DOM's or Cloudflare's) compile tests/types/cloudflare.ts
// too, and every project but the CommonJS node16 one tests/types/testing.ts (svc-sdk/testing is ESM only). They run in parallel. A request field's hover (TypeScript's language service) shows its rules.
// tests/types/wrangler-worker.ts, the README's fleet worker in TypeScript, compiles against the Env that
// `wrangler types` writes for the README's binding (SvcLimiter must be a Durable Object class to Cloudflare's types).
// tests/types/alone.ts compiles where only svc-sdk resolves: the declarations import nothing (no @standard-schema/spec).
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as sdk from "svc-sdk";

const root = process.env.SVC_ROOT;
const consumer = process.cwd();
const h = await import(pathToFileURL(path.join(root, "tests/runtimes/harness.mjs")));
const dts = readFileSync(path.join(consumer, "node_modules/svc-sdk/pkg/index.d.ts"), "utf8");

const NODE = { lib: ["ES2022"], types: ["node"] };
const DOM = { lib: ["ES2022", "DOM", "DOM.Iterable"], types: [] };
const WORKERS = { lib: ["ES2022"], types: ["@cloudflare/workers-types"] };
const BOTH = ["consumer.ts", "cloudflare.ts", "testing.ts"];

const projects = [
  { name: "node16-cjs", type: "commonjs", options: { module: "Node16", moduleResolution: "Node16", ...NODE } },
  { name: "nodenext-esm", type: "module", options: { module: "NodeNext", moduleResolution: "NodeNext", ...NODE }, files: ["consumer.ts", "testing.ts", "node.ts"] },
  { name: "bundler-dom", type: "module", options: { module: "ESNext", moduleResolution: "Bundler", ...DOM }, files: BOTH },
  { name: "node10-dom", type: "commonjs", options: { module: "CommonJS", moduleResolution: "Node10", ...DOM }, files: BOTH },
  { name: "workerd", type: "module", options: { module: "ESNext", moduleResolution: "Bundler", customConditions: ["workerd"], ...WORKERS }, files: BOTH },
];

/** A fresh project <consumer>/types-<name>/ (inside the consumer, so that "svc-sdk" resolves to the installed package). */
function project(name, files, extra) {
  const dir = path.join(consumer, `types-${name}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const f of files) cpSync(path.join(root, "tests/types", f), path.join(dir, f));
  for (const [f, json] of Object.entries(extra)) writeFileSync(path.join(dir, f), JSON.stringify(json, null, 2));
  return dir;
}

async function check(label, cmd, args, cwd, env = h.toolEnv()) {
  const r = await h.runChild(cmd, args, { cwd, env, timeoutMs: 110_000, label });
  assert.equal(r.code, 0, `${label} failed:\n${r.stdout}${r.stderr}`);
}

test("the declarations compile, strict and with skipLibCheck: false, everywhere; wrong values do not", { timeout: 120_000 }, async (t) => {
  const tsc = path.join(root, "node_modules/typescript/bin/tsc");
  const runs = projects.map(({ name, type, options, files = ["consumer.ts"] }) =>
    t.test(name, async () => {
      const compilerOptions = { strict: true, noImplicitOverride: true, noEmit: true, target: "ES2022", skipLibCheck: false, ...options };
      const dir = project(name, files, { "package.json": { private: true, type }, "tsconfig.json": { compilerOptions, files } });
      await check(`tsc (${name})`, process.execPath, [tsc, "-p", "tsconfig.json"], dir);
    }),
  );
  runs.push(
    t.test("deno check", async () => {
      const dir = project("deno", ["consumer.ts"], { "deno.json": { nodeModulesDir: "manual" } });
      const env = h.toolEnv({ DENO_DIR: path.join(consumer, ".deno"), DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1", NPM_CONFIG_REGISTRY: "http://127.0.0.1:9/" });
      await check("deno check", h.bin("deno"), ["check", "consumer.ts"], dir, env);
    }),
  );
  await Promise.all(runs);
});

test("the README's fleet worker, in TypeScript, compiles against the Env that `wrangler types` writes for the README's binding (skipLibCheck: false)", { timeout: 120_000 }, async () => {
  // The README's wrangler.toml excerpt: the SVC_LIMITER binding of the class SvcLimiter, and its migration.
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const binding = readme.match(/```toml\n(\[\[durable_objects\.bindings\]\][\s\S]*?)\n```/)[1];
  assert.match(binding, /class_name = "SvcLimiter"/);
  const toml = ['name = "svc-sdk-types"', 'main = "wrangler-worker.ts"', 'compatibility_date = "2024-09-23"', "", "[vars]", 'SVC_ORGANIZATION_ID = "10234695"', 'SVC_REGION = "us"', "", binding, ""].join("\n");
  const compilerOptions = { strict: true, noImplicitOverride: true, noEmit: true, target: "ES2022", skipLibCheck: false, module: "ESNext", moduleResolution: "Bundler", customConditions: ["workerd"], ...WORKERS };
  const files = ["wrangler-worker.ts", "worker-configuration.d.ts"];
  const dir = project("wrangler", ["wrangler-worker.ts"], { "package.json": { private: true, type: "module" }, "tsconfig.json": { compilerOptions, files } });
  writeFileSync(path.join(dir, "wrangler.toml"), toml);
  writeFileSync(path.join(dir, ".dev.vars"), "SVC_TOKEN=dev-token\n"); // a secret: wrangler types reads its name here
  const wrangler = path.join(root, "node_modules/wrangler/bin/wrangler.js");
  await check("wrangler types", process.execPath, [wrangler, "types"], dir, h.offlineWranglerEnv(dir));
  const generated = readFileSync(path.join(dir, "worker-configuration.d.ts"), "utf8");
  assert.match(generated, /\bSVC_LIMITER: DurableObjectNamespace<import\("\.\/wrangler-worker"\)\.SvcLimiter>;/, generated);
  assert.match(generated, /\bSVC_TOKEN: string;/, generated);
  const tsc = path.join(root, "node_modules/typescript/bin/tsc");
  await check("tsc (wrangler types)", process.execPath, [tsc, "-p", "tsconfig.json", "--pretty", "false"], dir);
});

test("the declarations need no other package: where only svc-sdk resolves (no @standard-schema/spec), schemaFor's Standard Schema compiles as the spec's shape (skipLibCheck: false)", { timeout: 120_000 }, async () => {
  const installed = path.join(consumer, "node_modules/svc-sdk");
  // Every module the declarations import is one of their own files.
  const pkg = path.join(installed, "pkg");
  for (const file of readdirSync(pkg).filter((f) => /\.d\.c?ts$/.test(f))) {
    const text = readFileSync(path.join(pkg, file), "utf8");
    const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|reference types=)["']([^"']+)["']/g)].map((m) => m[1]);
    assert.deepEqual(specifiers.filter((s) => !s.startsWith("./")), [], file);
  }
  // A project outside the consumer: a copy of the installed package is the only thing in its node_modules.
  const dir = mkdtempSync(path.join(tmpdir(), "svc-types-alone-"));
  try {
    cpSync(installed, path.join(dir, "node_modules/svc-sdk"), { recursive: true });
    cpSync(path.join(root, "tests/types/alone.ts"), path.join(dir, "alone.ts"));
    writeFileSync(path.join(dir, "probe.ts"), 'import type { StandardSchemaV1 } from "@standard-schema/spec";\nexport type Probe = StandardSchemaV1;\n');
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ private: true, type: "module" }));
    for (const from of [dir, path.join(dir, "node_modules/svc-sdk/pkg")]) {
      assert.throws(() => createRequire(path.join(from, "x.js")).resolve("@standard-schema/spec"), { code: "MODULE_NOT_FOUND" }, from);
    }
    const tsc = path.join(root, "node_modules/typescript/bin/tsc");
    const compile = async (file) => {
      const compilerOptions = { strict: true, noEmit: true, target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", lib: ["ES2022", "DOM"], types: [], skipLibCheck: false };
      writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: [file] }));
      return h.runChild(process.execPath, [tsc, "-p", "tsconfig.json", "--pretty", "false"], { cwd: dir, env: h.toolEnv(), timeoutMs: 110_000, label: `tsc (${file})` });
    };
    // The package is indeed out of reach of TypeScript here...
    const probe = await compile("probe.ts");
    assert.notEqual(probe.code, 0);
    assert.match(`${probe.stdout}${probe.stderr}`, /TS2307: Cannot find module '@standard-schema\/spec'/);
    // ...and svc-sdk's declarations compile without it.
    const alone = await compile("alone.ts");
    assert.equal(alone.code, 0, `${alone.stdout}${alone.stderr}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("as the README and the reference say, @hookform/resolvers' standard-schema declarations import @standard-schema/spec, its optional peer", () => {
  const resolvers = path.join(consumer, "node_modules/@hookform/resolvers");
  const meta = JSON.parse(readFileSync(path.join(resolvers, "package.json"), "utf8"));
  assert.equal(meta.peerDependenciesMeta["@standard-schema/spec"]?.optional, true);
  assert.ok(!meta.dependencies?.["@standard-schema/spec"]);
  assert.match(readFileSync(path.join(resolvers, "standard-schema/dist/standard-schema.d.ts"), "utf8"), /from ['"]@standard-schema\/spec['"]/);
  for (const doc of ["README.md", "docs/REFERENCE.md"]) assert.match(readFileSync(path.join(root, doc), "utf8"), /@hookform\/resolvers\/standard-schema`'s own declarations import[\s\S]{0,80}`@standard-schema\/spec`/, doc);
});

// Each condition a TypeScript user's resolution meets, and whether it resolves Node's declarations.
const CONDITIONS = [
  { name: "node, ESM", type: "module", options: { module: "NodeNext", moduleResolution: "NodeNext" }, node: true },
  { name: "node, CommonJS", type: "commonjs", options: { module: "Node16", moduleResolution: "Node16" }, node: true },
  { name: "bundler, no condition", type: "module", options: { module: "ESNext", moduleResolution: "Bundler" }, node: false },
  ...["browser", "workerd", "worker", "deno"].map((c) => ({ name: c, type: "module", options: { module: "ESNext", moduleResolution: "Bundler", customConditions: [c] }, node: false })),
];

test("toNodeHandler is declared only where it is exported: its import compiles under the node condition (ESM and CommonJS), and is TS2305 under browser, workerd, worker, deno, no condition and in deno check", { timeout: 120_000 }, async (t) => {
  const tsc = path.join(root, "node_modules/typescript/bin/tsc");
  const compile = async (label, cmd, args, dir, env = h.toolEnv()) => {
    const r = await h.runChild(cmd, args, { cwd: dir, env, timeoutMs: 110_000, label });
    return { code: r.code, out: `${r.stdout}${r.stderr}` };
  };
  /** The errors of a run that must refuse the import, and nothing else. */
  const refused = ({ code, out }) => {
    assert.notEqual(code, 0, out);
    const errors = out.match(/TS\d+/g) ?? [];
    assert.ok(errors.length > 0 && errors.every((e) => e === "TS2305" || e === "TS2614"), out);
    assert.match(out, /toNodeHandler/);
  };
  const runs = CONDITIONS.map(({ name, type, options, node }) =>
    t.test(name, async () => {
      const compilerOptions = { strict: true, noEmit: true, target: "ES2022", lib: ["ES2022", "DOM"], types: [], skipLibCheck: false, ...options };
      const dir = project(`node-only-${name.replace(/\W+/g, "-")}`, ["node-only.ts"], { "package.json": { private: true, type }, "tsconfig.json": { compilerOptions, files: ["node-only.ts"] } });
      const r = await compile(`tsc (${name})`, process.execPath, [tsc, "-p", "tsconfig.json", "--pretty", "false"], dir);
      if (node) assert.equal(r.code, 0, r.out);
      else refused(r);
    }),
  );
  runs.push(
    t.test("deno check", async () => {
      const dir = project("node-only-deno", ["node-only.ts"], { "deno.json": { nodeModulesDir: "manual" } });
      const env = h.toolEnv({ DENO_DIR: path.join(consumer, ".deno"), DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1", NPM_CONFIG_REGISTRY: "http://127.0.0.1:9/", NO_COLOR: "1" });
      refused(await compile("deno check", h.bin("deno"), ["check", "node-only.ts"], dir, env));
    }),
  );
  await Promise.all(runs);
});

test("a request field shows its rules where an editor shows its documentation", async () => {
  const { default: ts } = await import(pathToFileURL(path.join(root, "node_modules/typescript/lib/typescript.js")));
  const file = path.join(consumer, "hover.ts");
  const text = 'import type { TaskInput } from "svc-sdk";\nexport const task: TaskInput = { task_name: "Audit" };\n';
  const read = (f) => (f === file ? text : ts.sys.readFile(f));
  const options = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, noEmit: true };
  const service = ts.createLanguageService({
    getScriptFileNames: () => [file],
    getScriptVersion: () => "1",
    getScriptSnapshot: (f) => (read(f) === undefined ? undefined : ts.ScriptSnapshot.fromString(read(f))),
    getCurrentDirectory: () => consumer,
    getCompilationSettings: () => options,
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: (f) => f === file || ts.sys.fileExists(f),
    readFile: read,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  });
  const hover = service.getQuickInfoAtPosition(file, text.indexOf("task_name"));
  assert.equal(ts.displayPartsToString(hover?.displayParts), "(property) TaskInput.task_name: string");
  assert.equal(ts.displayPartsToString(hover.documentation), "Required.\nAt most 100 characters.");
});

test("the types declare the package's exports and nothing of the wasm glue; Node's add toNodeHandler to them", () => {
  assert.ok(!/^export (\*|\{|type \*)/m.test(dts), "no re-export: every type is declared here");
  const declared = (text) => [...new Set([...text.matchAll(/^export declare (?:const|function|class) (\w+)/gm)].map((m) => m[1]))].sort();
  const values = declared(dts);
  assert.deepEqual(values, Object.keys(sdk).filter((n) => n !== "toNodeHandler").sort());
  for (const [file, index] of [["node.d.ts", "./index.js"], ["node.d.cts", "./index.cjs"]]) {
    const node = readFileSync(path.join(consumer, "node_modules/svc-sdk/pkg", file), "utf8");
    assert.ok(node.includes(`\nexport * from "${index}";\n`), `${file} re-exports ${index}`);
    assert.deepEqual(declared(node), ["toNodeHandler"], file);
  }
  const types = [...dts.matchAll(/^export (?:type|interface) (\w+)/gm)].map((m) => m[1]);
  const glue = types.filter((n) => n.startsWith("__") || ["InitInput", "InitOutput", "SyncInitInput"].includes(n));
  assert.deepEqual(glue, []);
});

test("no operation of the Client is typed any", () => {
  const start = dts.indexOf("export declare class Client");
  const client = dts.slice(start, dts.indexOf("\n}\n", start));
  assert.ok(!/\bany\b/.test(client), "the Client declaration mentions any");
  assert.equal((client.match(/\): (API|Page)Promise</g) ?? []).length, sdk.operations().length + 1, "one method per operation, and request");
});
