// The README's per-runtime excerpts are the tested example files: each quoted block must appear in its file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";

const root = process.env.SVC_ROOT;
const readme = readFileSync(path.join(root, "README.md"), "utf8");

test("every excerpt quoted from examples/ is in that file, word for word", () => {
  const quoted = [...readme.matchAll(/from \[(examples\/[^\]]+)\]\([^)]*\)[^\n]*\n\n```\w*\n([\s\S]*?)\n```/g)];
  assert.ok(quoted.length >= 3, "the README quotes the workerd, Deno and Node examples");
  for (const [, file, block] of quoted) {
    const source = readFileSync(path.join(root, file), "utf8");
    for (const part of block.split("\n\n")) assert.ok(source.includes(part), `${file} no longer holds:\n${part}`);
  }
});

test("the README shows the two commands and every runtime", () => {
  for (const needle of ["npm start", "npm test", "Node", "Deno", "workerd", "Browser"]) assert.ok(readme.includes(needle), needle);
});
