// Every operation generated from the vendor's OpenAPI documents, through the installed package: its
// sample call (tests/fixtures/published/examples.json, made from the documents' examples) passes
// validation, goes over loopback with the row's method and path, each param in the body, the query or
// a header exactly once and as given, and the row's example answer decodes with every id exact.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Client, operations, validate } from "svc-sdk";
import { startRecordingServer } from "./support/recording-server.mjs";
import { startSandbox } from "./support/sandbox.mjs";

const ORG = "10234695";
const ROOTS = { books: "/books/v3", inventory: "/inventory/v1" };
const text = readFileSync(path.join(process.env.SVC_ROOT, "tests/fixtures/published/examples.json"), "utf8");
const examples = JSON.parse(text);

/** The example answer of a row as the file writes it (numbers beyond a double's digits kept). */
function rawAnswer(id) {
  const line = text.split("\n").find((l) => l.startsWith(`${JSON.stringify(id)}:{`));
  const entry = line.replace(/,$/, "");
  const at = entry.indexOf(',"answer":');
  return entry.slice(at + ',"answer":'.length, -1);
}

const published = operations().filter((op) => op.source === "published");
let server;
let client;

before(async () => {
  server = await startRecordingServer();
  client = new Client({ accessToken: "tok-published-rows", organizationId: ORG, apiDomain: server.url, rateLimit: false, maxRetries: 0 });
});
after(() => server.close());

test("the generated rows are every operation of both documents that the hand-written rows do not hold", () => {
  assert.equal(published.length, 704);
  assert.equal(operations().length, 829);
  const documented = new Set(Object.keys(examples).filter((k) => k !== "//"));
  assert.deepEqual(new Set(published.map((op) => op.id)), documented);
  for (const op of published) assert.ok(op.family === "books" || op.family === "inventory", op.id);
});

test("every generated row's sample call passes validation", () => {
  for (const op of published) {
    const r = validate(op.id, examples[op.id].params);
    assert.deepEqual(r, { ok: true }, `${op.id}: ${JSON.stringify(r.issues)}`);
  }
});

/** Where each param went: exactly one of the body, the query and the headers, with its value as given. */
function checkPlaced(op, params, request) {
  const url = new URL(request.url, server.url);
  const body = request.text ? JSON.parse(request.text) : {};
  const header = (name) => request.headers[name.replaceAll("_", "-")];
  for (const [key, value] of Object.entries(params)) {
    const places = [key in body, url.searchParams.has(key), header(key) !== undefined].filter(Boolean).length;
    assert.equal(places, 1, `${op.id}: ${key} is sent ${places} times`);
    if (key in body) assert.deepEqual(body[key], value, `${op.id}: ${key} in the body`);
    else if (url.searchParams.has(key)) assert.equal(url.searchParams.get(key), String(value), `${op.id}: ${key} in the query`);
    else assert.equal(header(key), String(value), `${op.id}: ${key} in a header`);
  }
  const extra = Object.keys(body).filter((k) => !(k in params));
  assert.deepEqual(extra, [], `${op.id}: the body holds only the params`);
}

test("every generated row is sent as its row says and its example answer decodes with every id exact", async () => {
  let sent = 0;
  for (const op of published) {
    const { path: values, params } = examples[op.id];
    const answer = rawAnswer(op.id);
    server.reset();
    server.handle(() =>
      examples[op.id].file ? { status: 200, raw: Buffer.from("%PDF-1.4"), headers: { "content-type": "application/pdf" } } : { status: 200, body: answer },
    );
    let result;
    try {
      result = await client[op.id](...values, params);
    } catch (e) {
      assert.fail(`${op.id}: ${e.kind}: ${e.message}`);
    }
    assert.equal(server.requests.length, 1, op.id);
    const [request] = server.requests;
    assert.equal(request.method, op.method, op.id);
    const url = new URL(request.url, server.url);
    let expected = ROOTS[op.family] + op.path;
    for (const v of values) expected = expected.replace(/\{[^}]+\}/, encodeURIComponent(v));
    assert.equal(url.pathname, expected, op.id);
    const org = url.searchParams.get("organization_id");
    assert.equal(org, op.path === "/organizations" ? null : ORG, `${op.id}: organization_id`);
    url.searchParams.delete("organization_id");
    checkPlaced(op, params, { ...request, url: url.pathname + url.search });
    if (examples[op.id].file) {
      assert.ok(result instanceof Blob, `${op.id} resolves to a Blob`);
      continue;
    }
    const written = JSON.stringify(result);
    for (const [, key, digits] of answer.matchAll(/"(\w*_id)":(\d+)[,}\]]/g)) {
      assert.ok(written.includes(`"${key}":"${digits}"`), `${op.id}: ${key} ${digits} is not kept exact in ${written.slice(0, 300)}`);
    }
    sent++;
  }
  assert.ok(sent > 650, `${sent} answers decoded`);
});

test("the sandbox serves every generated row: its answer, or the service's refusal of a record the path names that it does not hold", async () => {
  const sandbox = await startSandbox(["--no-rate-limit"]);
  try {
    const local = new Client({ accessToken: "dev-token", organizationId: ORG, apiDomain: sandbox.url, rateLimit: false, maxRetries: 0 });
    const [served, refused] = [[], []];
    for (const op of published) {
      const { path: values, params } = examples[op.id];
      const outcome = await local[op.id](...values, params).then(() => "served", (e) => e);
      if (outcome === "served") served.push(op.id);
      else if (outcome.kind === "api" && outcome.status === 404 && outcome.code === 1002) refused.push(op.id);
      else assert.fail(`${op.id}: ${outcome.kind} ${outcome.status} ${outcome.code} ${outcome.message}`);
    }
    // The sample's ids name the vendor's records: most are refused as not held (1002), as the service
    // would; crates/sandbox/tests/api/every_row.rs serves each row on records made for its path.
    assert.ok(served.length >= 150 && served.length + refused.length === published.length, `${served.length} served, ${refused.length} refused a record not held`);
  } finally {
    await sandbox.close();
  }
});

test("each family is a namespace of the client: its rows under their names there", async () => {
  assert.equal(typeof client.books.createContact, "function");
  assert.equal(typeof client.inventory.createContact, "function");
  assert.equal(client.books.nothingLikeThis, undefined);
  assert.equal(client.nothingLikeThis, undefined);
  assert.ok("createInvoice" in client && "createContact" in client.inventory && !("x" in client.books));
  for (const [family, name, id] of [["books", "createContact", "createContact"], ["inventory", "createContact", "inventoryCreateContact"], ["books", "createProject", "booksCreateProject"], ["invoice", "createProject", "createProject"]]) {
    server.reset();
    const sample = examples[id] ?? { path: [], params: {} };
    const settled = await client[family][name](...sample.path, sample.params).then(() => null, (e) => e);
    // Sent, or refused before sending: either way as the row it names.
    if (settled) assert.equal(settled.operationId, id, `${family}.${name}: ${settled.message}`);
    else assert.equal(server.requests.length, 1, `${family}.${name}`);
  }
});

test("an odd caller: names that are no operation, symbols and Object's own keys find nothing and break nothing", async () => {
  for (const name of ["then", "toJSON", "constructor", "__proto__", "hasOwnProperty", "", "createContact ", "CREATECONTACT", "books"]) {
    assert.notEqual(typeof client.books[name], "function", `books.${name}`);
  }
  assert.equal(client.books[Symbol.iterator], undefined);
  assert.ok(!(Symbol.asyncIterator in client.inventory));
  assert.equal(await Promise.resolve(client.books), client.books, "a namespace is no thenable");
  assert.deepEqual(JSON.parse(JSON.stringify(client.books)), {});
  assert.equal(typeof client.toString, "function");
  assert.equal(client.books, client.books, "one namespace per client and family");
  const other = new Client({ accessToken: "tok-published-rows", organizationId: ORG, apiDomain: server.url, rateLimit: false });
  assert.notEqual(other.books, client.books);
  const detached = client.inventory.createContact;
  server.reset();
  await detached({ contact_name: "Detached" }).catch((e) => assert.equal(e.kind, "decode", e.message));
  assert.equal(new URL(server.requests[0].url, server.url).pathname, "/inventory/v1/contacts", "a namespace's method needs no `this`");
});
