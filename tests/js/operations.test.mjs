// Every operation of the table, called through the installed package against a loopback
// recording server: what arrives is what `prepare` promised, and every answer decodes.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { Client, SvcError, operations } from "svc-sdk";
import { startRecordingServer } from "./support/recording-server.mjs";

const samples = JSON.parse(readFileSync(new URL("./support/samples.json", import.meta.url)));
const vendorDir = path.join(process.env.SVC_ROOT, "../shared/fixtures/vendor");
const norm = (p) => p.replace(/\{[^}]+\}/g, "{}");
const familyOf = (f) => (f.startsWith("books-as-invoice") ? "invoice" : f.startsWith("books-as-billing") ? "billing" : "books");
const vendor = readdirSync(vendorDir)
  .filter((f) => f.endsWith(".json"))
  .map((f) => ({ family: familyOf(f), text: readFileSync(path.join(vendorDir, f), "utf8"), data: JSON.parse(readFileSync(path.join(vendorDir, f), "utf8")) }));

/** The vendor response body text of an operation, digits intact (read from the file, not re-serialized). */
function vendorReply(op) {
  const v = vendor.find((x) => x.family === op.family && x.data.method === op.method && norm(x.data.path) === norm(op.path));
  if (!v) return null;
  return { status: v.data.response_status, body: JSON.stringify(v.data.response_body) };
}

let server;
let client;
before(async () => {
  server = await startRecordingServer();
  client = new Client({ accessToken: "test-token-1", organizationId: "10234695", apiDomain: server.url });
});
after(() => server.close());

function argsFor(op) {
  const s = samples[op.id];
  const params = structuredClone(s.params);
  if (op.id === "addExpenseAttachment") {
    params.files = [new File(["%PDF-1.4"], "receipt.pdf", { type: "application/pdf" }), { name: "notes.txt", data: "hello" }];
  }
  if (op.id === "uploadCompositeItemImage") {
    params.image = { name: "kit.png", data: new Blob([new Uint8Array([137, 80, 78, 71])], { type: "image/png" }) };
  }
  return [...s.path, params];
}

test("the table has 61 operations and each is a Client method", () => {
  const ops = operations();
  assert.equal(ops.length, 61);
  for (const op of ops) assert.equal(typeof client[op.id], "function", op.id);
});

for (const op of operations()) {
  test(`${op.id}: ${op.method} ${op.path}`, async () => {
    server.reset();
    const args = argsFor(op);
    const prepared = await client.prepare(op.id, ...args);
    const v = vendorReply(op);
    if (op.id === "getExpenseReceipt") {
      server.reply({ status: 200, raw: Buffer.from("%PDF-1.4 receipt"), headers: { "content-type": "application/pdf" } });
    } else if (samples[op.id].reply) {
      server.reply({ status: 200, body: samples[op.id].reply });
    } else {
      assert.ok(v, `no vendor example for ${op.id}`);
      server.reply({ status: v.status, body: v.body });
    }
    const result = await client[op.id](...args);
    assert.equal(server.requests.length, 1, "exactly one request");
    const req = server.requests[0];
    assert.equal(req.method, op.method);
    assert.equal(server.url + req.url, prepared.url);
    assert.equal(req.headers.authorization, "Svc-oauthtoken test-token-1");
    for (const [name, value] of Object.entries(prepared.headers)) {
      if (name.toLowerCase() === "content-type" && typeof prepared.body !== "string") continue;
      assert.equal(req.headers[name.toLowerCase()], value, name);
    }
    const sendsOrgQuery = (op.family === "books" || op.family === "inventory") && !["createOrganization", "listOrganizations"].includes(op.id);
    assert.equal(new URL(req.url, server.url).searchParams.get("organization_id"), sendsOrgQuery ? "10234695" : null);
    if (typeof prepared.body === "string") {
      assert.deepEqual(JSON.parse(req.text), JSON.parse(prepared.body));
    } else if (prepared.body instanceof FormData) {
      assert.match(req.headers["content-type"], /^multipart\/form-data; boundary=/);
      const field = op.id === "addExpenseAttachment" ? "attachment" : "image";
      assert.ok(req.text.includes(`name="${field}"`), "multipart field");
    } else {
      assert.equal(req.text, "");
    }
    if (op.id === "getExpenseReceipt") {
      assert.ok(result instanceof Blob);
      assert.equal(result.type, "application/pdf");
      assert.equal(await result.text(), "%PDF-1.4 receipt");
      return;
    }
    assert.equal(typeof result, "object");
    const text = JSON.stringify(result);
    for (const m of text.matchAll(/"([a-z_]*_id|id)":([^,}\]]+)/g)) {
      assert.ok(m[2].startsWith('"') || m[2] === "null" || m[2].startsWith("{"), `${m[1]} is not a string: ${m[2]}`);
    }
    if (Array.isArray(result.items)) assert.ok(Symbol.asyncIterator in result, "a page is async-iterable");
  });
}

test("ids beyond 2^53 arrive as exact strings, never rounded", async () => {
  server.reset();
  server.reply({
    status: 200,
    body: '{"code":0,"message":"ok","packagea":[{"package_id":9007199254740993,"line_items":[{"line_item_id":10763000000140068123}]}],"page_context":{"page":1,"has_more_page":false}}',
  });
  const page = await client.listPackages();
  assert.equal(page.items[0].package_id, "9007199254740993");
  assert.equal(page.items[0].line_items[0].line_item_id, "10763000000140068123");
});

test("an error envelope becomes a typed SvcError", async () => {
  server.reset();
  server.reply({ status: 404, body: { code: 1002, message: "The project does not exist." } });
  await assert.rejects(client.listProjectComments("p9"), (e) => {
    assert.ok(e instanceof SvcError);
    assert.ok(e instanceof Error);
    assert.deepEqual([e.kind, e.status, e.code, e.operationId], ["api", 404, 1002, "listProjectComments"]);
    assert.equal(e.message, "The project does not exist.");
    return true;
  });
});
