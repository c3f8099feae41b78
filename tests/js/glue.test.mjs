// Issue 27, item 3: the hand-written JS is glue only, each part within its budget of lines of code
// (blank and comment lines left out): the client's (every .js file under crates/svc-sdk/src/ and crates/svc-validate/src/) at
// most 290 lines together (issue 39: moved to Rust from 300, to leave room; issue 49: 250 to 290 for connections,
// a per-connection Client remade after a restart and the connection stores on Redis and Durable Objects). Each file opens with a
// comment that says what the platform makes it do in JS. The rules, limits and messages are the core's.
// svc-sdk/testing's glue (crates/svc-testing/src) opens with such a comment too; it is an entry of its own that no
// user of the client loads, so it is in no budget. A part of the package with glue of its own (an
// adapter in a folder of its own) is one more entry of BUDGETS: Node's server glue (node/: toNodeHandler,
// in Node's entries alone) has 60 lines of code; the bin (bin/: `npx svc-sdk`, issue 50: Node's argv, environment,
// stdio, SIGINT and HTTP server around the core's commands) 111.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const root = process.env.SVC_ROOT;

/** Each budget: what it covers, the folders of its .js files, and its most lines of code together. */
const BUDGETS = [
  { name: "the client's hand-written JS", dirs: ["crates/svc-sdk/src", "crates/svc-validate/src"], max: 290 },
  { name: "Node's server glue (toNodeHandler)", dirs: ["node"], max: 60 },
  { name: "the bin's glue (svc-sdk)", dirs: ["bin"], max: 112 },
];

/** Every .js file under `dir`, relative to the repository. */
const jsFiles = (dir) =>
  readdirSync(path.join(root, dir), { recursive: true })
    .filter((f) => f.endsWith(".js"))
    .map((f) => path.join(dir, f).split(path.sep).join("/"));

/** The lines of code of a file: neither blank, nor a `//` comment, nor inside or on a block comment. */
export function codeLines(text) {
  let inBlock = false;
  let count = 0;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (inBlock) {
      inBlock = !line.includes("*/");
    } else if (line.startsWith("/*")) {
      inBlock = !line.slice(2).includes("*/");
    } else if (line !== "" && !line.startsWith("//")) {
      count++;
    }
  }
  return count;
}

/** The .js files of a budget, sorted. */
const filesOf = (budget) => budget.dirs.flatMap(jsFiles).sort();
/** svc-sdk/testing's glue: its own entry, which no user of the client loads, so outside the budgets. */
const testingFiles = jsFiles("crates/svc-testing/src").sort();

test("the line count leaves out blank lines and comments", () => {
  assert.equal(codeLines("// a\n\n/** b */\n/*\n * c\n */\nconst x = 1; // d\n  return x;\n"), 2);
});

for (const budget of BUDGETS) {
  test(`${budget.name} is at most ${budget.max} lines of code`, () => {
    const files = filesOf(budget);
    assert.ok(files.length > 0, `no JS found under ${budget.dirs.join(" and ")}`);
    const counts = files.map((f) => [f, codeLines(readFileSync(path.join(root, f), "utf8"))]);
    const total = counts.reduce((sum, [, n]) => sum + n, 0);
    const table = counts.map(([f, n]) => `${f}: ${n}`).join("\n");
    assert.ok(total <= budget.max, `${total} lines of ${budget.name}, more than ${budget.max}:\n${table}`);
  });
}

test("no .js file is in two budgets", () => {
  const all = BUDGETS.flatMap(filesOf);
  assert.deepEqual(all.filter((f, i) => all.indexOf(f) !== i), []);
});

test("each JS file opens with a comment that says what the platform makes it do", () => {
  assert.ok(testingFiles.length > 0, "no JS found under crates/svc-testing/src/");
  for (const f of [...BUDGETS.flatMap(filesOf), ...testingFiles]) {
    const opening = readFileSync(path.join(root, f), "utf8").replace(/^#!.*\n/, "").match(/^(?:\/\/.*\n)+/);
    assert.ok(opening, `${f} does not open with a comment`);
    assert.match(opening[0], /platform/i, `${f}'s opening comment does not say what the platform makes it do`);
  }
});
