// Every Client method's doc in the installed package's declarations says what the operation does (its
// summary), its method, path and scope, and shows a one-line call; every such call compiles with
// tsc --strict against those declarations.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { operations } from "svc-sdk";

const root = process.env.SVC_ROOT;
const consumer = process.cwd();
const h = await import(pathToFileURL(path.join(root, "tests/runtimes/harness.mjs")));
const dts = readFileSync(path.join(consumer, "node_modules/svc-sdk/pkg/index.d.ts"), "utf8");

/** The doc comment right above `  <id>(` in the Client class, or undefined. */
function docOf(id) {
  const at = dts.indexOf(`\n  ${id}(`);
  if (at < 0) return undefined;
  const end = dts.lastIndexOf("*/", at);
  const start = dts.lastIndexOf("/**", end);
  return dts.slice(start, end + 2);
}

test("every operation's method doc has its summary, method, path and scope, and an example call", () => {
  const ops = operations();
  const examples = [...dts.matchAll(/@example await client\.(\w+)\(/g)].map((m) => m[1]);
  assert.equal(examples.length, ops.length, "one method with an example call per row of the table, no more");
  for (const op of ops) {
    const doc = docOf(op.id);
    assert.ok(doc, `${op.id}: no doc`);
    const lines = doc.split("\n").map((l) => l.replace(/^\s*\/?\*+\/?\s?/, "").trim()).filter(Boolean);
    assert.match(lines[0], /^[A-Z].*\.$/, `${op.id}: the first line is its summary: ${doc}`);
    assert.ok(doc.includes(`\`${op.method} ${op.path}\``) && doc.includes(`scope \`${op.scope}\``), `${op.id}: ${doc}`);
    assert.match(doc, new RegExp(`@example await client\\.${op.id}\\(`), `${op.id}: ${doc}`);
  }
});

test("every method's example call compiles against the declarations (tsc --strict)", { timeout: 120_000 }, async () => {
  const calls = operations().map((op) => docOf(op.id).match(/@example (.*)$/m)[1]);
  const dir = path.join(consumer, "types-examples");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const source = [
    'import { Client } from "svc-sdk";',
    'const client = new Client({ accessToken: "t", organizationId: "1" });',
    'declare const file: File;',
    "export async function all() {",
    ...calls.map((c) => `  ${c};`),
    "}",
    "",
  ].join("\n");
  writeFileSync(path.join(dir, "examples.ts"), source);
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ private: true, type: "module" }));
  const compilerOptions = { strict: true, noEmit: true, target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", lib: ["ES2022", "DOM"], types: [] };
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["examples.ts"] }));
  const tsc = path.join(root, "node_modules/typescript/bin/tsc");
  const r = await h.runChild(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: dir, env: h.toolEnv(), timeoutMs: 110_000, label: "tsc (examples)" });
  assert.equal(r.code, 0, `the examples do not compile:\n${r.stdout}${r.stderr}`);
});
