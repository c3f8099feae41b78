// svc-sdk/testing through the installed package: the sandbox's own Rust handling in-process behind a
// standard fetch drives a Client (create, pages, update, delete, an upload and a download, 401s of a token and of a scope, a 429
// with Retry-After, a slow answer on fake timers and cut short by its signal), and the same scenario (tests/runtimes/testing/
// scenario.mjs) against the binary over loopback gives the same status and body, request by request,
// from Node, Deno, workerd and Chromium.
import { mock, test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client, SvcError } from "svc-sdk";
import { Sandbox } from "svc-sdk/testing";
import { launchChromium } from "./support/chromium.mjs";
import { startSandbox } from "./support/sandbox.mjs";

const consumer = path.dirname(fileURLToPath(import.meta.url));
const h = await import(pathToFileURL(path.join(process.env.SVC_ROOT, "tests/runtimes/harness.mjs")));
const { BINARY_FLAGS, FAULTS, TOKENS, recorded, scenario: run } = await import(pathToFileURL(path.join(process.env.SVC_ROOT, "tests/runtimes/testing/scenario.mjs")));
const scenario = (...args) => run({ Client, SvcError }, ...args);

/** The scenario's recorded answers from the sandbox binary over loopback (and a second one of `FAULTS`). */
async function overLoopback() {
  const binary = await startSandbox(BINARY_FLAGS.tokens);
  const faulty = await startSandbox(BINARY_FLAGS.faults);
  const log = [];
  try {
    await scenario(binary.url, recorded(fetch, binary.url, log), "10234695", { url: faulty.url, fetch: recorded(fetch, faulty.url, log) });
  } finally {
    await Promise.all([binary.close(), faulty.close()]);
  }
  return log;
}

/** The scenario's recorded answers from two in-process sandboxes. */
async function inProcess() {
  const sandbox = new Sandbox({ tokens: TOKENS });
  const faulty = new Sandbox(FAULTS);
  const log = [];
  await scenario(sandbox.url, recorded(sandbox.fetch, sandbox.url, log), sandbox.organizationId, { url: faulty.url, fetch: recorded(faulty.fetch, faulty.url, log) });
  return { sandbox, faulty, log };
}

test("a client drives the in-process sandbox: create, pages, update, delete, upload, download, unknown and revoked tokens, a missing scope, 429s", async () => {
  const { sandbox, faulty } = await inProcess();
  assert.equal(sandbox.url, "http://sandbox.localhost");
  const log = sandbox.requests();
  assert.deepEqual(log.slice(0, 4).map((r) => [r.method, r.operationId, r.status]), [["POST", "createFixedAssetType", 201], ["POST", "createFixedAssetType", 201], ["POST", "createFixedAssetType", 201], ["GET", "listFixedAssetTypes", 200]]);
  assert.ok(log.filter((r) => r.status === 401).length >= 3);
  const limited = faulty.requests();
  assert.ok(limited.some((r) => r.status === 429) && limited.at(-1).operationId === "createFixedAssetType" && limited.at(-1).status === 201, JSON.stringify(limited));
  sandbox.reset();
  assert.deepEqual(sandbox.requests(), []);
});

test("a slow answer waits on the runtime's setTimeout, so fake timers drive it", async () => {
  const sandbox = new Sandbox({ faults: "slow=1", slowMs: 60_000, seed: 3 });
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    let settled = false;
    const answer = sandbox.fetch(`${sandbox.url}/books/v3/organizations`, { headers: { authorization: "Svc-oauthtoken dev-token" } }).finally(() => (settled = true));
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(settled, false, "the answer waits for its timer");
    mock.timers.tick(60_000);
    assert.equal((await answer).status, 200);
  } finally {
    mock.timers.reset();
  }
});

test("a slow answer ends at the request's signal, as a fetch does, and leaves no timer behind", async () => {
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
  const before = timers();
  const sandbox = new Sandbox({ faults: "slow=1", slowMs: 600_000 });
  const client = new Client({ accessToken: "dev-token", organizationId: sandbox.organizationId, apiDomain: sandbox.url, fetch: sandbox.fetch, maxRetries: 0, timeoutMs: 50 });
  await assert.rejects(client.listFixedAssetTypes(), (e) => e instanceof SvcError && e.kind === "timeout");
  const controller = new AbortController();
  const answer = sandbox.fetch(`${sandbox.url}/books/v3/organizations`, { headers: { authorization: "Svc-oauthtoken dev-token" }, signal: controller.signal });
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(sandbox.requests().length, 1, "the second call is held");
  controller.abort();
  await assert.rejects(answer, (e) => e.name === "AbortError");
  await assert.rejects(sandbox.fetch(`${sandbox.url}/books/v3/organizations`, { signal: AbortSignal.abort() }), (e) => e.name === "AbortError");
  assert.equal(sandbox.requests().length, 2, "a signal aborted before the fetch sends nothing");
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(timers(), before, "the slow answers' timers are cleared");
});

test("a slow fault holds its call in flight, as the binary does: a sixth call at once meets the free plan's limit of 5", async () => {
  const get = (url, fetch) => fetch(`${url}/books/v3/organizations`, { headers: { authorization: "Svc-oauthtoken dev-token" } }).then((r) => r.status);
  const binary = await startSandbox(["--faults", "slow=1", "--slow-ms", "3000"]);
  let overLoopback;
  try {
    overLoopback = await Promise.all(Array.from({ length: 6 }, () => get(binary.url, fetch)));
  } finally {
    await binary.close();
  }
  const sandbox = new Sandbox({ faults: "slow=1", slowMs: 3000 });
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const answers = Array.from({ length: 6 }, () => get(sandbox.url, sandbox.fetch));
    while (sandbox.requests().length < 1) await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(sandbox.requests().map((r) => r.status), [429], "the sixth is refused while five are held");
    mock.timers.tick(3000);
    const inProcess = await Promise.all(answers);
    assert.deepEqual(inProcess.toSorted(), overLoopback.toSorted());
    assert.deepEqual(inProcess.toSorted(), [200, 200, 200, 200, 200, 429]);
  } finally {
    mock.timers.reset();
  }
});

test("a held create is not answered before its wait ends, and is applied when its signal cuts the wait short, as the binary applies it for a caller that hung up", async () => {
  const sandbox = new Sandbox({ faults: "slow=1", slowMs: 600_000 });
  const create = (signal) => sandbox.fetch(`${sandbox.url}/books/v3/fixedassettypes?organization_id=${sandbox.organizationId}`, { method: "POST", signal, headers: { authorization: "Svc-oauthtoken dev-token", "content-type": "application/json" }, body: JSON.stringify({ fixed_asset_type_name: "Barges", depreciation_method: "straight_line", depreciation_frequency: "monthly" }) });
  const controller = new AbortController();
  const cut = create(controller.signal);
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(sandbox.requests(), [], "held: not answered yet");
  controller.abort();
  await assert.rejects(cut, (e) => e.name === "AbortError");
  assert.deepEqual(sandbox.requests().map((r) => [r.operationId, r.status]), [["createFixedAssetType", 201]]);
  const fast = new Sandbox();
  fast.restore(sandbox.snapshot());
  const client = new Client({ accessToken: "dev-token", organizationId: fast.organizationId, apiDomain: fast.url, fetch: fast.fetch, maxRetries: 0 });
  assert.ok((await client.listFixedAssetTypes()).items.some((t) => t.fixed_asset_type_name === "Barges"));
});

test("a daily quota ends the day's calls with the service's 429, and \"none\" lifts the plan's", async () => {
  const get = (sandbox) => sandbox.fetch(`${sandbox.url}/books/v3/organizations`, { headers: { authorization: "Svc-oauthtoken dev-token" } });
  const small = new Sandbox({ dailyQuota: 2 });
  assert.deepEqual([(await get(small)).status, (await get(small)).status], [200, 200]);
  const client = new Client({ accessToken: "dev-token", organizationId: small.organizationId, apiDomain: small.url, fetch: small.fetch, maxRetries: 0, rateLimit: false });
  await assert.rejects(client.listOrganizations(), (e) => e instanceof SvcError && e.kind === "rate_limited" && e.code === 1431);
  const unlimited = new Sandbox({ dailyQuota: "none", ratePerMinute: 5000 });
  const statuses = new Set();
  for (let i = 0; i < 1001; i++) statuses.add((await get(unlimited)).status);
  assert.deepEqual([...statuses], [200], "the free plan's 1000 a day does not apply");
});

test("odd options are refused with what is wrong, and the binary's limits on a request's size hold", async () => {
  assert.equal(new Sandbox(null).organizationId, "10234695");
  for (const [options, why] of [
    ["org", /options must be an object/],
    [{ callbackFetch: "http://127.0.0.1:9/" }, /callbackFetch: expected a fetch function/],
    [{ port: 8080 }, /unknown option "port"/],
    [{ faults: "429=2" }, /the rate of 429 must be a number from 0 to 1/],
    [{ plan: "gold" }, /is not one of free, standard/],
    [{ tokens: ["t"] }, /tokens: expected an object/],
  ]) {
    assert.throws(() => new Sandbox(options), (e) => e instanceof Error && why.test(e.message), JSON.stringify(options));
  }
  const sandbox = new Sandbox();
  const post = (headers, body) => sandbox.fetch(`${sandbox.url}/books/v3/fixedassettypes?organization_id=${sandbox.organizationId}`, { method: "POST", headers: { authorization: "Svc-oauthtoken dev-token", "content-type": "application/json", ...headers }, body });
  const big = await post({}, new Uint8Array(32 * 1024 * 1024 + 1));
  assert.deepEqual([big.status, (await big.json()).code], [413, 1413]);
  const tall = await post({ "x-filler": "x".repeat(64 * 1024) }, "{}");
  assert.equal(tall.status, 431);
  assert.deepEqual(sandbox.requests().map((r) => r.status), [413, 431]);
  const ok = await post({}, JSON.stringify({ fixed_asset_type_name: "Skiffs", depreciation_method: "straight_line", depreciation_frequency: "monthly" }));
  assert.equal(ok.status, 201, "the sandbox goes on answering");
});

test("snapshot and restore bring the records back", async () => {
  const sandbox = new Sandbox();
  const client = new Client({ accessToken: "dev-token", organizationId: sandbox.organizationId, apiDomain: sandbox.url, fetch: sandbox.fetch, maxRetries: 0 });
  const before = (await client.listFixedAssetTypes()).items.length;
  const snapshot = sandbox.snapshot();
  await client.createFixedAssetType({ fixed_asset_type_name: "Boats", depreciation_method: "straight_line", depreciation_frequency: "monthly" });
  assert.equal((await client.listFixedAssetTypes()).items.length, before + 1);
  sandbox.restore(snapshot);
  assert.equal((await client.listFixedAssetTypes()).items.length, before);
});

test("seeded records go through the handler a request meets, and a client gets and lists them", async () => {
  const sandbox = new Sandbox();
  const client = new Client({ accessToken: "dev-token", organizationId: sandbox.organizationId, apiDomain: sandbox.url, fetch: sandbox.fetch, maxRetries: 0 });
  const types = sandbox.seed("createFixedAssetType", [
    { fixed_asset_type_name: "Vans", depreciation_method: "straight_line", depreciation_frequency: "monthly" },
    { fixed_asset_type_name: "Drones", depreciation_method: "straight_line", depreciation_frequency: "yearly" },
  ]);
  assert.deepEqual(types.map((t) => t.fixed_asset_type_name), ["Vans", "Drones"]);
  assert.ok(types.every((t) => typeof t.fixed_asset_type_id === "string") && types[0].fixed_asset_type_id !== types[1].fixed_asset_type_id);
  const listed = (await client.listFixedAssetTypes()).items;
  assert.deepEqual(types.map((t) => listed.find((x) => x.fixed_asset_type_id === t.fixed_asset_type_id)?.fixed_asset_type_name), ["Vans", "Drones"]);
  const [account] = (await client.listAccounts({ per_page: 1 })).items;
  const expense = sandbox.seed("createExpense", { account_id: account.account_id, date: "2024-01-02", amount: 112.5 });
  assert.deepEqual(await client.getExpense(expense.expense_id), expense);
  // A seed is not a request: the log holds the client's three calls only.
  assert.deepEqual(sandbox.requests().map((r) => r.operationId), ["listFixedAssetTypes", "listAccounts", "getExpense"]);
  const model = listed.find((t) => t.expense_account_id);
  const full = { fixed_asset_type_name: "Trucks", expense_account_id: model.expense_account_id, depreciation_account_id: model.depreciation_account_id, depreciation_method: "declining_method", depreciation_frequency: "yearly", depreciation_percentage: 20, total_life: 48, salvage_value: 0, computation_type: "no_prorata" };
  const renamed = sandbox.seed("updateFixedAssetType", types[0].fixed_asset_type_id, full);
  assert.equal((await client.listFixedAssetTypes()).items.find((t) => t.fixed_asset_type_id === types[0].fixed_asset_type_id).fixed_asset_type_name, "Trucks");
  assert.equal(renamed.fixed_asset_type_name, "Trucks");
});

test("a seeded record that breaks a rule is refused with the client's error, and one the sandbox refuses with the error a request gets", async () => {
  const sandbox = new Sandbox();
  const client = new Client({ accessToken: "dev-token", organizationId: sandbox.organizationId, apiDomain: sandbox.url, fetch: sandbox.fetch, maxRetries: 0 });
  const before = (await client.listFixedAssetTypes()).items.length;
  const refusals = [
    ["createFixedAssetType", "fixedassettypes", { fixed_asset_type_name: "Vans", depreciation_method: "sideways", depreciation_frequency: "monthly" }],
    ["createExpense", "expenses", { date: "yesterday", amount: 5 }],
  ];
  for (const [op, resource, params] of refusals) {
    const res = await sandbox.fetch(`${sandbox.url}/books/v3/${resource}?organization_id=${sandbox.organizationId}`, { method: "POST", headers: { authorization: "Svc-oauthtoken dev-token", "content-type": "application/json" }, body: JSON.stringify(params) });
    const answer = await res.json();
    assert.equal(res.status, 400, JSON.stringify(answer));
    // The client refuses the params before sending them, and seed as the client does.
    const refused = await client[op](params).then(() => undefined, (e) => e);
    assert.ok(refused instanceof SvcError && refused.kind === "validation", String(refused));
    assert.throws(() => sandbox.seed(op, params), (e) => sameError(e, refused));
    assert.equal(refused.issues[0].message, answer.issues[0].message, "the sandbox's rule is the client's");
  }
  // What passes the client's checks and the sandbox still refuses is the answer a request gets.
  const model = (await client.listFixedAssetTypes()).items.find((t) => t.expense_account_id);
  const gone = { fixed_asset_type_name: "Gone", expense_account_id: model.expense_account_id, depreciation_account_id: model.depreciation_account_id, depreciation_method: "declining_method", depreciation_frequency: "yearly", depreciation_percentage: 20, total_life: 48, salvage_value: 0, computation_type: "no_prorata" };
  const res = await sandbox.fetch(`${sandbox.url}/books/v3/fixedassettypes/404404?organization_id=${sandbox.organizationId}`, { method: "PUT", headers: { authorization: "Svc-oauthtoken dev-token", "content-type": "application/json" }, body: JSON.stringify(gone) });
  const answer = await res.json();
  assert.ok(res.status >= 400, JSON.stringify(answer));
  assert.throws(() => sandbox.seed("updateFixedAssetType", "404404", gone), (e) => e instanceof Error && e.status === res.status && e.code === answer.code && e.message === answer.message && JSON.stringify(e.body) === JSON.stringify(answer));
  assert.throws(() => sandbox.seed("noSuchOperation", {}), (e) => e.name === "SvcError" && e.kind === "config" && /noSuchOperation/.test(e.message));
  assert.equal((await client.listFixedAssetTypes()).items.length, before, "nothing refused was stored");
});

/** Whether `e`, thrown by a seed, is the error the client threw: name, kind, message, issues, operation. */
function sameError(e, byClient, message = byClient.message) {
  assert.deepEqual(
    { name: e.name, kind: e.kind, message: e.message, issues: e.issues, operationId: e.operationId },
    { name: byClient.name, kind: byClient.kind, message, issues: byClient.issues, operationId: byClient.operationId },
  );
  return true;
}

test("seed takes the client's path: a number id beyond 2^53 (in params or the path), NaN are refused as the client refuses them, a BigInt id is its exact digits", async () => {
  const sandbox = new Sandbox();
  const client = new Client({ accessToken: "dev-token", organizationId: sandbox.organizationId, apiDomain: sandbox.url, fetch: sandbox.fetch, maxRetries: 0 });
  const [account] = (await client.listAccounts({ per_page: 1 })).items;
  const expense = (extra) => ({ account_id: account.account_id, date: "2024-01-02", amount: 5, ...extra });
  for (const params of [expense({ account_id: 2 ** 53 + 2 }), expense({ amount: NaN }), expense({ amount: Infinity }), expense({ reference_number: Symbol("r") })]) {
    const refused = await client.createExpense(params).then(() => undefined, (e) => e);
    assert.ok(refused instanceof SvcError && refused.kind === "validation", String(refused));
    assert.throws(() => sandbox.seed("createExpense", params), (e) => sameError(e, refused));
  }
  const made = sandbox.seed("createFixedAssetType", { fixed_asset_type_name: "Vans", depreciation_method: "straight_line", depreciation_frequency: "monthly" });
  const rename = { fixed_asset_type_name: "Trucks", depreciation_method: "straight_line", depreciation_frequency: "monthly" };
  for (const id of [Number(made.fixed_asset_type_id), BigInt(made.fixed_asset_type_id)]) {
    const { url } = await client.prepare("getTask", "p1", id);
    assert.ok(url.endsWith(`/tasks/${made.fixed_asset_type_id}`), `a path id as a BigInt or an exact number is its digits: ${url}`);
  }
  const refused = await client.updateFixedAssetType(2 ** 53 + 2, rename).then(() => undefined, (e) => e);
  assert.ok(refused instanceof SvcError && refused.kind === "validation", String(refused));
  assert.deepEqual(refused.issues.map((i) => i.path), [["fixed_asset_type_id"]]);
  assert.throws(() => sandbox.seed("updateFixedAssetType", 2 ** 53 + 2, rename), (e) => sameError(e, refused));
  const big = BigInt(account.account_id);
  const seeded = sandbox.seed("createExpense", expense({ account_id: big }));
  const sent = await client.createExpense(expense({ account_id: big }));
  assert.equal(seeded.account_id, account.account_id, "a BigInt id is its exact digits");
  assert.equal(sent.account_id, seeded.account_id, "as the client sends it");
  assert.deepEqual(await client.getExpense(seeded.expense_id), seeded, "a client made before gets the seeded record");
});

test("the logs keep the newest logLimit entries, count the dropped ones and cut long paths; reset() lets go of them", async () => {
  const sandbox = new Sandbox({ logLimit: 50, rateLimit: false });
  const client = new Client({ accessToken: "dev-token", organizationId: sandbox.organizationId, apiDomain: sandbox.url, fetch: sandbox.fetch, maxRetries: 0, rateLimit: false });
  const long = `${sandbox.url}/books/v3/${"x".repeat(30_000)}`;
  for (let i = 0; i < 5000; i++) {
    const res = await sandbox.fetch(i % 2 ? long : `${sandbox.url}/books/v3/nothing/${i}`);
    await res.arrayBuffer();
  }
  const log = sandbox.requests();
  assert.equal(log.length, 50);
  assert.equal(log.dropped, 4950, "the oldest went first, counted");
  assert.equal(log.at(-2).path, "/books/v3/nothing/4998", "the newest are kept, oldest first");
  assert.ok(log.every((r) => Buffer.byteLength(r.path) <= 512 && Buffer.byteLength(r.method) <= 512), "an entry's text is bounded");
  assert.ok(log.at(-1).path.endsWith("…"), "a long path is cut, and says so");
  assert.ok(Buffer.byteLength(JSON.stringify(log)) < 50 * 700, `the log is ${Buffer.byteLength(JSON.stringify(log))} bytes`);
  await client.listAccounts({ per_page: 1 });
  assert.deepEqual([sandbox.requests().length, sandbox.requests().at(-1).operationId], [50, "listAccounts"]);
  sandbox.reset();
  const empty = sandbox.requests();
  assert.deepEqual([empty.length, empty.dropped], [0, 0]);
  await client.listAccounts({ per_page: 1 });
  assert.deepEqual(sandbox.requests().map((r) => r.operationId), ["listAccounts"], "a client made before goes on after a reset");
  // The callbacks keep to the same limit.
  const one = new Sandbox({ logLimit: 1 });
  for (let i = 0; i < 3; i++) await fireDealEdit(one.url, one.fetch, "http://127.0.0.1:9/hooks");
  const callbacks = one.callbacks();
  assert.deepEqual([callbacks.length, callbacks.dropped], [1, 2]);
  const none = new Sandbox({ logLimit: 0 });
  await (await none.fetch(`${none.url}/books/v3/nothing`)).arrayBuffer();
  assert.deepEqual([none.requests().length, none.requests().dropped], [0, 1]);
});

test("slowMs: 0 answers a slow call at once, applied; every odd option value is refused at construction with what is wrong", async () => {
  const sandbox = new Sandbox({ faults: "slow=1", slowMs: 0 });
  const client = new Client({ accessToken: "dev-token", organizationId: sandbox.organizationId, apiDomain: sandbox.url, fetch: sandbox.fetch, maxRetries: 0 });
  const made = await client.createFixedAssetType({ fixed_asset_type_name: "Skiffs", depreciation_method: "straight_line", depreciation_frequency: "monthly" });
  assert.ok((await client.listFixedAssetTypes()).items.some((t) => t.fixed_asset_type_id === made.fixed_asset_type_id), "the held call was applied");
  const counters = await (await sandbox.fetch(`${sandbox.url}/__sandbox/counters`)).json();
  assert.ok(counters.faults.slow >= 2, JSON.stringify(counters.faults));
  for (const [options, why] of [
    [{ slowMs: NaN }, /^slowMs: expected a string or a number, got NaN$/],
    [{ slowMs: -1 }, /--slow-ms: "-1" is not a whole number from 0 to 2147483647/],
    [{ slowMs: 2 ** 31 }, /from 0 to 2147483647/],
    [{ slowMs: 1.5 }, /--slow-ms: "1.5" is not a whole number/],
    [{ minuteMs: Infinity }, /minuteMs: expected a string or a number, got Infinity/],
    [{ minuteMs: 59 }, /--minute-ms: "59" is not a whole number from 60 to 60000/],
    [{ ratePerMinute: 0 }, /from 1 to 4294967295/],
    [{ ratePerMinute: 2 ** 32 }, /from 1 to 4294967295/],
    [{ dailyQuota: "lots" }, /--daily-quota: "lots" is not a whole number/],
    [{ seed: 2 ** 64 }, /^seed: 18446744073709551616 is beyond 2\^53 - 1, where a JS number loses digits: give it as a string$/],
    [{ seed: 2 ** 53 + 2 }, /^seed: 9007199254740994 is beyond 2\^53 - 1/],
    [{ seed: -1 }, /--seed: "-1" is not a whole number/],
    [{ devToken: "no" }, /devToken: expected true or false, got "no"/],
    [{ rateLimit: () => false }, /rateLimit: expected true or false, got a function/],
    [{ organizationId: "" }, /--org: the id may not be empty/],
    [{ logLimit: -1 }, /logLimit: "-1" is not a whole number from 0 to 100000/],
    [{ logLimit: 1e6 }, /from 0 to 100000/],
    [{ logLimit: NaN }, /logLimit: expected a string or a number, got NaN/],
    [{ callbackFetch: 1 }, /callbackFetch: expected a fetch function/],
  ]) {
    assert.throws(() => new Sandbox(options), (e) => e instanceof Error && why.test(e.message), `${String(Object.values(options)[0])}`);
  }
  assert.equal(new Sandbox({ seed: 2n ** 64n - 1n, logLimit: "10" }).organizationId, "10234695", "a BigInt seed is its exact digits");
  assert.ok((await client.listFixedAssetTypes()).items.length > 0, "a client made before goes on");
});

/** A loopback receiver of callbacks: each POST's method, URL, content type, user agent and body. */
async function receiver(status) {
  const received = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ method: req.method, url: req.url, type: req.headers["content-type"], agent: req.headers["user-agent"], body });
      res.statusCode = status;
      res.end("ok");
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { received, notify: `http://127.0.0.1:${server.address().port}/hooks/svc?tenant=acme`, close: () => new Promise((r) => server.close(r)) };
}

/** Watches Deals.edit at `notify` and fires an edit of a deal through `fetch` at `url`: the trigger's answer. */
async function fireDealEdit(url, fetch, notify) {
  const client = new Client({ accessToken: "dev-token", organizationId: "10234695", apiDomain: url, fetch, maxRetries: 0 });
  await client.updateNotificationChannels({ watch: [{ channel_id: "1000000068001", events: ["Deals.edit"], notify_url: notify, token: "chan-secret-1" }] });
  const records = [{ id: "5000000000000000001", values: { Stage: "Won" } }];
  const res = await fetch(`${url}/__sandbox/crm/Deals/edit`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ records }) });
  return { status: res.status, body: (await res.text()).replaceAll(url, "<origin>") };
}

const masked = (text) => text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:?\d\d/g, "<time>").replace(/"(channel_expiry|server_time)":"?\d+"?/g, '"$1":0');

test("callbacks go through the user's callbackFetch with the binary's body and headers, and are still recorded", async () => {
  const hooks = await receiver(202);
  try {
    const binary = await startSandbox();
    const binaryUrl = binary.url;
    let overLoopbackAnswer;
    try {
      overLoopbackAnswer = await fireDealEdit(binary.url, fetch, hooks.notify);
    } finally {
      await binary.close();
    }
    const posted = [];
    const callbackFetch = (input, init) => {
      posted.push(new Request(input, init).url);
      return fetch(input, init);
    };
    const sandbox = new Sandbox({ callbackFetch });
    const inProcessAnswer = await fireDealEdit(sandbox.url, sandbox.fetch, hooks.notify);
    assert.deepEqual(posted, [hooks.notify]);
    assert.equal(hooks.received.length, 2, JSON.stringify(hooks.received));
    const [fromBinary, fromProcess] = hooks.received.map((r, i) => ({ ...r, body: masked(r.body.replaceAll([binaryUrl, sandbox.url][i], "<origin>")) }));
    assert.deepEqual(fromProcess, fromBinary);
    assert.deepEqual({ ...fromProcess, body: undefined }, { method: "POST", url: "/hooks/svc?tenant=acme", type: "application/json", agent: "svc-sandbox", body: undefined });
    assert.deepEqual(inProcessAnswer, overLoopbackAnswer);
    assert.equal(JSON.parse(inProcessAnswer.body).deliveries[0].status, 202);
    assert.deepEqual(sandbox.callbacks().map((c) => [c.channelId, c.notifyUrl, JSON.stringify(c.body)]), [["1000000068001", hooks.notify, hooks.received[1].body]]);
  } finally {
    await hooks.close();
  }
});

test("without callbackFetch, callbacks are recorded only, and the trigger reports them delivered", async () => {
  const sandbox = new Sandbox();
  const answer = await fireDealEdit(sandbox.url, sandbox.fetch, "http://127.0.0.1:9/hooks");
  assert.equal(JSON.parse(answer.body).deliveries[0].status, 200);
  assert.equal(sandbox.callbacks().length, 1);
});

test("a callbackFetch that fails, throws at once, gives no Response or never answers is a failed delivery, and the callback is still recorded", async () => {
  const signals = [];
  const odd = [
    [async () => { throw new TypeError("refused"); }, "delivery failed: refused"],
    [() => { throw new Error("not now"); }, "delivery failed: not now"],
    [async () => undefined, "delivery failed: callbackFetch did not give a Response"],
    // Never answers, and ignores its signal: the binary's 5 s delivery timeout ends the wait.
    [(url, init) => (signals.push(init.signal), new Promise(() => {})), "delivery failed: no answer within 5000 ms"],
  ];
  for (const [callbackFetch, error] of odd) {
    const sandbox = new Sandbox({ callbackFetch });
    const answer = JSON.parse((await fireDealEdit(sandbox.url, sandbox.fetch, "http://127.0.0.1:9/hooks")).body);
    assert.deepEqual(answer.deliveries, [{ channel_id: "1000000068001", notify_url: "http://127.0.0.1:9/hooks", status: null, delivered: false, error }]);
    assert.equal(sandbox.callbacks().length, 1);
  }
  assert.ok(signals[0] instanceof AbortSignal && signals[0].aborted, "the post's signal is aborted at the timeout");
});

test("the same scenario against the binary gives the same status, Retry-After and body, request by request", async () => {
  const { log } = await inProcess();
  assert.ok(log.length >= 15 && log.some((r) => r.status === 429 && r.retryAfter === "1"), JSON.stringify(log.map((r) => r.status)));
  assert.deepEqual(log, await overLoopback());
});

test("in Deno with no permission, the in-process sandbox answers the scenario as the binary does", { timeout: 60_000 }, async () => {
  const dir = h.installRuntime(consumer, "testing");
  const run = await h.runChild(h.bin("deno"), ["run", "deno.mjs"], {
    cwd: dir,
    env: h.toolEnv({ DENO_DIR: path.join(consumer, ".deno"), DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1" }),
    timeoutMs: 45_000,
    label: "deno",
  });
  assert.equal(run.code, 0, run.output);
  const report = JSON.parse(run.stdout.trim().split("\n").at(-1));
  assert.equal(report.resolved, pathToFileURL(path.join(consumer, "node_modules/svc-sdk/pkg/testing/deno.js")).href);
  assert.deepEqual(report.log, await overLoopback());
});

test("in workerd (wrangler dev), the in-process sandbox answers the scenario as the binary does", { timeout: 90_000 }, async () => {
  const dir = h.installRuntime(consumer, "testing");
  const wrangler = await h.startWranglerDev(dir, "/ready", 60_000);
  try {
    const res = await fetch(`${wrangler.url}/scenario`, { signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    assert.equal(res.status, 200, `${text}\n${wrangler.child.output()}`);
    const report = JSON.parse(text);
    assert.equal(report.userAgent, "Cloudflare-Workers");
    assert.deepEqual(report.log, await overLoopback());
  } finally {
    await wrangler.child.stop();
  }
});

test("in Chromium (Vite build), the in-process sandbox answers the scenario as the binary does", { timeout: 120_000 }, async () => {
  const dir = h.installRuntime(consumer, "testing");
  const dist = path.join(path.dirname(dir), "dist");
  await h.viteBuild(dir, dist, { cwd: consumer });
  const site = await h.serveStatic(dist, () => false);
  const browser = await launchChromium(h.ensureDir(path.join(path.dirname(dir), ".state")));
  try {
    const page = await browser.newPage();
    const requests = [];
    page.on("request", (r) => requests.push(new URL(r.url()).pathname));
    await page.goto(`http://127.0.0.1:${site.address().port}/`, { timeout: 20_000 });
    await page.waitForSelector("body[data-status]", { timeout: 30_000 });
    const report = JSON.parse(await page.textContent("#result"));
    assert.equal(report.error, undefined, report.error);
    assert.match(report.userAgent, /Chrome\//);
    assert.ok(requests.every((p) => !p.includes("/books/")), "no call left the page");
    assert.deepEqual(report.log, await overLoopback());
  } finally {
    await h.withTimeout(browser.close(), 10_000, "closing Chromium").catch(() => {});
    await h.closeServer(site);
  }
});
