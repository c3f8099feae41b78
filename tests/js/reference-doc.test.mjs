// docs/REFERENCE.md, as the installed package ships it, names every export of the four entries (their
// values and the SDK's own types; its package table lists each entry's values), every ClientOptions, CallOptions and RateLimitOptions member and every
// SvcError kind and issue code, read from the installed declarations and runtime: the reference cannot
// fall behind the package. Its relative links resolve inside the package.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const root = process.env.SVC_ROOT;
const installed = path.join(process.cwd(), "node_modules/svc-sdk");
const read = (file) => readFileSync(path.join(installed, file), "utf8");
const reference = read("docs/REFERENCE.md");
const index = read("pkg/index.d.ts");

/** Names a file exports: declarations and `export { ... }` / `export type { ... }` lists. */
function exportedNames(text) {
  const declared = [...text.matchAll(/^export (?:declare )?(?:type|interface|class|const|function) (\w+)/gm)].map((m) => m[1]);
  const listed = [...text.matchAll(/^export (?:type )?\{([^}]*)\}/gm)].flatMap((m) => m[1].split(",").map((n) => n.trim().split(/\s+as\s+/).pop()));
  return [...new Set([...declared, ...listed].filter(Boolean))];
}

/** The members of an interface of index.d.ts, or of each part of a type `Base & (A | B)`. */
function members(name) {
  const alias = index.match(new RegExp(`\\nexport type ${name} = (\\w+) & \\(([\\w| ]+)\\);`));
  if (alias) return [...new Set([alias[1], ...alias[2].split("|").map((n) => n.trim())].flatMap(members))];
  const body = index.match(new RegExp(`\\nexport interface ${name}(?: extends \\w+)? \\{\\n([\\s\\S]*?)\\n\\}`));
  assert.ok(body, `index.d.ts declares no interface ${name}`);
  return [...body[1].matchAll(/^ {2}(?:readonly )?(\w+)\??:/gm)].map((m) => m[1]);
}

/** The string members of a union type of index.d.ts. */
function union(name) {
  const line = index.match(new RegExp(`\\nexport type ${name} = ([^;]*);`));
  assert.ok(line, `index.d.ts declares no type ${name}`);
  return [...line[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]);
}

/** The SDK's own part of index.d.ts: everything before the generated models, which follow parseEvent. */
const own = index.slice(0, index.indexOf(";\n", index.indexOf("\nexport declare function parseEvent(")));
/** Types Rust declares among the models that are part of the surface. */
const surfaceModels = ["Region", "ServicePlan", "Family", "RateLimitState", "PageContext", "WatchNotification", "Event", "EventType"];

/** The words inside the reference's code: fenced blocks and inline code spans. */
const fenced = [...reference.matchAll(/^```[^\n]*\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
const spans = [...reference.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "").matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);
const words = new Set([...fenced, ...spans].flatMap((code) => code.match(/\w+/g) ?? []));
const mentioned = (name) => words.has(name);
const missing = (names) => names.filter((n) => !mentioned(n));

test("the reference names every export of svc-sdk: its values and the SDK's own types", async () => {
  const runtime = Object.keys(await import("svc-sdk"));
  const names = [...new Set([...runtime, ...exportedNames(own), ...surfaceModels])];
  assert.ok(runtime.includes("Client") && names.length > 50, `only ${names.length} names`);
  for (const name of surfaceModels) assert.match(index, new RegExp(`\\nexport (?:type|interface) ${name}\\b`), name);
  assert.deepEqual(missing(names), []);
});

test("the reference names every export of svc-sdk in Node (toNodeHandler and its shapes), svc-sdk/validate, svc-sdk/redis and svc-sdk/cloudflare", async () => {
  const runtime = [...Object.keys(await import("svc-sdk/validate")), ...Object.keys(await import("svc-sdk/redis"))];
  const declared = ["node.d.ts", "validate.d.ts", "redis.d.ts", "cloudflare.d.ts"].flatMap((f) => exportedNames(read(`pkg/${f}`)));
  for (const name of ["toNodeHandler", "NodeRequestLike", "validate", "redisStore", "SvcLimiter", "durableObjectStore", "Issue"]) assert.ok(declared.includes(name), name);
  assert.deepEqual(missing([...new Set([...runtime, ...declared])]), []);
});

test("the package table lists every value each entry exports: svc-sdk's ErrorCode, ExactNumber and accountsServers included", async () => {
  const table = reference.split("\n## The package\n")[1].split("\n\n")[0];
  const listed = (entry) => {
    const row = table.split("\n").find((l) => l.startsWith(`| \`${entry}\` |`));
    assert.ok(row, `no row for ${entry}`);
    return [...row.split(" | ")[1].matchAll(/`(\w+)`/g)].map((m) => m[1]).sort();
  };
  // svc-sdk/cloudflare runs in workerd only: its values are read from its declarations.
  const values = (file) => [...read(`pkg/${file}`).matchAll(/^export declare (?:const|function|class) (\w+)/gm)].map((m) => m[1]);
  const entries = {
    "svc-sdk": Object.keys(await import("svc-sdk")),
    "svc-sdk/validate": Object.keys(await import("svc-sdk/validate")),
    "svc-sdk/redis": Object.keys(await import("svc-sdk/redis")),
    "svc-sdk/cloudflare": values("cloudflare.d.ts"),
    "svc-sdk/testing": Object.keys(await import("svc-sdk/testing")),
  };
  for (const name of ["ErrorCode", "ExactNumber", "accountsServers"]) assert.ok(entries["svc-sdk"].includes(name), name);
  for (const [entry, names] of Object.entries(entries)) assert.deepEqual(listed(entry), [...names].sort(), entry);
});

test("the reference names every ClientOptions, RateLimitOptions, CallOptions and ProxyOptions member", () => {
  for (const name of ["ClientOptions", "RateLimitOptions", "CallOptions", "ProxyOptions"]) {
    const list = members(name);
    assert.ok(list.length >= 3, `${name}: only ${list.length} members`);
    assert.deepEqual(missing(list), [], name);
  }
});

test("the reference has a row for every SvcError kind and every issue code, and names each one's members", async () => {
  const kinds = union("ErrorKind");
  assert.equal(kinds.length, 10);
  const row = (name) => reference.split("\n").find((l) => l.startsWith(`| \`${name}\` |`));
  for (const kind of kinds) assert.ok(row(kind), `no row for the kind ${kind}`);
  for (const code of union("IssueCode")) assert.ok(row(code), `no row for the issue code ${code}`);
  const errorMembers = ["SvcErrorBase", "SvcErrorInit", "NetworkCause", "IssueBase"].flatMap(members);
  assert.deepEqual(missing([...new Set(errorMembers)]), []);
  const { SvcError } = await import("svc-sdk");
  for (const kind of kinds) assert.equal(new SvcError(kind, "m").kind, kind);
});

test("the reference's relative links resolve beside it in the package, and README.md links it", async () => {
  const { markdownLinks } = await import(path.join(root, "scripts/links.mjs"));
  const { checked, broken } = markdownLinks([path.join(installed, "docs/REFERENCE.md")]);
  assert.ok(checked >= 10, `only ${checked} links followed`);
  assert.deepEqual(broken, []);
  assert.ok(read("README.md").includes("](docs/REFERENCE.md)"));
  assert.ok(!read("README.md").includes("API.md"), "the README sends users to API.md, which is not shipped");
  assert.equal(reference, readFileSync(path.join(root, "docs/REFERENCE.md"), "utf8"));
});

test("the reference's testing section names Sandbox, each of its members and each of its options", () => {
  assert.ok(Object.hasOwn(JSON.parse(read("package.json")).exports, "./testing"));
  const section = reference.split("\n## Testing your code\n")[1].split("\n## ")[0];
  const dts = read("pkg/testing.d.ts");
  const block = (name) => dts.split(new RegExp(`(?:interface|class) ${name}\\b`))[1].split("\n}")[0];
  const members = (name) => [...block(name).matchAll(/^  (?:readonly )?(\w+)\??[(:]/gm)].map((m) => m[1]).filter((m) => m !== "constructor");
  assert.ok(members("Sandbox").length >= 8 && members("SandboxOptions").length >= 8);
  for (const name of ["Sandbox", ...members("Sandbox"), ...members("SandboxOptions")]) assert.ok(section.includes(`\`${name}`), name);
  assert.ok(existsSync(path.join(installed, "docs/OPERATIONS.md")) && existsSync(path.join(installed, "docs/VALIDATION.md")));
});
