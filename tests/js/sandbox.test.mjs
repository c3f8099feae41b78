// Every operation through the installed package against the sandbox over loopback HTTP: state round
// trips, the documented error codes, scopes, 429s with Retry-After, and callback delivery.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Client, SvcError, operations, parseEvent, parseWatchNotification, validate } from "svc-sdk";
import { startSandbox } from "./support/sandbox.mjs";

const ORG = "10234695";
const CUSTOMER = "460000000044001";
const USER = "460000000024003";
let sandbox;
let client;
const covered = new Set();

/** A client whose every operation call is recorded, to prove that every row of the table was called. */
function recording(c) {
  return new Proxy(c, {
    get(target, prop) {
      const v = target[prop];
      if (typeof v !== "function") return v;
      return (...args) => {
        if (operations().some((o) => o.id === prop)) covered.add(prop);
        return v.apply(target, args);
      };
    },
  });
}

before(async () => {
  sandbox = await startSandbox(["--token", "readonly=SvcBooks.fixedasset.READ", "--no-rate-limit"]);
  client = recording(new Client({ accessToken: "dev-token", organizationId: ORG, apiDomain: sandbox.url }));
});
after(() => sandbox.close());

const kind = (k, extra = () => true) => (e) => {
  assert.ok(e instanceof SvcError, `not an SvcError: ${e}`);
  assert.equal(e.kind, k, e.message);
  return extra(e) !== false;
};
const all = async (page) => {
  const out = [];
  for await (const x of page) out.push(x);
  return out;
};

test("organizations: list, create, update", async () => {
  const orgs = (await client.listOrganizations()).items;
  assert.ok(orgs.some((o) => o.organization_id === ORG));
  const created = await client.createOrganization({ name: "Zillium", currency_code: "EUR", time_zone: "Europe/Berlin", portal_name: "zillium2024" });
  assert.equal(typeof created.organization_id, "string");
  const updated = await client.updateOrganization(created.organization_id, { name: "Zillium GmbH" });
  assert.equal(updated.name, "Zillium GmbH");
  assert.ok((await client.listOrganizations()).items.some((o) => o.organization_id === created.organization_id));
});

test("chart of accounts: create, get (fields at the top level), update, list", async () => {
  const a = await client.createAccount({ account_name: "Petty Cash 2", account_type: "cash", description: "drawer" });
  const got = await client.getAccount(a.account_id);
  assert.equal(got.account_name, "Petty Cash 2");
  await client.updateAccount(a.account_id, { account_name: "Petty Cash B", account_type: "cash" });
  const names = (await all(await client.listAccounts({ per_page: 3 }))).map((x) => x.account_name);
  assert.ok(names.includes("Petty Cash B"), names.join());
  await client.createJournal({
    journal_date: "2024-01-31",
    line_items: [
      { account_id: a.account_id, debit_or_credit: "debit", amount: 10 },
      { account_id: a.account_id, debit_or_credit: "credit", amount: 10 },
    ],
  });
});

test("fixed assets and their types: a create is visible to list, an update changes it, a delete removes it", async () => {
  const types = (await client.listFixedAssetTypes()).items;
  const type = await client.createFixedAssetType({ fixed_asset_type_name: "Vehicles", depreciation_method: "straight_line", depreciation_frequency: "monthly" });
  const full = { fixed_asset_type_name: "Vans", expense_account_id: types[0].expense_account_id, depreciation_account_id: types[0].depreciation_account_id, depreciation_method: "declining_method", depreciation_frequency: "yearly", depreciation_percentage: 20, total_life: 48, salvage_value: 0, computation_type: "no_prorata" };
  assert.equal((await client.updateFixedAssetType(type.fixed_asset_type_id, full)).fixed_asset_type_name, "Vans");
  const asset = await client.createFixedAsset({ asset_name: "Laptop", fixed_asset_type_id: types[0].fixed_asset_type_id, asset_account_id: types[0].expense_account_id, asset_cost: 1000, asset_purchase_date: "2024-12-17" });
  await client.updateFixedAsset(asset.fixed_asset_id, { asset_name: "Laptop Pro", fixed_asset_type_id: types[0].fixed_asset_type_id, asset_account_id: types[0].expense_account_id, asset_cost: 1200, asset_purchase_date: "2024-12-17" });
  const listed = await all(await client.listFixedAssets({ per_page: 1, sort_column: "asset_name", sort_order: "A" }));
  assert.ok(listed.some((x) => x.fixed_asset_id === asset.fixed_asset_id && x.asset_name === "Laptop Pro"));
  await client.deleteFixedAssetType(type.fixed_asset_type_id);
  assert.ok(!(await client.listFixedAssetTypes()).items.some((t) => t.fixed_asset_type_id === type.fixed_asset_type_id));
});

test("expenses: ids beyond 2^53, receipt as a Blob, attachments, upsert by unique field", async () => {
  const accounts = (await client.listAccounts()).items;
  const e = await client.createExpense({ account_id: accounts[0].account_id, date: "2024-01-02", amount: 112.5, customer_id: CUSTOMER });
  assert.match(e.expense_id, /^\d{16,}$/);
  assert.ok(BigInt(e.expense_id) > 2n ** 53n, "ids beyond 2^53 arrive whole");
  const receipt = await client.getExpenseReceipt(e.expense_id);
  assert.ok(receipt instanceof Blob);
  assert.equal(receipt.type, "application/pdf");
  const attached = await client.addExpenseAttachment(e.expense_id, { files: [new File(["%PDF-1.4"], "a.pdf"), { name: "b.csv", data: "x,y" }] });
  assert.ok(Array.isArray(attached));
  await client.deleteExpenseReceipt(e.expense_id);
  await assert.rejects(client.getExpenseReceipt(e.expense_id), kind("api", (x) => x.status === 404));
  await client.addExpenseReceipt(e.expense_id, { receipt: { name: "scan.png", data: new Uint8Array([137, 80, 78, 71]) } });
  assert.equal((await client.getExpenseReceipt(e.expense_id)).type, "image/png");
  assert.equal((await client.updateExpense(e.expense_id, { description: "Taxi" })).description, "Taxi");
  const up = await client.updateExpenseByUniqueField({ x_unique_identifier_key: "cf_ref", x_unique_identifier_value: "INV-7", x_upsert: true, account_id: accounts[0].account_id, date: "2024-01-03", amount: 5 });
  assert.match(up.expense_id, /^\d+$/);
  await assert.rejects(client.addExpenseAttachment(e.expense_id, { files: [{ name: "virus.exe", data: "MZ" }] }), kind("validation"));
});

test("vendor credits and refunds: create, get, update, list, delete", async () => {
  const accounts = (await client.listAccounts()).items;
  const vc = await client.createVendorCredit({ vendor_id: "460000000020029", date: "2024-01-02", line_items: [{ account_id: accounts[0].account_id, name: "Returned chairs", rate: 50, quantity: 2 }] });
  const r = await client.createVendorCreditRefund(vc.vendor_credit_id, { date: "2024-01-05", amount: 20, account_id: accounts[0].account_id });
  const got = await client.getVendorCreditRefund(vc.vendor_credit_id, r.vendor_credit_refund_id);
  assert.equal(got.amount, 20);
  await client.updateVendorCreditRefund(vc.vendor_credit_id, r.vendor_credit_refund_id, { date: "2024-01-05", amount: 25, account_id: accounts[0].account_id });
  assert.equal((await client.listVendorCreditRefunds(vc.vendor_credit_id)).items[0].amount, 25);
  assert.ok((await client.listAllVendorCreditRefunds()).items.length >= 1);
  const open = (await client.listVendorCredits({ status: "open" })).items;
  assert.ok(open.some((x) => x.vendor_credit_id === vc.vendor_credit_id), "the new credit is listed as open");
  assert.deepEqual(open.filter((x) => x.status !== "open"), [], "the status filter keeps open credits only");
  assert.deepEqual((await client.listVendorCredits({ status: "void" })).items.filter((x) => x.vendor_credit_id === vc.vendor_credit_id), []);
  await client.deleteVendorCreditRefund(vc.vendor_credit_id, r.vendor_credit_refund_id);
  await assert.rejects(client.getVendorCreditRefund(vc.vendor_credit_id, r.vendor_credit_refund_id), kind("api", (x) => x.code === 1002));
});

test("packages: salesorder_id in the query, the packagea list, ids beyond 2^53", async () => {
  const p = await client.createPackage({ salesorder_id: "460000000039129", date: "2024-01-02", line_items: [{ so_line_item_id: "460000000039131", quantity: 2 }] });
  assert.ok(BigInt(p.package_id) > 2n ** 53n);
  assert.equal((await client.getPackage(p.package_id)).package_id, p.package_id);
  await client.updatePackage(p.package_id, { notes: "fragile" });
  const listed = await client.listPackages();
  assert.ok(listed.items.some((x) => x.package_id === p.package_id && x.notes === "fragile"));
});

test("composite items: create, update, image upload, list", async () => {
  const item = await client.createCompositeItem({ name: "Kit", mapped_items: [{ item_id: "460000000020071", quantity: 2 }], rate: 30 });
  await client.updateCompositeItem(item.composite_item_id, { name: "Kit Deluxe" });
  await client.uploadCompositeItemImage(item.composite_item_id, { image: { name: "kit.png", data: new Uint8Array([137, 80, 78, 71]) } });
  const listed = (await client.listCompositeItems()).items.find((x) => x.composite_item_id === item.composite_item_id);
  assert.equal(listed.name, "Kit Deluxe");
});

test("currencies: create (one-element array), get, update, list, delete", async () => {
  const c = await client.createCurrency({ currency_code: "JPY", currency_symbol: "¥", price_precision: 0 });
  assert.equal((await client.getCurrency(c.currency_id)).currency_code, "JPY");
  await client.updateCurrency(c.currency_id, { currency_symbol: "円" });
  assert.ok((await client.listCurrencies()).items.some((x) => x.currency_id === c.currency_id && x.currency_symbol === "円"));
  await client.deleteCurrency(c.currency_id);
  await assert.rejects(client.getCurrency(c.currency_id), kind("api", (x) => x.code === 1002));
});

test("projects: create, update, comments, invoices, users, and billing tasks under them", async () => {
  const p = await client.createProject({ project_name: "Atlas", customer_id: CUSTOMER, billing_type: "based_on_task_hours", user_id: USER, rate: "40" });
  await client.updateProject(p.project_id, { project_name: "Atlas 2", customer_id: CUSTOMER, billing_type: "based_on_project_hours", user_id: USER });
  assert.ok((await client.listProjects({ filter_by: "Status.All", customer_id: CUSTOMER })).items.some((x) => x.project_name === "Atlas 2"));
  const comments = await client.addProjectComment(p.project_id, { description: "kick-off" });
  const listed = (await client.listProjectComments(p.project_id)).items;
  assert.equal(listed[0].description, "kick-off");
  await client.deleteProjectComment(p.project_id, comments[0].comment_id);
  assert.equal((await client.listProjectComments(p.project_id)).items.length, 0);
  assert.ok(Array.isArray((await client.listProjectInvoices(p.project_id, { sort_column: "date" })).items));
  const t = await client.createTask(p.project_id, { task_name: "Design", rate: 30 });
  assert.equal((await client.getTask(p.project_id, t.task_id)).task_name, "Design");
  await client.updateTask(p.project_id, t.task_id, { task_name: "Design review" });
  assert.ok((await client.listTasks(p.project_id)).items.some((x) => x.task_name === "Design review"));
  await client.deleteTask(p.project_id, t.task_id);
  await assert.rejects(client.getTask(p.project_id, t.task_id), kind("api", (x) => x.code === 1002));
  await client.removeProjectUser(p.project_id, USER);
});

test("recurring invoices and the documented codes 4031, 20004, 20077 and currency in use", async () => {
  const ri = await client.createRecurringInvoice({ recurrence_name: "Monthly retainer", customer_id: CUSTOMER, recurrence_frequency: "months", line_items: [{ name: "Retainer", rate: 100, quantity: 1 }] });
  assert.equal(typeof ri.recurring_invoice_id, "string");
  await assert.rejects(
    client.request("POST", "invoice", "/recurringinvoices", { body: { customer_id: CUSTOMER, recurrence_frequency: "months" } }),
    kind("api", (e) => e.code === 4031 && e.status === 400),
  );
  await assert.rejects(
    client.createProject({ project_name: "Neg", customer_id: CUSTOMER, billing_type: "fixed_cost_for_project", user_id: USER, rate: "-5" }),
    kind("api", (e) => e.code === 20004),
  );
  const p = await client.createProject({ project_name: "Spent", customer_id: CUSTOMER, billing_type: "fixed_cost_for_project", user_id: USER });
  const eur = (await client.listCurrencies()).items.find((c) => c.currency_code === "EUR");
  const accounts = (await client.listAccounts()).items;
  await client.createExpense({ account_id: accounts[0].account_id, date: "2024-02-01", amount: 9, project_id: p.project_id, currency_id: eur.currency_id });
  await assert.rejects(client.request("DELETE", "invoice", `/projects/${p.project_id}`), kind("api", (e) => e.code === 20077));
  await assert.rejects(client.deleteCurrency(eur.currency_id), kind("api", (e) => e.status === 400 && /used|base/.test(e.message)));
});

test("plans and their events", async () => {
  const plan = await client.createPlan({ plan_code: "team", name: "Team", recurring_price: 20, interval: 1, interval_unit: "months" });
  await client.updatePlan(plan.plan_code, { name: "Team", recurring_price: 25 });
  assert.ok((await client.listPlans({ filter_by: "PlanStatus.ACTIVE" })).items.some((x) => x.plan_code === "team"));
  const events = await all(await client.listEvents({ per_page: 2 }));
  assert.ok(events.length >= 2, "events of the plans were recorded");
  const one = await client.getEvent(events[events.length - 1].event_id);
  assert.equal(one.event_id, events[events.length - 1].event_id);
  const raw = await client.request("GET", "billing", `/events/${one.event_id}`);
  assert.equal(parseEvent(JSON.stringify(raw), { skipVerification: true }).event_type, one.event_type);
});

test("notification channels: the sandbox posts the documented callback to a loopback receiver", async () => {
  const received = [];
  const receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ url: req.url, body });
      res.end("ok");
    });
  });
  await new Promise((r) => receiver.listen(0, "127.0.0.1", r));
  try {
    const notify = `http://127.0.0.1:${receiver.address().port}/hooks/svc?tenant=acme`;
    const watch = await client.updateNotificationChannels({
      watch: [{ channel_id: "1000000068001", events: ["Deals.edit"], notify_url: notify, token: "chan-secret-1" }],
    });
    assert.equal(watch[0].status, "success");
    const fired = await sandbox.crm("Deals", "edit", [{ id: "5000000000000000001", values: { Stage: "Won" } }]);
    assert.ok(JSON.stringify(fired).includes("200"), JSON.stringify(fired));
    assert.equal(received.length, 1);
    const n = parseWatchNotification(received[0].body, { token: "chan-secret-1" });
    assert.equal(n.module, "Deals");
    assert.equal(n.channel_id, "1000000068001");
    assert.deepEqual(n.ids, ["5000000000000000001"]);
    assert.equal(n.query_params.tenant, "acme");
    assert.throws(() => parseWatchNotification(received[0].body, { token: "chan-secret-2" }), kind("verification"));
  } finally {
    receiver.close();
  }
});

/** The vendor's examples (tests/fixtures/vendor), each standing for the row of its family, method and path. */
/** The generated rows' sample calls (`cargo run -p xtask -- operations`). */
const published = JSON.parse(readFileSync(path.join(process.env.SVC_ROOT, "tests/fixtures/published/examples.json"), "utf8"));

function vendorExample(op) {
  const dir = path.join(process.env.SVC_ROOT, "tests/fixtures/vendor");
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".json"))) {
    const family = name.split("__")[0].split("-as-").pop();
    const file = JSON.parse(readFileSync(path.join(dir, name), "utf8"));
    if (family === op.family && file.method === op.method && file.path === op.path) return file;
  }
  return undefined;
}

/** The vendor's params without the type placeholders (`"string"` for a value set) that the rules refuse. */
function withoutPlaceholders(op, params, example) {
  const placeholders = new Set(example?.type_placeholders_used?.request ?? []);
  const result = validate(op.id, params);
  for (const issue of result.ok ? [] : result.issues) {
    const at = "$" + issue.path.map((k) => (typeof k === "number" ? "[]" : `.${k}`)).join("");
    const parent = issue.path.slice(0, -1).reduce((o, k) => o?.[k], params);
    if (placeholders.has(at) && parent) delete parent[issue.path.at(-1)];
  }
  return params;
}

/** The first value of `key` in a reply, at any depth. */
function deepFind(v, key) {
  if (v === null || typeof v !== "object") return undefined;
  if (v[key] !== undefined) return v[key];
  for (const x of Object.values(v)) {
    const found = deepFind(x, key);
    if (found !== undefined) return found;
  }
  return undefined;
}

test("every row of the table is served by the sandbox: the rows no scenario above calls get their vendor example, on records the sandbox holds", async () => {
  // No limiter: the look-ups of held records add calls to the rows'.
  const unlimited = new Client({ accessToken: "dev-token", organizationId: ORG, apiDomain: sandbox.url, rateLimit: false });
  const calls = recording(unlimited);
  /** Calls `op` on `path` with its vendor example: { value } when it answers, else the error. */
  const call = async (op, path) => {
    const example = vendorExample(op);
    const params = { ...((["POST", "PUT", "PATCH"].includes(op.method) ? example?.request_body : undefined) ?? published[op.id]?.params ?? {}) };
    for (const [header, value] of Object.entries(example?.request_headers_example ?? {})) params[header.toLowerCase().replaceAll("-", "_")] = value;
    const attempt = (p) => calls[op.id](...path, p).then((value) => ({ value }), (e) => e);
    let outcome = await attempt(withoutPlaceholders(op, params, example));
    // An upload's example shows no file: send a small one, as a list or alone, where the rules ask for it.
    const file = () => new File([new Uint8Array([137, 80, 78, 71])], "x.png", { type: "image/png" });
    for (const upload of [() => [file()], file]) {
      const needs = outcome instanceof SvcError && outcome.kind === "validation" ? outcome.issues.find((i) => /file/.test(i.message)) : undefined;
      if (needs) outcome = await attempt({ ...params, [needs.path[0]]: upload() });
    }
    return outcome;
  };
  const exampleIds = (op) => op.pathParams.map((p, i) => String(vendorExample(op)?.path_params_example?.[p] ?? published[op.id]?.path[i] ?? "1"));
  /**
   * Path values naming records the sandbox holds: each id of the path is the last record its
   * collection's list row gives or, with no list row, the record its create row makes (the
   * organization's is ORG).
   */
  const heldIds = async (op) => {
    const held = exampleIds(op);
    for (const [i, p] of op.pathParams.entries()) {
      if (p === "organization_id") {
        held[i] = ORG;
        continue;
      }
      const collection = op.path.slice(0, op.path.indexOf(`/{${p}}`));
      const row = (method) => operations().find((o) => o.family === op.family && o.method === method && o.path === collection);
      const list = row("GET");
      const create = row("POST");
      const id = list
        ? await unlimited[list.id](...held.slice(0, i)).then((page) => [page.items ?? page].flat().findLast((x) => x?.[p] !== undefined)?.[p], () => undefined)
        : create && deepFind((await call(create, held.slice(0, i))).value, p);
      if (id !== undefined) held[i] = String(id);
    }
    return held;
  };
  // The example's ids name records of the vendor's account: a row they name none for (1002, "does
  // not exist") is called again on records the sandbox holds, deletes last and the deepest first, so
  // that what the other rows act on is still there. A 1002 is no answer.
  const again = [];
  // The rows generated from the OpenAPI documents: tests/js/published-rows.test.mjs and the sandbox's
  // crates/sandbox/tests/api/every_row.rs (each on the records its path names).
  for (const op of operations().filter((o) => !covered.has(o.id) && o.source !== "published")) {
    const outcome = await call(op, exampleIds(op));
    if (outcome instanceof SvcError && outcome.code === 1002) again.push(op);
    else assert.ok("value" in outcome, `${op.id}: ${outcome}`);
  }
  const last = (o) => (o.method === "DELETE" ? 100 - o.pathParams.length : 0);
  const notServed = [];
  for (const op of again.sort((a, b) => last(a) - last(b))) {
    const outcome = await call(op, await heldIds(op));
    if (!("value" in outcome)) notServed.push(`${op.id}: ${outcome.kind} ${outcome.status} ${outcome.code} ${outcome.message}`);
  }
  assert.deepEqual(notServed, [], "rows not served");
  const missing = operations().filter((o) => o.source !== "published").map((o) => o.id).filter((id) => !covered.has(id));
  assert.deepEqual(missing, []);
});

test("errors: bad token 401, missing scope 401 naming it, unknown path 404, wrong method 405", async () => {
  const bad = new Client({ accessToken: "nope-not-a-token", organizationId: ORG, apiDomain: sandbox.url });
  await assert.rejects(bad.listFixedAssets(), kind("unauthorized", (e) => e.status === 401));
  const ro = new Client({ accessToken: "readonly", organizationId: ORG, apiDomain: sandbox.url });
  const [type] = (await client.listFixedAssetTypes()).items;
  const asset = await client.createFixedAsset({ asset_name: "Desk", fixed_asset_type_id: type.fixed_asset_type_id, asset_account_id: type.expense_account_id, asset_cost: 300, asset_purchase_date: "2024-12-17" });
  assert.ok((await ro.listFixedAssets()).items.some((x) => x.fixed_asset_id === asset.fixed_asset_id), "the read-only token reads");
  await assert.rejects(ro.listPlans(), kind("unauthorized", (e) => /SvcSubscriptions\.plans\.READ/.test(e.message)));
  await assert.rejects(client.request("GET", "books", "/nothing-here"), kind("api", (e) => e.status === 404));
  await assert.rejects(client.request("PATCH", "books", "/fixedassets"), kind("api", (e) => e.status === 405));
});

test("rate limits: the sandbox's 429 with Retry-After reaches a client that does not limit itself", async () => {
  const limited = await startSandbox(["--rate-per-minute", "3"]);
  try {
    const raw = new Client({ accessToken: "dev-token", organizationId: ORG, apiDomain: limited.url, rateLimit: false, maxRetries: 0 });
    for (let i = 0; i < 3; i++) await raw.listPlans();
    await assert.rejects(raw.listPlans(), kind("rate_limited", (e) => e.status === 429 && e.retryAfterMs > 0));
  } finally {
    await limited.close();
  }
});

test("rate limits: a client that keeps to the limit queues instead of collecting 429s", async () => {
  const limited = await startSandbox(["--rate-per-minute", "3"]);
  try {
    const polite = new Client({ accessToken: "dev-token", organizationId: ORG, apiDomain: limited.url, rateLimit: { requestsPerMinute: 3 } });
    for (let i = 0; i < 3; i++) await polite.listTasks("460000000050015");
    assert.equal(polite.rateLimitState().remainingThisMinute, 0);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    await assert.rejects(polite.listTasks("460000000050015", {}, { signal: controller.signal }), kind("aborted"));
    const counters = await limited.counters();
    assert.equal(counters.operations.listTasks.received, 3, JSON.stringify(counters.operations.listTasks));
    assert.equal(counters.methods.GET.statuses["429"] ?? 0, 0, JSON.stringify(counters.methods));
  } finally {
    await limited.close();
  }
});
