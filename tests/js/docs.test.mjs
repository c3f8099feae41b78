// The API reference (scripts/docs.mjs) is built from the package's declarations into docs/api with no
// typedoc warning, and every relative link and anchor in it, in the README and in CONTRIBUTING resolves.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const root = process.env.SVC_ROOT;
const { buildDocs } = await import(path.join(root, "scripts/docs.mjs"));
const { markdownLinks, siteLinks } = await import(path.join(root, "scripts/links.mjs"));

let built;
before(async () => {
  built = await buildDocs();
});

test("typedoc documents svc-sdk, svc-sdk/validate, svc-sdk/redis and svc-sdk/cloudflare with no warning", () => {
  assert.deepEqual({ warnings: built.warnings, errors: built.errors }, { warnings: 0, errors: 0 });
  for (const page of ["modules/svc-sdk.html", "modules/svc-sdk_validate.html", "modules/svc-sdk_redis.html", "modules/svc-sdk_cloudflare.html", "classes/svc-sdk.Client.html"]) {
    assert.ok(existsSync(path.join(built.out, page)), page);
  }
});

test("every relative link and anchor of docs/api resolves, its navigation and search data included", () => {
  const { checked, broken } = siteLinks(built.out);
  assert.ok(checked > 1000, `only ${checked} links followed`);
  assert.deepEqual(broken, []);
});

test("the README's and CONTRIBUTING's relative links and anchors resolve", () => {
  const { checked, broken } = markdownLinks(["README.md", "CONTRIBUTING.md"].map((f) => path.join(root, f)));
  assert.ok(checked > 5, `only ${checked} links followed`);
  assert.deepEqual(broken, []);
});

test("a broken {@link} in the declarations is a typedoc warning", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-docs-"));
  cpSync(path.join(root, "pkg"), path.join(dir, "pkg"), { recursive: true });
  const redis = path.join(dir, "pkg/redis.d.ts");
  writeFileSync(redis, readFileSync(redis, "utf8").replace("/** ", "/** See {@link NoSuchExport}. "));
  const { warnings } = await buildDocs({ pkg: path.join(dir, "pkg"), out: path.join(dir, "api") });
  assert.equal(warnings, 1);
  rmSync(dir, { recursive: true });
});

test("the link checker reports a missing file and a missing anchor", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-links-"));
  writeFileSync(path.join(dir, "a.html"), '<a href="b.html#here"></a><a href="b.html#gone"></a><a href="c.html"></a><a href="https://x.test/"></a>');
  writeFileSync(path.join(dir, "b.html"), '<h2 id="here"></h2>');
  writeFileSync(path.join(dir, "a.md"), "## One `two`\n\n[x](#one-two) [y](#three) [z](b.html#gone) `[w](none.md)`\n");
  assert.deepEqual(siteLinks(dir).broken.map((b) => b.split(": ")[1]), ["b.html#gone (no such anchor)", "c.html (no such file)"]);
  assert.deepEqual(markdownLinks([path.join(dir, "a.md")]).broken.map((b) => b.split(": ")[1]), ["#three (no such anchor)", "b.html#gone (no such anchor)"]);
  rmSync(dir, { recursive: true });
});
