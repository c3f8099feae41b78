// The package's validation against the golden corpus: on every case that
// `cargo run -p xtask -- cases` prints (the vendor's params against every operation, each
// field of each operation set to awkward values, the fuzz regressions, generated params), the wasm
// in the installed package finds the issues of `tests/golden/validation_issues.jsonl.gz`, which the
// Rust engine wrote natively: path, code, message, details and order, byte for byte. Cases are
// matched by key, so a row added to the table leaves the others where they were.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { operations, validate } from "svc-sdk";

const root = process.env.SVC_ROOT;

test("the package finds exactly the issues of the golden corpus, on every generated case", () => {
  const run = spawnSync("cargo", ["run", "--quiet", "-p", "xtask", "--", "cases"], { cwd: root, encoding: "utf8", maxBuffer: 1 << 30 });
  assert.equal(run.status, 0, run.stderr);
  const cases = run.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const golden = new Map(
    gunzipSync(readFileSync(path.join(root, "tests/golden/validation_issues.jsonl.gz")))
      .toString("utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf("\t")), l.slice(l.indexOf("\t") + 1)]),
  );
  const pinned = new Set([...golden.keys()].map((k) => k.split("|")[0]));
  assert.ok(cases.length > 50_000, `only ${cases.length} cases`);
  const realNow = Date.now;
  const differ = [];
  const unpinned = new Set();
  let invalid = 0;
  let compared = 0;
  try {
    for (const c of cases) {
      let want = golden.get(c.key);
      if (want === undefined) {
        // A fuzz regression picks its operation by index, so rows added move it.
        if (c.key.split("|")[1] === "regression") continue;
        assert.ok(!pinned.has(c.op), `${c.key} is not in the corpus (rules changed? check, then bless)`);
        unpinned.add(c.op);
        continue;
      }
      Date.now = () => c.now;
      const got = validate(c.op, c.params);
      const isObject = c.params === null || (typeof c.params === "object" && !Array.isArray(c.params));
      // The package refuses params that are no object before the rules run, and says so in its own words.
      if (!isObject) want = JSON.stringify([{ path: [], code: "invalid_type", message: `params of ${c.op} must be an object`, expected: "object" }]);
      const text = JSON.stringify(got.ok ? [] : got.issues);
      compared++;
      if (text !== "[]") invalid++;
      if (text !== want && differ.push({ key: c.key, params: c.params, want, got: text }) >= 5) break;
    }
  } finally {
    Date.now = realNow;
  }
  assert.deepEqual(differ, []);
  assert.deepEqual([...unpinned], [], "rows with no case in the corpus: check their cases, then bless them with `cargo run -p xtask -- golden`");
  assert.ok(compared > 50_000, `only ${compared} cases compared`);
  assert.deepEqual([...pinned].filter((op) => !operations().some((o) => o.id === op)), [], "the corpus names no operation the table lacks");
  assert.ok(invalid > compared / 2 && invalid < compared, `${invalid} of ${compared} cases have issues`);
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
  assert.deepEqual(validate("createTask", { task_name: "Paint", rate: 10n }), { ok: true }, "a BigInt is the number it is");
});

test("params nested deeper than the limit are one issue, not a stack overflow", () => {
  let deep = {};
  for (let i = 0; i < 10_000; i++) deep = { deep };
  const r = validate("createTask", { task_name: "Paint", extra: deep });
  assert.equal(r.ok, false);
  assert.deepEqual(r.issues.map((i) => [i.path, i.code]), [[[], "invalid_format"]]);
  assert.match(r.issues[0].message, /levels of nesting/);
});
