// The package as `npm run pack` ships it and a user installs it: pkg/, the README, the reference docs,
// the examples, the MIT licence and a package.json that names the project's repository, homepage and
// issue tracker and holds no script or development dependency; no sources, no tests. Every relative
// link of the README and the docs it ships leads to a file of the package.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const { markdownLinks } = await import(path.join(process.env.SVC_ROOT, "scripts/links.mjs"));

const root = process.env.SVC_ROOT;
const installed = path.join(process.env.SVC_CONSUMER, "node_modules/svc-sdk");
const read = (dir, file) => readFileSync(path.join(dir, file), "utf8");

test("the tarball holds pkg/, the bin, the docs, the examples, README.md, LICENSE and package.json, and nothing else", () => {
  const files = readdirSync(installed, { recursive: true }).filter((f) => statSync(path.join(installed, f)).isFile());
  const docs = readdirSync(path.join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`);
  const examples = readdirSync(path.join(root, "examples"), { recursive: true })
    .filter((f) => statSync(path.join(root, "examples", f)).isFile() && !path.basename(f).startsWith("."))
    .map((f) => `examples/${f}`);
  assert.ok(docs.includes("docs/OPERATIONS.md") && examples.includes("examples/node/server.mjs"));
  assert.deepEqual(files.filter((f) => !f.startsWith("pkg/")).sort(), ["LICENSE", "README.md", "bin/svc-sdk.js", ...docs, ...examples, "package.json"].sort());
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

test("package.json in the tarball carries no script and no development dependency", () => {
  const manifest = JSON.parse(read(installed, "package.json"));
  assert.deepEqual([manifest.scripts, manifest.devDependencies, manifest.private], [undefined, undefined, undefined]);
  assert.equal(manifest.name, "svc-sdk");
  assert.ok(manifest.exports["."] && manifest.peerDependencies.redis);
});

test("every relative link of the shipped README and docs leads to a file of the package", () => {
  const shipped = ["README.md", ...readdirSync(path.join(installed, "docs")).map((f) => `docs/${f}`)];
  const { checked, broken } = markdownLinks(shipped.map((f) => path.join(installed, f)));
  assert.ok(checked >= 6, `only ${checked} links followed`);
  assert.deepEqual(broken, []);
});
