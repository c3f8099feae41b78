// The docs' paths and commands (scripts/docs-paths.mjs, a guardrail of `npm test`): a quoted repository path,
// module, method, test name or command that does not resolve is reported with its file and line; text that is not the
// repository's (a user's `src/worker.js`, a URL, a route, a crate or a short name that is not ours) is left alone.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = process.env.SVC_ROOT;
const { checkFile, checkMarkdown, repository } = await import(pathToFileURL(path.join(root, "scripts/docs-paths.mjs")));
const repo = repository(root);

test("a bad path in a Markdown file is reported with its line, a good one is not", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-docs-paths-"));
  const file = path.join(dir, "notes.md");
  writeFileSync(file, ["# Notes", "", "The check is `scripts/docs-paths.mjs` (`scripts/test.mjs:20`).", "", "It was `scripts/docs-path.mjs` once."].join("\n"));
  assert.deepEqual(checkFile(file, repo), [`${file}:5: scripts/docs-path.mjs does not exist`]);
  rmSync(dir, { recursive: true });
});

/** `repo` with cargo examples the workspace has none of (its generators are xtask's tasks), for the examples' checks. */
function withExamples(examples) {
  const crates = repo.crates.map((c) => ({ ...c, examples: new Map(c.examples) }));
  for (const [crate, name, required] of examples) {
    crates.find((c) => c.name === crate).examples.set(name, { path: `crates/${crate}/examples/${name}.rs`, required });
  }
  return { ...repo, crates };
}

test("paths, modules, methods and commands that do not resolve are each reported", () => {
  const text = [
    "`crates/svc-core/src/validate/<family>.rs`, `docs/*.md`, `send/grant.rs`, `validate::tests::support`, `catalog::tests::rows::every_row_builds_its_sample_call`, `.params::<T>()`, `wire!`",
    "`crates/svc-core/src/validate/nope.rs`",
    "`docs/*.txt` and `send/nope.rs`",
    "`validate::no_such_item` and `catalog::tests::rows::no_such_test`",
    "`.no_such_builder(..)` and `no_such_macro!`",
    "`npm run no-such-script`, `npm run test:quick`",
    "`cargo run -p no-such-crate`, `cargo run -p xtask -- operations`",
    "`cargo run -p svc-core --example types`",
    "`cargo run --example declarations`",
    "`node scripts/no-such.mjs`",
    "[the guide](README.md) and [nowhere](no-such.md)",
    "[a heading](CONTRIBUTING.md#no-such-heading)",
    // (the two names that are gone are put together here, so that this file does not hold them as words)
    `\`every_vendor_answer_decodes_as_its_row_says_and_keeps_every_field\`, \`UNIQUE_FIELD_HEADERS\`, \`${"a_test"}_that_is_gone\`, \`${"NO"}_SUCH_CONSTANT\``,
  ].join("\n");
  const examples = withExamples([["svc-core", "types", ["serde_json"]], ["svc-sdk", "declarations", []], ["svc-testing", "declarations", []]]);
  assert.deepEqual(checkMarkdown(text, { file: "notes.md", repo: examples }), [
    { line: 2, message: "crates/svc-core/src/validate/nope.rs does not exist" },
    { line: 3, message: "docs/*.txt does not exist" },
    { line: 3, message: "send/nope.rs does not exist (no tracked file ends with it)" },
    { line: 4, message: "validate::no_such_item does not exist" },
    { line: 4, message: "catalog::tests::rows::no_such_test does not exist" },
    { line: 5, message: "the method .no_such_builder() does not exist" },
    { line: 5, message: "the macro no_such_macro! does not exist" },
    { line: 6, message: 'npm script "no-such-script" (package.json) does not exist' },
    { line: 7, message: 'cargo package "no-such-crate" (a crate of the workspace) does not exist' },
    { line: 8, message: 'cargo example "types" without --features serde_json does not exist (its required-features)' },
    { line: 9, message: 'cargo example "declarations" without -p does not exist (it is ambiguous: svc-sdk, svc-testing)' },
    { line: 10, message: "scripts/no-such.mjs does not exist" },
    { line: 11, message: "no-such.md does not exist" },
    { line: 12, message: "CONTRIBUTING.md#no-such-heading does not exist (no such heading)" },
    { line: 13, message: `${"a_test"}_that_is_gone does not exist (no such name in the sources)` },
    { line: 13, message: `${"NO"}_SUCH_CONSTANT does not exist (no such name in the sources)` },
  ]);
});

test("a cargo fuzz target is looked for in the fuzz crate the command runs in, a `cd` holding in its shell block", () => {
  const text = [
    "```sh",
    "cargo fuzz run decode",
    "cd crates/svc-json",
    "cargo fuzz run read fuzz/corpus/read",
    "cargo fuzz run decode",
    "```",
    "`cargo fuzz run read`, `cargo fuzz run --fuzz-dir crates/svc-json/fuzz read`, `cd crates/svc-json && cargo fuzz tmin read x`",
  ].join("\n");
  assert.deepEqual(checkMarkdown(text, { file: "notes.md", repo }), [
    { line: 5, message: 'cargo fuzz target "decode" (crates/svc-json/fuzz/Cargo.toml) does not exist' },
    { line: 7, message: 'cargo fuzz target "read" (crates/svc-sdk/fuzz/Cargo.toml) does not exist' },
  ]);
});

test("what is not the repository's is not checked", () => {
  const text = [
    "`src/worker.js`, `node_modules/svc-sdk/pkg/web.js`, `pkg/node.js`, `docs/api/`, `GET /invoices/{invoice_id}`,",
    "`https://example.test/x`, `serde_json::Value`, `core::fmt::float`, `npm install svc-sdk`, `node --test NAME.test.mjs`,",
    "`panic_immediate_abort`, `DONE`, `listTasks`",
    "",
    "```js",
    'import { Client } from "svc-sdk"; // scripts/none.mjs in a code block is code, not a quote',
    "```",
    "",
    "```sh",
    "npx svc-sdk call listContacts",
    "```",
  ].join("\n");
  const examples = withExamples([["svc-core", "types", ["serde_json"]], ["svc-sdk", "declarations", []], ["svc-testing", "declarations", []]]);
  assert.deepEqual(checkMarkdown(text, { file: "notes.md", repo: examples }), []);
});
