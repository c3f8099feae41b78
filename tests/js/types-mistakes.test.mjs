// Twenty-eight mistakes a user makes, each compiled by tsc --strict against the installed package's
// declarations in a file of its own: each must fail, and only on its mistaken line. Their corrections,
// together in one control file, compile: what fails is the mistake, not its setting.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = process.env.SVC_ROOT;
const consumer = process.cwd();
const h = await import(pathToFileURL(path.join(root, "tests/runtimes/harness.mjs")));

/** `setup` runs before the line; `good` compiles, `bad` must not. */
const MISTAKES = [
  { what: "a query key that a params-less GET does not take", good: `await client.getAccount("1");`, bad: `await client.getAccount("1", { bogus_param: 1 });` },
  { what: "a query key that a params-less DELETE does not take (prepare)", good: `await client.prepare("deleteTask", "p1", "t1", {});`, bad: `await client.prepare("deleteTask", "p1", "t1", { force: true });` },
  { what: "a query key that a list's query type does not declare", good: `await client.listFixedAssets({ per_page: 10 });`, bad: `await client.listFixedAssets({ per_page: 10, bogus_param: 1 });` },
  { what: "the vendor's query param with a wrong type", good: `await client.getExpenseReceipt("1", { preview: true });`, bad: `await client.getExpenseReceipt("1", { preview: "yes" });` },
  { what: "a missing required field", good: `await client.createTask("p1", { task_name: "Audit" });`, bad: `await client.createTask("p1", { description: "Audit" });` },
  {
    what: "a misspelt field of a nested request member",
    good: `await client.createJournal({ journal_date: "2024-01-02", line_items: [{ account_id: "1", debit_or_credit: "debit", amount: 1 }] });`,
    bad: `await client.createJournal({ journal_date: "2024-01-02", line_items: [{ acount_id: "1", debit_or_credit: "debit", amount: 1 }] });`,
  },
  { what: "a request value outside its value set", good: `await client.createAccount({ account_name: "Petty cash", account_type: "cash" });`, bad: `await client.createAccount({ account_name: "Petty cash", account_type: "petty_cash" });` },
  { what: "a response value outside its value set (FixedAsset.status)", setup: `const asset = await client.getFixedAsset("1");`, good: `if (asset.status === "draft") return;`, bad: `if (asset.status === "disposed") return;` },
  { what: "a response value outside its value set (VendorCredit.status)", setup: `const credit = await client.getVendorCredit("1");`, good: `if (credit.status === "void") return;`, bad: `if (credit.status === "paid") return;` },
  { what: "an upload of a Blob without a name", good: `await client.addExpenseAttachment("1", { files: [new File(["%PDF"], "a.pdf")] });`, bad: `await client.addExpenseAttachment("1", { files: [new Blob(["%PDF"])] });` },
  {
    what: "an upload's file given as data without its name",
    good: `await client.uploadCompositeItemImage("c1", { image: { name: "kit.png", data: new Uint8Array(4), type: "image/png" } });`,
    bad: `await client.uploadCompositeItemImage("c1", { image: { data: new Uint8Array(4), type: "image/png" } });`,
  },
  { what: "a misspelt result field", setup: `const account = await client.getAccount("1");`, good: `void account.account_name;`, bad: `void account.acount_name;` },
  { what: "a page taken for an array", setup: `const page = await client.listAccounts();`, good: `void page.items.map((a) => a.account_id);`, bad: `void page.map((a) => a.account_id);` },
  { what: "a field of another resource on a page's item", setup: `const page = await client.listFixedAssets();`, good: `for await (const a of page) void a.asset_name;`, bad: `for await (const a of page) void a.account_name;` },
  { what: "a binary answer taken for text", good: `const receipt: Blob = await client.getExpenseReceipt("1"); void receipt;`, bad: `const receipt: string = await client.getExpenseReceipt("1"); void receipt;` },
  { what: "a validation result's issues read before narrowing on ok", setup: `const r = validate("createTask", {});`, good: `if (!r.ok) void r.issues.length;`, bad: `void r.issues.length;` },
  { what: "an error narrowed to one kind read as another", good: `if (e instanceof SvcError && e.kind === "api") void e.status;`, bad: `if (e instanceof SvcError && e.kind === "validation") void e.status.toFixed();` },
  { what: "an error kind that does not exist", good: `if (e instanceof SvcError && e.kind === "api") return;`, bad: `if (e instanceof SvcError && e.kind === "not_found") return;` },
  { what: "a path param left out", good: `await client.getTask("p1", "t1");`, bad: `await client.getTask("p1");` },
  { what: "an operation id misspelt", good: `validate("getAccount", {});`, bad: `validate("getAcount", {});` },
  { what: "an operation id misspelt in a sandbox's seed", good: `sandbox.seed("createTask", "p1", { task_name: "Audit" });`, bad: `sandbox.seed("createTsk", "p1", { task_name: "Audit" });` },
  { what: "a seeded record's field misspelt", good: `void sandbox.seed("createTask", "p1", [{ task_name: "Audit" }])[0].task_id;`, bad: `void sandbox.seed("createTask", "p1", [{ tsk_name: "Audit" }])[0].task_id;` },
  { what: "a client without a token or a proxy", good: `void new Client({ accessToken: "token-123" });`, bad: `void new Client({});` },
  { what: "a token that may be undefined", setup: `const token = process.env.SVC_TOKEN;`, good: `if (token) void new Client({ accessToken: token });`, bad: `void new Client({ accessToken: token });` },
  { what: "viaProxy without apiDomain", good: `void new Client({ viaProxy: true, apiDomain: "/api" });`, bad: `void new Client({ viaProxy: true });` },
  { what: "a proxy without the token it adds", good: `void createProxy({ oauth: { clientId: "c", clientSecret: "s", refreshToken: "r" }, allow: ["getTask"] });`, bad: `void createProxy({ viaProxy: true, apiDomain: "https://p.example", allow: ["getTask"] });` },
  { what: "a path id beyond 2^53 as a JS number (a BigInt is taken)", good: `await client.getTask("p1", 9007199254740993n);`, bad: `await client.getTask("p1", 9007199254740993);` },
  {
    what: "a body id beyond 2^53 as a JS number (a BigInt is taken)",
    good: `await client.createJournal({ journal_date: "2024-01-02", line_items: [{ account_id: 9007199254740993n, debit_or_credit: "debit", amount: 1 }] });`,
    bad: `await client.createJournal({ journal_date: "2024-01-02", line_items: [{ account_id: 9007199254740993, debit_or_credit: "debit", amount: 1 }] });`,
  },
];

const HEAD = `import { Client, SvcError, createProxy, validate } from "svc-sdk";
import { Sandbox } from "svc-sdk/testing";
declare const client: Client;
declare const sandbox: Sandbox;
export async function run(e: unknown): Promise<void> {
  void e;`;

/** The file's text and the 1-based line of `last` in it. */
function file(blocks) {
  const lines = [...HEAD.split("\n")];
  let last = 0;
  for (const block of blocks) {
    lines.push("  {");
    for (const line of block) lines.push(`    ${line}`);
    last = lines.length;
    lines.push("  }");
  }
  lines.push("}", "");
  return { text: lines.join("\n"), last };
}

test("each of twenty-eight mistakes fails tsc on its own line; their corrections compile", { timeout: 120_000 }, async () => {
  assert.equal(MISTAKES.length, 28);
  const dir = path.join(consumer, "types-mistakes");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const lines = {};
  const setup = (m) => (m.setup ? [m.setup] : []);
  const control = file(MISTAKES.map((m) => [...setup(m), m.good]));
  writeFileSync(path.join(dir, "control.ts"), control.text);
  MISTAKES.forEach((m, i) => {
    const name = `mistake-${String(i + 1).padStart(2, "0")}.ts`;
    const f = file([[...setup(m), m.bad]]);
    writeFileSync(path.join(dir, name), f.text);
    lines[name] = f.last;
  });
  const files = ["control.ts", ...Object.keys(lines)];
  const compilerOptions = { strict: true, noEmit: true, target: "ES2022", lib: ["ES2022"], types: ["node"], module: "NodeNext", moduleResolution: "NodeNext" };
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ private: true, type: "module" }));
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files }, null, 2));

  const tsc = path.join(root, "node_modules/typescript/bin/tsc");
  const r = await h.runChild(process.execPath, [tsc, "-p", "tsconfig.json", "--pretty", "false"], { cwd: dir, env: h.toolEnv(), timeoutMs: 110_000, label: "tsc (mistakes)" });
  const errors = {};
  for (const m of r.stdout.matchAll(/^(\S+\.ts)\((\d+),\d+\): error (TS\d+): (.*)$/gm)) {
    (errors[m[1]] ??= []).push({ line: Number(m[2]), code: m[3], message: m[4] });
  }
  assert.deepEqual(errors["control.ts"] ?? [], [], `the corrections must compile:\n${control.text}`);
  const missed = [];
  MISTAKES.forEach((m, i) => {
    const name = `mistake-${String(i + 1).padStart(2, "0")}.ts`;
    const found = errors[name] ?? [];
    if (found.length === 0) missed.push(`${name} (${m.what}) compiles: ${m.bad}`);
    for (const e of found) {
      assert.equal(e.line, lines[name], `${name} (${m.what}) fails elsewhere than its mistake: ${e.code} ${e.message}`);
    }
  });
  assert.deepEqual(missed, [], "every mistake must fail tsc");
  const unknown = Object.keys(errors).filter((f) => !files.includes(f));
  assert.deepEqual(unknown, [], `errors outside the test's files:\n${r.stdout}`);
  assert.notEqual(r.code, 0);
});
