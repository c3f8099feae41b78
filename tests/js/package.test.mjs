// The package as npm pack ships it and a user installs it: pkg/, the README and docs/*.md, the MIT licence and a
// package.json that names the project's repository, homepage and issue tracker; no sources, no tests.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const root = process.env.SVC_ROOT;
const installed = path.join(process.env.SVC_CONSUMER, "node_modules/svc-sdk");
const read = (dir, file) => readFileSync(path.join(dir, file), "utf8");

test("the tarball holds pkg/, docs/*.md, README.md, LICENSE and package.json, and nothing else", () => {
  const files = readdirSync(installed, { recursive: true }).filter((f) => statSync(path.join(installed, f)).isFile());
  assert.deepEqual(files.filter((f) => !f.startsWith("pkg/")).sort(), ["LICENSE", "README.md", "docs/OPERATIONS.md", "docs/REFERENCE.md", "docs/VALIDATION.md", "package.json"]);
  const validate = ["validate.d.ts", "validate/node.js", "validate/node.cjs", "validate/web.js", "validate/svc_sdk_bg.wasm"];
  const redis = ["redis.js", "redis-deno.js", "redis-workerd.js", "redis-web.js", "redis.cjs"];
  for (const entry of ["index.d.ts", "node.js", "web.js", "workerd.js", ...redis, "cloudflare.js", "svc_sdk_bg.wasm", ...validate]) {
    assert.ok(files.includes(`pkg/${entry}`), entry);
  }
  // Each ESM entry is one module: no shared glue module, no snippets beside it.
  assert.deepEqual(files.filter((f) => f.endsWith("svc_sdk.js") || f.includes("snippets/")), []);
  assert.equal(read(installed, "README.md"), read(root, "README.md"));
});

test("the licence is MIT, as package.json says, with its copyright line", () => {
  const license = read(installed, "LICENSE");
  assert.equal(JSON.parse(read(installed, "package.json")).license, "MIT");
  assert.match(license, /^MIT License\n\nCopyright \(c\) 2026 svc-sdk contributors\n/);
  assert.match(license, /THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND/);
});

test("package.json names one project for its repository, homepage and issue tracker", () => {
  const { repository, homepage, bugs } = JSON.parse(read(installed, "package.json"));
  const project = repository.url.replace(/^git\+/, "").replace(/\.git$/, "");
  assert.equal(repository.type, "git");
  assert.match(project, /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
  assert.equal(homepage, `${project}#readme`);
  assert.equal(bugs.url, `${project}/issues`);
});
