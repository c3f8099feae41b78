// The README: its per-runtime excerpts are the tested example files (each quoted block must appear in its
// file), its install section matches what npm run pack writes, and the contributors' matters are in CONTRIBUTING.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
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

test("the install section builds, packs and installs the very tarball npm run pack writes; nothing is installed by name yet", () => {
  const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const tarball = readdirSync(path.dirname(process.env.SVC_CONSUMER)).find((f) => f.endsWith(".tgz"));
  assert.equal(tarball, `svc-sdk-${version}.tgz`);
  for (const needle of ["npm run build", "npm run pack", `.tmp/${tarball}`, `npm install ./${tarball}`, "npm install /path/to/svc-sdk"]) {
    assert.ok(readme.includes(needle), needle);
  }
  assert.ok(!/npm install svc-sdk\b/.test(readme), "svc-sdk is not published: `npm install svc-sdk` would fail");
});

test("the layout, benchmarks and fuzzing live in CONTRIBUTING, which the README links; every path of the layout exists", () => {
  const contributing = readFileSync(path.join(root, "CONTRIBUTING.md"), "utf8");
  assert.ok(readme.includes("/CONTRIBUTING.md)"));
  for (const heading of ["## Layout", "## Benchmarks and fuzzing"]) {
    assert.ok(contributing.includes(`\n${heading}\n`), heading);
    assert.ok(!readme.includes(`\n${heading}\n`), `${heading} is back in the README`);
  }
  const layout = contributing.split("\n## Layout\n")[1].split("\n## ")[0];
  const paths = [...layout.matchAll(/^\| ([^|]+) \|/gm)].flatMap(([, cell]) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]));
  assert.ok(paths.length > 10, `only ${paths.length} paths in the layout`);
  for (const p of paths) assert.ok(existsSync(path.join(root, p)), `the layout names ${p}, which does not exist`);
});

test("the README names every error kind and every documented error code of the installed package", async () => {
  const { ErrorCode } = await import("svc-sdk");
  const dts = readFileSync(path.join(process.env.SVC_CONSUMER, "node_modules/svc-sdk/pkg/index.d.ts"), "utf8");
  const kinds = [...dts.match(/export type ErrorKind =([^;]*);/)[1].matchAll(/"(\w+)"/g)].map((m) => m[1]);
  assert.ok(kinds.length >= 10, kinds.join());
  for (const kind of kinds) assert.ok(readme.includes(`\`${kind}\``), `kind ${kind}`);
  for (const [name, code] of Object.entries(ErrorCode)) assert.ok(readme.includes(`\`${name}\` (${code})`), `code ${name}`);
});
