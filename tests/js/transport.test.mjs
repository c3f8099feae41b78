// The transport against the sandbox: the limiter's cap under 1000 concurrent calls, retries under
// injected faults without a duplicated POST, Retry-After, timeouts and aborts that leave nothing
// running, single-flight token refresh, pagination and the server's rate-limit headers.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { Client, SvcError } from "svc-sdk";
import { startSandbox } from "./support/sandbox.mjs";
import { startRecordingServer } from "./support/recording-server.mjs";

const ORG = "10234695";
const PROJECT = "460000000050015";
const started = [];
async function sandbox(args) {
  const s = await startSandbox(args);
  started.push(s);
  return s;
}
after(() => Promise.all(started.map((s) => s.close())));

test("1000 concurrent calls: never more in flight than the cap, none lost, none twice, no 429", async () => {
  const s = await sandbox(["--plan", "free", "--rate-per-minute", "1000000", "--daily-quota", "1000000"]);
  const client = new Client({ accessToken: "dev-token", organizationId: ORG, apiDomain: s.url, plan: "premium", rateLimit: { requestsPerMinute: 1_000_000, maxConcurrent: 5 } });
  const task = await client.createTask(PROJECT, { task_name: "Load" });
  await s.resetCounters();
  const calls = [];
  for (let i = 0; i < 1000; i++) {
    if (i % 10 < 6) calls.push(client.getTask(PROJECT, task.task_id));
    else if (i % 10 < 8) calls.push(client.createTask(PROJECT, { task_name: `T${i}` }));
    else calls.push(client.updateTask(PROJECT, task.task_id, { task_name: `U${i}` }));
  }
  const results = await Promise.allSettled(calls);
  const failed = results.filter((r) => r.status === "rejected");
  assert.deepEqual(failed.map((f) => `${f.reason.kind}: ${f.reason.message}`), []);
  const c = await s.counters();
  assert.ok(c.peak_in_flight[ORG] <= 5, `peak in flight ${c.peak_in_flight[ORG]}`);
  assert.equal(c.operations.getTask.received, 600);
  assert.equal(c.operations.createTask.received, 200);
  assert.equal(c.operations.createTask.applied, 200);
  assert.equal(c.operations.updateTask.received, 200);
  assert.equal(c.methods.GET.statuses["429"] ?? 0, 0);
  assert.equal(c.methods.POST.statuses["429"] ?? 0, 0);
  assert.equal(client.rateLimitState().inFlight, 0);
});

test("10% injected faults: every GET, PUT and DELETE succeeds; no POST is sent twice", async () => {
  const s = await sandbox(["--no-rate-limit", "--faults", "500=0.03,503=0.02,429=0.02,drop=0.02,slow=0.01", "--slow-ms", "300", "--seed", "20261122"]);
  const client = new Client({ accessToken: "dev-token", organizationId: ORG, apiDomain: s.url, maxRetries: 8, rateLimit: false });
  const seed = new Client({ accessToken: "dev-token", organizationId: ORG, apiDomain: s.url, maxRetries: 20, rateLimit: false });
  const tasks = [];
  while (tasks.length < 60) {
    try {
      tasks.push(await seed.createTask(PROJECT, { task_name: `seed ${tasks.length}` }));
    } catch (e) {
      assert.ok(e instanceof SvcError);
    }
  }
  await s.resetCounters();
  const idempotent = [];
  for (let i = 0; i < 150; i++) idempotent.push(client.getTask(PROJECT, tasks[i % 50].task_id));
  for (let i = 0; i < 50; i++) idempotent.push(client.updateTask(PROJECT, tasks[i].task_id, { task_name: `u${i}` }));
  for (let i = 50; i < 60; i++) idempotent.push(client.deleteTask(PROJECT, tasks[i].task_id));
  const posts = [];
  for (let i = 0; i < 100; i++) posts.push(client.createTask(PROJECT, { task_name: `p${i}` }));
  const settledPosts = Promise.allSettled(posts);
  const idem = await Promise.allSettled(idempotent);
  const bad = idem.filter((r) => r.status === "rejected").map((r) => `${r.reason.kind} ${r.reason.status}: ${r.reason.message}`);
  assert.deepEqual(bad, [], "every GET, PUT and DELETE succeeds");
  const postResults = await settledPosts;
  for (const r of postResults.filter((x) => x.status === "rejected")) {
    assert.ok(r.reason instanceof SvcError, String(r.reason));
    assert.ok(["api", "network"].includes(r.reason.kind), `${r.reason.kind}: ${r.reason.message}`);
  }
  const c = await s.counters();
  const create = c.operations.createTask;
  const refused429 = create.statuses["429"] ?? 0;
  assert.equal(create.received - refused429, 100, "each POST call reached the server once, apart from 429s it did not act on");
  const ok = postResults.filter((r) => r.status === "fulfilled").length;
  const dropped = create.statuses.dropped ?? 0;
  assert.equal(create.applied, ok + dropped, "applied = answered + dropped after applying; nothing applied twice");
  assert.ok(Object.keys(c.faults).length >= 3, JSON.stringify(c.faults));
});

test("Retry-After is waited for, in seconds or as an HTTP date", async () => {
  const server = await startRecordingServer();
  try {
    const client = new Client({ accessToken: "tok-1234", organizationId: ORG, apiDomain: server.url });
    const ok = { status: 200, body: { code: 0, message: "ok", plans: [] } };
    server.reply({ status: 429, headers: { "retry-after": "1" }, body: { code: 1429, message: "slow down" } }, ok);
    let t0 = Date.now();
    await client.listPlans();
    assert.ok(Date.now() - t0 >= 950, `waited ${Date.now() - t0} ms`);
    const date = new Date(Date.now() + 2000).toUTCString();
    server.reply({ status: 429, headers: { "retry-after": date }, body: { code: 1429, message: "slow down" } }, ok);
    t0 = Date.now();
    await client.listPlans();
    assert.ok(Date.now() - t0 >= 900, `waited ${Date.now() - t0} ms for ${date}`);
    server.reply({ status: 429, headers: { "retry-after": "3600" }, body: { code: 1429, message: "come back later" } });
    await assert.rejects(client.listPlans(), (e) => e instanceof SvcError && e.kind === "rate_limited" && e.retryAfterMs === 3_600_000);
  } finally {
    await server.close();
  }
});

/** Runs a script in a fresh Node process inside the consumer project; resolves with its output and run time. */
function runNode(source) {
  const file = path.join(process.cwd(), `child-${Date.now()}-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, source);
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [file], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (out += c));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the process did not exit by itself:\n${out}`));
    }, 15_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, out, ms: Date.now() - t0 });
    });
  });
}

test("a timeout and an abort reject with their kind and leave nothing running", async () => {
  const s = await sandbox(["--no-rate-limit", "--faults", "slow=1", "--slow-ms", "8000"]);
  const r = await runNode(`
    import { Client } from "svc-sdk";
    const c = new Client({ accessToken: "dev-token", organizationId: "${ORG}", apiDomain: "${s.url}", maxRetries: 0 });
    const t0 = Date.now();
    try { await c.listPlans({}, { timeoutMs: 200 }); } catch (e) { console.log("timeout:", e.kind, Date.now() - t0); }
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    try { await c.listPlans({}, { signal: ac.signal }); } catch (e) { console.log("abort:", e.kind); }
  `);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /timeout: timeout \d+/);
  assert.match(r.out, /abort: aborted/);
  assert.ok(r.ms < 5000, `the process took ${r.ms} ms to exit: a timer kept it alive`);
});

test("concurrent 401s share one token refresh", async () => {
  const server = await startRecordingServer();
  try {
    let calls = 0;
    const client = new Client({
      accessToken: async () => {
        calls += 1;
        await new Promise((r) => setTimeout(r, 20));
        return calls === 1 ? "stale-token" : "fresh-token";
      },
      organizationId: ORG,
      apiDomain: server.url,
    });
    server.handle((req) =>
      req.headers.authorization === "Svc-oauthtoken fresh-token"
        ? { status: 200, body: { code: 0, message: "ok", plans: [] } }
        : { status: 401, body: { code: 14, message: "Invalid OAuth token" } },
    );
    await Promise.all([1, 2, 3, 4, 5].map(() => client.listPlans()));
    assert.equal(calls, 2, "one token for the five calls, then one refresh shared by all");
    assert.equal(server.requests.filter((r) => r.headers.authorization === "Svc-oauthtoken fresh-token").length, 5);
  } finally {
    await server.close();
  }
});

test("pages: iteration asks for the next page only when needed, keeping per_page and filters", async () => {
  const s = await sandbox(["--no-rate-limit"]);
  const client = new Client({ accessToken: "dev-token", organizationId: ORG, apiDomain: s.url });
  for (let i = 0; i < 7; i++) await client.createTask(PROJECT, { task_name: `page ${i}` });
  const everything = (await client.listTasks(PROJECT, { per_page: 200 })).items.length;
  await s.resetCounters();
  const page = await client.listTasks(PROJECT, { per_page: 3 });
  assert.equal(page.items.length, 3);
  assert.equal(page.page_context.has_more_page, true);
  const firstFour = [];
  for await (const t of page) {
    firstFour.push(t);
    if (firstFour.length === 4) break;
  }
  assert.equal((await s.counters()).operations.listTasks.received, 2, "one more page, only when needed");
  const all = [];
  for await (const t of page) all.push(t.task_id);
  assert.equal(all.length, everything);
  assert.equal(new Set(all).size, everything, "no item twice");
  const assets = await client.listFixedAssetTypes({ per_page: 1 });
  const seen = [];
  for await (const t of assets) seen.push(t.fixed_asset_type_name);
  assert.ok(seen.length >= 2);
});

test("the server's X-Rate-Limit headers are the organization's day: adopted over the plan's and reported; the minute stays the plan's", async () => {
  const s = await sandbox(["--rate-per-minute", "50", "--daily-quota", "7500", "--others-spent", "700"]);
  const records = [];
  const logger = { debug() {}, info() {}, warn: (r) => records.push(r), error() {} };
  const client = new Client({ accessToken: "dev-token", organizationId: ORG, apiDomain: s.url, logger });
  await client.listPlans();
  await client.listPlans();
  const state = client.rateLimitState();
  assert.equal(state.dailyQuota, 7500);
  assert.equal(state.planDailyQuota, 1000);
  assert.equal(state.remainingToday, 7500 - 700 - 2);
  const midnight = (Math.floor(Date.now() / 86_400_000) + 1) * 86_400_000;
  assert.ok(Math.abs(state.resetAt - midnight) < 5_000, `${state.resetAt} vs ${midnight}`);
  assert.equal(state.requestsPerMinute, 100, "the plan's minute, not the service's day");
  assert.equal(state.remainingThisMinute, 98);
  assert.equal(state.maxConcurrent, 5);
  assert.equal(state.serverLimit, undefined);
  const told = records.filter((r) => r.event === "day_stated");
  assert.equal(told.length, 1, JSON.stringify(records));
  assert.match(told[0].message, /states a day of 7500 requests/);
});

test("the daily quota of the plan ends in a clear rate_limited error", async () => {
  const s = await sandbox(["--no-rate-limit"]);
  const client = new Client({ accessToken: "dev-token", organizationId: ORG, apiDomain: s.url, rateLimit: { requestsPerMinute: 100000 } });
  const calls = [];
  for (let i = 0; i < 1001; i++) calls.push(client.listPlans().then(() => "ok", (e) => e));
  const results = await Promise.all(calls);
  assert.equal(results.filter((r) => r === "ok").length, 1000);
  const spent = results.find((r) => r !== "ok");
  assert.ok(spent instanceof SvcError);
  assert.equal(spent.kind, "rate_limited");
  assert.match(spent.message, /day of 1000 requests is spent/);
});
