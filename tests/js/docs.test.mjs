// The API reference (scripts/docs.mjs) is built from the package's declarations into docs/api with no
// typedoc warning, and every relative link and anchor in it, in the README and in CONTRIBUTING resolves.
// The examples of README.md and docs/REFERENCE.md (issue 38, item 6): every js block parses, every
// `new Client({...})` written with literals alone constructs, the blocks marked `<!-- runs -->` run
// against the sandbox binary, and the sample notification is what svc-sdk/testing's notification() writes.
// The README's message example words an invalid_format issue in words, one for each format code (issue 46).
// The reference's steps (a channel, then the sandbox's trigger) make the sandbox binary post a notification.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import http from "node:http";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as sdk from "svc-sdk";
import { notification } from "svc-sdk/testing";
import { startSandbox } from "./support/sandbox.mjs";

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

test("the relative links and anchors of the README, CONTRIBUTING and the docs resolve", () => {
  const docs = ["README.md", "CONTRIBUTING.md", "docs/REFERENCE.md", "docs/VALIDATION.md", "docs/contributing/validation.md"];
  const { checked, broken } = markdownLinks(docs.map((f) => path.join(root, f)));
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

/** The fenced code blocks of a markdown file: `{ file, line, lang, code, runs }` (`runs`: marked `<!-- runs -->` on the line before). */
function codeBlocks(file) {
  const lines = readFileSync(path.join(root, file), "utf8").split("\n");
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = lines[i].match(/^(\s*)```(\w*)\s*$/);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && l.trim() === "```");
    const indent = open[1].length;
    const code = lines.slice(i + 1, end).map((l) => l.slice(indent)).join("\n");
    blocks.push({ file, line: i + 1, lang: open[2], code, runs: lines[i - 1]?.trim() === "<!-- runs -->" });
    i = end;
  }
  return blocks;
}

const DOCS = ["README.md", "docs/REFERENCE.md"];
const blocks = DOCS.flatMap(codeBlocks);
const js = blocks.filter((b) => b.lang === "js");
const where = (b) => `${b.file}:${b.line}`;

/** Blocks that are not JS alone: an elision (`...`) or a type in the code. */
const NOT_JS = /^\s*\.\.\.\s*$|\.\.\.\s*[)}\]]|: (string|number)\b|\binterface\b/m;

test("every js block of README.md and docs/REFERENCE.md parses as a module", () => {
  assert.ok(js.length > 30, `only ${js.length} js blocks`);
  const dir = mkdtempSync(path.join(tmpdir(), "svc-blocks-"));
  const failed = [];
  for (const b of js.filter((b) => !NOT_JS.test(b.code.replace(/\/\/ .*$/gm, "")))) {
    const file = path.join(dir, "block.mjs");
    // A block that is one object literal shows a value (a log record): it parses as an expression.
    writeFileSync(file, b.code.trimStart().startsWith("{") ? `(${b.code})` : b.code);
    const r = spawnSync(process.execPath, ["--check", file], { encoding: "utf8" });
    if (r.status !== 0) failed.push(`${where(b)}: ${r.stderr.split("\n").find((l) => /Error/.test(l))}`);
  }
  rmSync(dir, { recursive: true });
  assert.deepEqual(failed, []);
});

/** Each `new Client({...})` of a block, its parentheses balanced. */
function constructions(code) {
  const out = [];
  for (let at = code.indexOf("new Client("); at >= 0; at = code.indexOf("new Client(", at + 1)) {
    let depth = 0;
    for (let i = at + "new Client".length; i < code.length; i++) {
      depth += code[i] === "(" ? 1 : code[i] === ")" ? -1 : 0;
      if (depth === 0) {
        const rest = code.slice(i + 1, code.indexOf("\n", i) + 1 || undefined);
        out.push({ expr: code.slice(at, i + 1), comment: rest });
        break;
      }
    }
  }
  return out;
}

/** Environment variables as a user sets them: each a token-like text. */
const env = new Proxy({}, { get: (_, name) => `doc-${String(name).toLowerCase()}-value` });

test("every new Client({...}) of the docs written with literals and env variables constructs, unless its comment says it throws", () => {
  const built = [];
  const failed = [];
  // The examples with apiDomain "/api" are a page's: a page has a location.
  globalThis.location = { origin: "https://app.example.com" };
  for (const b of js) {
    for (const { expr, comment } of constructions(b.code)) {
      let client;
      try {
        client = new Function("Client", "env", "process", `"use strict"; return ${expr};`)(sdk.Client, env, { env });
      } catch (e) {
        if (e instanceof ReferenceError || e instanceof SyntaxError) continue;
        if (!/error|throws/i.test(comment)) failed.push(`${where(b)}: ${expr}: ${e.message}`);
        continue;
      }
      client.free();
      built.push(expr);
    }
  }
  delete globalThis.location;
  assert.deepEqual(failed, []);
  assert.ok(built.some((e) => e.includes("viaProxy: true")), built.join("\n"));
  assert.ok(built.length >= 5, built.join("\n"));
});

let sandbox;
before(async () => {
  sandbox = await startSandbox(["--no-rate-limit"]);
});
after(() => sandbox?.close());

/** A block as a module in the consumer project: what it uses of svc-sdk and does not import, and a `client` of the sandbox. */
function runnable(code) {
  const declared = (name) => new RegExp(`\\b(const|let|var|function|class)\\s+${name}\\b|import\\s*\\{[^}]*\\b${name}\\b`).test(code);
  const used = Object.keys(sdk).filter((n) => new RegExp(`\\b${n}\\b`).test(code) && !declared(n));
  const prelude = [`import * as __sdk from "svc-sdk";`, `const { ${used.join(", ")} } = __sdk;`];
  if (/\bclient\b/.test(code) && !declared("client")) {
    prelude.push(`const client = new __sdk.Client({ accessToken: "dev-token", organizationId: "10234695", apiDomain: ${JSON.stringify(sandbox.url)}, maxRetries: 0 });`);
  }
  return `${prelude.join("\n")}\n${code}\n`;
}

test("the blocks marked <!-- runs --> run against the sandbox", async () => {
  const marked = js.filter((b) => b.runs);
  assert.ok(marked.length >= 4, `${marked.length} blocks marked`);
  // The channel that the renewal example renews.
  const setup = new sdk.Client({ accessToken: "dev-token", organizationId: "10234695", apiDomain: sandbox.url, maxRetries: 0 });
  await setup.updateNotificationChannels({ watch: [{ channel_id: "1000000068001", events: ["Leads.edit"], notify_url: "https://app.example.com/hooks/crm", token: "chan-secret-1" }] });
  const logged = [];
  const log = console.log;
  console.log = (...args) => logged.push(args);
  try {
    for (const [i, b] of marked.entries()) {
      const file = path.join(process.cwd(), `docs-block-${i}.mjs`);
      writeFileSync(file, runnable(b.code));
      try {
        await import(pathToFileURL(file));
      } catch (e) {
        assert.fail(`${where(b)} failed: ${e.stack}`);
      } finally {
        rmSync(file);
      }
    }
  } finally {
    console.log = log;
  }
  assert.ok(logged.length >= 2);
});

test("the sample notification of docs/REFERENCE.md is what notification() writes", () => {
  const sample = blocks.find((b) => b.file === "docs/REFERENCE.md" && b.lang === "json" && b.code.includes('"affected_fields"'));
  assert.ok(sample, "no sample notification");
  const built = notification({ module: "Leads", operation: "edit", ids: ["4150868000001"], values: { Email: "kim@example.com" },
    channelId: "1000000068001", token: "chan-secret-1", notifyUrl: "https://app.example.com/hooks/crm?tenant=acme", serverTime: 1764288000000 });
  assert.deepEqual(JSON.parse(sample.code), JSON.parse(built));
  assert.equal(sdk.parseWatchNotification(sample.code, { token: "chan-secret-1" }).channel_id, "1000000068001");
});

test("the README's message function words an invalid_format issue in words, for every format code the rules give", async () => {
  const block = js.find((b) => b.file === "README.md" && b.code.includes('case "invalid_format"'));
  assert.ok(block, "no message example in the README");
  const file = path.join(process.cwd(), "docs-message-block.mjs");
  writeFileSync(file, `${runnable(block.code)}\nexport { message, schema };\nexport const words = typeof formats === "undefined" ? {} : formats;\n`);
  let words, message, schema;
  try {
    ({ words, message, schema } = await import(pathToFileURL(file)));
  } finally {
    rmSync(file);
  }
  const result = await schema["~standard"].validate({ fixed_asset_type_id: "1", asset_name: "Van", asset_purchase_date: "2024-13-01" });
  const issue = result.issues?.find((i) => i.path.join(".") === "asset_purchase_date");
  assert.ok(issue, JSON.stringify(result));
  assert.equal(issue.code, "invalid_format");
  assert.equal(issue.message, "Purchase date must be a date (yyyy-mm-dd)");
  assert.doesNotMatch(issue.message, /must look like|\bdate$/);
  // A file type names the types allowed; a code the map does not know keeps the SDK's own words.
  const base = { path: ["attachment"], message: "x.exe is not an accepted file type; accepted: png, jpg", code: "invalid_format" };
  assert.equal(message({ ...base, format: "file type", allowed: ["png", "jpg"] }), "attachment must be one of these file types: png, jpg");
  assert.equal(message({ ...base, format: "header value" }), base.message);
  // The codes of the rules' formats (svc-core's Format::name), each worded by the example.
  const rust = readFileSync(path.join(root, "crates/svc-core/src/format.rs"), "utf8");
  const names = rust.slice(rust.indexOf("pub fn name(self)"), rust.indexOf("pub fn describe(self)"));
  const codes = [...names.matchAll(/Format::\w+ => "([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(codes, ["date", "duration", "date-time", "alphanumeric", "url"]);
  assert.deepEqual(Object.keys(words).sort(), [...codes].sort());
});

test("the reference's steps make the sandbox binary post a CRM notification that parseWatchNotification accepts", async () => {
  const section = (b) => b.file === "docs/REFERENCE.md" && b.line > readFileSync(path.join(root, b.file), "utf8").split("\n").indexOf("### A notification posted by the sandbox");
  const channel = js.find((b) => section(b) && b.code.includes("updateNotificationChannels") && b.code.includes("http://127.0.0.1:"));
  const trigger = blocks.find((b) => section(b) && b.lang === "sh" && b.code.includes("/__sandbox/crm/"));
  assert.ok(channel && trigger, "the steps are not in docs/REFERENCE.md");
  const received = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ method: req.method, url: req.url, type: req.headers["content-type"], agent: req.headers["user-agent"], body });
      res.end("ok");
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const receiver = `http://127.0.0.1:${server.address().port}`;
  const docSandbox = "http://127.0.0.1:8787";
  try {
    // Step 1, as written, with the sandbox and the receiver where this test runs them.
    const file = path.join(process.cwd(), "docs-channel-block.mjs");
    const receiverOrigin = channel.code.match(/notify_url: "(http:\/\/127\.0\.0\.1:\d+)/)[1];
    writeFileSync(file, runnable(channel.code.replaceAll(docSandbox, sandbox.url).replaceAll(receiverOrigin, receiver)));
    try {
      await import(pathToFileURL(file));
    } finally {
      rmSync(file);
    }
    // Step 2: the curl command's method, URL, header and body.
    const command = trigger.code.replace(/\\\n\s*/g, " ");
    const [, method, url] = command.match(/curl -X (\w+) (\S+)/);
    const [, header, value] = command.match(/-H '([^:]+): ([^']+)'/);
    const [, body] = command.match(/-d '([^']+)'/);
    assert.ok(url.startsWith(`${docSandbox}/__sandbox/crm/`), url);
    const res = await fetch(url.replace(docSandbox, sandbox.url), { method, headers: { [header]: value }, body });
    const answer = await res.json();
    assert.equal(res.status, 200, JSON.stringify(answer));
    assert.equal(answer.deliveries.length, 1, JSON.stringify(answer));
    assert.deepEqual(answer.deliveries[0], { channel_id: "1000000068001", notify_url: `${receiver}/hooks/crm?tenant=acme`, status: 200, delivered: true });
    assert.equal(received.length, 1);
    const [post] = received;
    assert.deepEqual({ ...post, body: undefined }, { method: "POST", url: "/hooks/crm?tenant=acme", type: "application/json", agent: "svc-sandbox", body: undefined });
    const notified = sdk.parseWatchNotification(post.body, { token: "chan-secret-1" });
    assert.deepEqual([notified.module, notified.operation, notified.channel_id, notified.ids, notified.query_params], ["Leads", "edit", "1000000068001", ["4150868000001"], { tenant: "acme" }]);
    assert.deepEqual(notified.affected_fields, [{ 4150868000001: ["Email"] }]);
  } finally {
    await new Promise((r) => server.close(r));
  }
});
