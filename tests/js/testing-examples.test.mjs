// The README's "Testing your code" examples (examples/testing/) run as a user runs them, in a project
// that installed svc-sdk: node:test's with `node --test`, Vitest's with Vitest from npm.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = process.env.SVC_ROOT;
const consumer = process.cwd();
const h = await import(pathToFileURL(path.join(root, "tests/runtimes/harness.mjs")));

/** A folder of the consumer project holding `file` of examples/testing/. */
function project(file) {
  const dir = path.join(consumer, "testing-examples", path.basename(file, ".test.mjs"));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(path.join(root, "examples/testing", file), path.join(dir, file));
  return dir;
}

test("the node:test example passes with node --test", { timeout: 60_000 }, async () => {
  const dir = project("node.test.mjs");
  const r = await h.runChild(process.execPath, ["--test", "--test-reporter=spec", "node.test.mjs"], { cwd: dir, env: h.toolEnv(), timeoutMs: 55_000, label: "node --test" });
  assert.equal(r.code, 0, r.output);
  assert.match(r.stdout, /ℹ pass 2/);
});

test("the Vitest example passes with vitest run", { timeout: 120_000 }, async () => {
  const dir = project("vitest.test.mjs");
  const vitest = path.join(consumer, "node_modules/vitest/vitest.mjs");
  const r = await h.runChild(process.execPath, [vitest, "run", "--root", dir], { cwd: dir, env: h.toolEnv({ CI: "1" }), timeoutMs: 110_000, label: "vitest run" });
  assert.equal(r.code, 0, r.output);
  assert.match(r.stdout, /1 passed/);
});
