// What the types promise, kept at run time through the installed package (issue 38, item 4): a logger
// given without logLevel is told warnings; an id is a string, a BigInt or a number a double holds, in a
// path as in a body, and a JS number beyond 2^53 is the same validation error in both; a params
// field the operation does not know is a warning (warnUnknownFields) that names it and never its value,
// each name quoted so that it shows as what it is (issue 46, item 4).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { Client, SvcError } from "svc-sdk";
import { startSandbox } from "./support/sandbox.mjs";

const ORG = "10234695";
const TOKEN = "dev-token";
let sandbox;
before(async () => {
  sandbox = await startSandbox([]);
});
after(() => sandbox?.close());

function recorder() {
  const records = [];
  const at = (level) => (record) => records.push({ ...record, method: level });
  return { records, logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") } };
}

const client = (options = {}) => new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: sandbox.url, ...options });

test("a logger without logLevel is told warnings (a misspelt field, by name, never its value); logLevel still rules", async () => {
  const { records, logger } = recorder();
  const c = client({ logger, warnUnknownFields: true });
  await c.listAccounts({ per_pag: 5 });
  await c.prepare("createTask", "p1", { task_name: "Audit", descripton: "value-7c1d" });
  assert.deepEqual(records.map((r) => [r.method, r.level, r.event, r.operationId]), [
    ["warn", "warn", "unknown_fields", "listAccounts"],
    ["warn", "warn", "unknown_fields", "createTask"],
  ]);
  assert.match(records[0].message, /does not know, sent as given \(a misspelt optional field\?\): "per_pag"$/);
  assert.match(records[1].message, /: "descripton"$/);
  assert.ok(!JSON.stringify(records).includes("value-7c1d"), "never a value");

  const quiet = recorder();
  await client({ logger: quiet.logger, logLevel: "error", warnUnknownFields: true }).prepare("createTask", "p1", { task_name: "Audit", descripton: "x" });
  await client({ logger: quiet.logger, warnUnknownFields: false }).prepare("createTask", "p1", { task_name: "Audit", descripton: "x" });
  await client({ logger: quiet.logger, warnUnknownFields: true }).prepare("createTask", "p1", { task_name: "Audit", description: "x" });
  assert.deepEqual(quiet.records, []);
  assert.throws(() => client({ warnUnknownFields: "yes" }), (e) => e instanceof SvcError && e.kind === "config" && /warnUnknownFields must be a boolean/.test(e.message));
});

test("the warning quotes each unknown name safely: bidi and other hidden characters escaped, a long name cut", async () => {
  const { records, logger } = recorder();
  const c = client({ logger, warnUnknownFields: true });
  await c.prepare("createTask", "p1", { task_name: "Audit", "rate\u202e\u2066exe.txt": 1, ["y".repeat(5000)]: 2, "zero\u200bwidth\ufeff\u0085": 3 });
  assert.equal(records.length, 1);
  const message = records[0].message;
  assert.ok(message.endsWith(`: "rate\\u202e\\u2066exe.txt", "${"y".repeat(64)}…", "zero\\u200bwidth\\ufeff\\u0085"`), message);
  assert.doesNotMatch(message, /[\u0080-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/u);
  assert.ok(message.length < 500, `${message.length} characters`);
});

test("warnUnknownFields is on by default where NODE_ENV is not production, off where it is", async () => {
  const script = `
    import { Client } from "svc-sdk";
    const logger = { debug() {}, info() {}, warn: (r) => console.log(r.event), error() {} };
    const c = new Client({ accessToken: "dev-token", organizationId: "1", logger });
    await c.prepare("createTask", "p1", { task_name: "Audit", descripton: "x" });
  `;
  const run = (NODE_ENV) =>
    new Promise((resolve) => {
      const env = { ...process.env, NODE_ENV };
      delete env.SVC_LOG;
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], { env, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (out += d));
      child.on("exit", (code) => resolve({ code, out }));
    });
  const development = await run("development");
  assert.equal(development.code, 0, development.out);
  assert.equal(development.out, "unknown_fields\n");
  const production = await run("production");
  assert.equal(production.code, 0, production.out);
  assert.equal(production.out, "");
});

test("a JS number beyond 2^53 is a validation error naming its place, in a path param as in a body", async () => {
  const c = client();
  const inPath = await c.getTask("p1", 2 ** 53 + 2).catch((e) => e);
  const inBody = await c
    .createJournal({ journal_date: "2024-01-02", line_items: [{ account_id: 2 ** 53 + 2, debit_or_credit: "debit", amount: 1 }] })
    .catch((e) => e);
  for (const [e, path] of [[inPath, ["task_id"]], [inBody, ["line_items", 0, "account_id"]]]) {
    assert.ok(e instanceof SvcError, String(e));
    assert.equal(e.kind, "validation", e.message);
    assert.deepEqual(e.issues.map((i) => [i.path, i.code]), [[path, "out_of_range"]]);
    assert.match(e.issues[0].message, /is a JS number beyond 2\^53 - 1.*give the id as a string or a BigInt$/);
  }
  const odd = await c.getTask("p1", { id: 1 }).catch((e) => e);
  assert.equal(odd.kind, "validation");
  assert.deepEqual(odd.issues.map((i) => [i.path, i.code]), [[["task_id"], "invalid_type"]]);
  const missing = await c.getTask("p1").catch((e) => e);
  assert.equal(missing.kind, "config", "a path param left out is a call of the wrong shape");
});

test("a path id given as a BigInt or a number a double holds is sent as its digits", async () => {
  const c = client();
  assert.match((await c.prepare("getTask", "p1", 9007199254740993n)).url, /\/projects\/p1\/tasks\/9007199254740993$/);
  assert.match((await c.prepare("getTask", "p1", 42)).url, /\/projects\/p1\/tasks\/42$/);
  assert.match((await c.prepare("getTask", 12345678901234567890n, "t1")).url, /\/projects\/12345678901234567890\/tasks\/t1$/);
});
