// Issue 27, item 3: the hand-written JS (every .js file under src/ and validate/src/) is glue only, at
// most 300 lines of code together, blank and comment lines left out; each file opens with a comment
// that says what the platform makes it do in JS. The rules, limits and messages are the core's.
// svc-sdk/testing's glue (testing/src) opens with such a comment too; it is an entry of its own that no
// user of the client loads, so it is not in the client's budget. Node's server glue (node/: toNodeHandler,
// in Node's entries alone) has a budget of its own, 60 lines of code.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const root = process.env.SVC_ROOT;
const MAX_LINES = 300;
const MAX_NODE_LINES = 60;

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

const files = [...jsFiles("src"), ...jsFiles("validate/src")].sort();
/** svc-sdk/testing's glue: its own entry, which no user of the client loads, so outside the budget. */
const testingFiles = jsFiles("testing/src").sort();
/** toNodeHandler's glue: only Node's entries carry it, so outside the client's budget, within its own. */
const nodeFiles = jsFiles("node").sort();

test("the line count leaves out blank lines and comments", () => {
  assert.equal(codeLines("// a\n\n/** b */\n/*\n * c\n */\nconst x = 1; // d\n  return x;\n"), 2);
});

test(`the hand-written JS is at most ${MAX_LINES} lines of code`, () => {
  assert.ok(files.length > 0, "no JS found under src/ and validate/src/");
  const counts = files.map((f) => [f, codeLines(readFileSync(path.join(root, f), "utf8"))]);
  const total = counts.reduce((sum, [, n]) => sum + n, 0);
  const table = counts.map(([f, n]) => `${f}: ${n}`).join("\n");
  assert.ok(total <= MAX_LINES, `${total} lines of hand-written JS, more than ${MAX_LINES}:\n${table}`);
});

test(`Node's server glue (node/) is at most ${MAX_NODE_LINES} lines of code`, () => {
  assert.ok(nodeFiles.length > 0, "no JS found under node/");
  const total = nodeFiles.reduce((sum, f) => sum + codeLines(readFileSync(path.join(root, f), "utf8")), 0);
  assert.ok(total <= MAX_NODE_LINES, `${total} lines of JS under node/, more than ${MAX_NODE_LINES}`);
});

test("each JS file opens with a comment that says what the platform makes it do", () => {
  assert.ok(testingFiles.length > 0, "no JS found under testing/src/");
  for (const f of [...files, ...testingFiles, ...nodeFiles]) {
    const opening = readFileSync(path.join(root, f), "utf8").match(/^(?:\/\/.*\n)+/);
    assert.ok(opening, `${f} does not open with a comment`);
    assert.match(opening[0], /platform/i, `${f}'s opening comment does not say what the platform makes it do`);
  }
});
