// The JS rule engine against the Rust one: the issues of every case that
// `cargo run --example validation_cases` writes (the vendor's params against every operation, each
// field of each operation set to awkward values, the fuzz regressions, generated params) must be the
// same, path, code, message, details and order, through the installed package.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { validate } from "svc-sdk";

const root = process.env.SVC_ROOT;
const pkg = path.join(path.dirname(createRequire(import.meta.url).resolve("svc-sdk/package.json")), "pkg");
const snippets = path.join(pkg, "snippets");
const rulesJs = path.join(snippets, readdirSync(snippets)[0], "src/wasm/js/rules.js");

test("the JS engine finds exactly the issues the Rust engine finds, on every generated case", async () => {
  const { issuesOf } = await import(rulesJs);
  const run = spawnSync("cargo", ["run", "--quiet", "--example", "validation_cases"], { cwd: root, encoding: "utf8", maxBuffer: 1 << 30 });
  assert.equal(run.status, 0, run.stderr);
  const lines = run.stdout.split("\n").filter(Boolean);
  assert.ok(lines.length > 50_000, `only ${lines.length} cases`);
  const differ = [];
  let invalid = 0;
  const ops = new Set();
  for (const line of lines) {
    const c = JSON.parse(line);
    ops.add(c.op);
    const got = issuesOf(c.op, c.params, c.now);
    const isObject = c.params === null || (typeof c.params === "object" && !Array.isArray(c.params));
    // The package refuses params that are no object before the rules run, and says so in its own words.
    const want = isObject ? c.issues : [{ path: [], code: "invalid_type", message: `params of ${c.op} must be an object`, expected: "object" }];
    if (want.length) invalid++;
    if (!isDeepStrictEqual(got, want) && differ.push({ op: c.op, params: c.params, want, got }) >= 5) break;
  }
  assert.deepEqual(differ, []);
  assert.equal(ops.size, 61);
  assert.ok(invalid > lines.length / 2 && invalid < lines.length, `${invalid} of ${lines.length} cases have issues`);
});

test("values JSON cannot hold are issues at their path, whatever their JS type", () => {
  class Point {
    constructor() {
      this.x = 1;
    }
  }
  const r = validate("createTask", {
    task_name: "Paint",
    description: "a\uD800b",
    rate: 10n,
    extra: [undefined, () => 1, Symbol("s"), Infinity, new Map(), new Point(), new Date(0)],
  });
  assert.equal(r.ok, false);
  assert.deepEqual(
    r.issues.map((i) => [i.path, i.code]),
    [
      [["description"], "invalid_type"],
      [["extra", 0], "invalid_type"],
      [["extra", 1], "invalid_type"],
      [["extra", 2], "invalid_type"],
      [["extra", 3], "invalid_type"],
      [["extra", 4], "invalid_type"],
    ],
  );
  assert.match(r.issues[0].message, /lone surrogate/);
  assert.deepEqual(validate("createTask", { task_name: "Paint", rate: 10n }), { ok: true }, "a BigInt is its digits");
});

test("params nested deeper than the limit are one issue, not a stack overflow", () => {
  let deep = {};
  for (let i = 0; i < 10_000; i++) deep = { deep };
  const r = validate("createTask", { task_name: "Paint", extra: deep });
  assert.equal(r.ok, false);
  assert.deepEqual(r.issues.map((i) => [i.path, i.code]), [[[], "invalid_format"]]);
  assert.match(r.issues[0].message, /levels of nesting/);
});
