// The invoice rows only the vendor's examples show (projects, their users, recurring invoices), each in a
// state round trip through the installed package against the sandbox.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client, SvcError } from "svc-sdk";
import { startSandbox } from "./support/sandbox.mjs";

const ORG = "10234695";
const CUSTOMER = "460000000044001";
const USER = "460000000024003";
let sandbox;
let client;

before(async () => {
  sandbox = await startSandbox(["--no-rate-limit"]);
  client = new Client({ accessToken: "dev-token", organizationId: ORG, apiDomain: sandbox.url });
});
after(() => sandbox.close());

const apiError = (code) => (e) => {
  assert.ok(e instanceof SvcError, `not an SvcError: ${e}`);
  assert.equal(e.kind, "api", e.message);
  assert.equal(e.code, code, e.message);
  return true;
};
const project = (name, extra = {}) => ({ project_name: name, customer_id: CUSTOMER, billing_type: "based_on_task_hours", user_id: USER, ...extra });
const recurring = (name, extra = {}) => ({ recurrence_name: name, customer_id: CUSTOMER, recurrence_frequency: "months", line_items: [{ name: "Support", rate: 10, quantity: 3 }], ...extra });

test("getProject, markProjectInactive, markProjectActive: the status is seen by get and list", async () => {
  const p = await client.createProject(project("Status round trip", { tasks: [{ task_name: "Plan" }] }));
  const got = await client.getProject(p.project_id);
  assert.equal(got.project_name, "Status round trip");
  assert.equal(got.tasks[0].task_name, "Plan");
  await client.markProjectInactive(p.project_id);
  assert.equal((await client.getProject(p.project_id)).status, "inactive");
  assert.ok((await client.listProjects({ filter_by: "Status.Inactive" })).items.some((x) => x.project_id === p.project_id));
  await client.markProjectActive(p.project_id);
  assert.equal((await client.getProject(p.project_id)).status, "active");
  assert.ok(!(await client.listProjects({ filter_by: "Status.Inactive" })).items.some((x) => x.project_id === p.project_id));
  await assert.rejects(client.markProjectActive("1"), apiError(1002));
});

test("cloneProject: a new project with the source's tasks and users, under the new name", async () => {
  const p = await client.createProject(project("Source", { tasks: [{ task_name: "Build" }] }));
  const clone = await client.cloneProject(p.project_id, { project_name: "Source (copy)", description: "second run" });
  assert.notEqual(clone.project_id, p.project_id);
  const got = await client.getProject(clone.project_id);
  assert.equal(got.project_name, "Source (copy)");
  assert.equal(got.description, "second run");
  assert.equal(got.tasks[0].task_name, "Build");
  assert.notEqual(got.tasks[0].task_id, (await client.getProject(p.project_id)).tasks[0].task_id);
  assert.equal(got.users[0].user_id, USER);
  assert.equal((await client.getProject(p.project_id)).project_name, "Source", "the source is unchanged");
});

test("updateProjectByUniqueField: finds the project by its custom field and updates it; upserts a new one", async () => {
  const p = await client.createProject({ ...project("Unique"), custom_fields: [{ api_name: "cf_code", value: "P-1" }] });
  const headers = { x_unique_identifier_key: "cf_code", x_unique_identifier_value: "P-1" };
  const updated = await client.updateProjectByUniqueField({ ...headers, ...project("Unique renamed", { description: "found by cf_code" }) });
  assert.equal(updated.project_id, p.project_id);
  assert.equal((await client.getProject(p.project_id)).project_name, "Unique renamed");
  await assert.rejects(client.updateProjectByUniqueField({ ...headers, x_unique_identifier_value: "P-2", ...project("None") }), apiError(1002));
  const upserted = await client.updateProjectByUniqueField({
    ...headers,
    x_unique_identifier_value: "P-2",
    x_upsert: true,
    ...project("Upserted", { custom_fields: [{ api_name: "cf_code", value: "P-2" }] }),
  });
  assert.notEqual(upserted.project_id, p.project_id);
  assert.equal((await client.getProject(upserted.project_id)).project_name, "Upserted");
});

test("addProjectUsers, inviteProjectUser, listProjectUsers, getProjectUser, updateProjectUser: the users live in the project", async () => {
  const p = await client.createProject(project("Staffed"));
  await client.removeProjectUser(p.project_id, USER);
  assert.equal((await client.listProjectUsers(p.project_id)).items.length, 0);
  const added = await client.addProjectUsers(p.project_id, { users: [{ user_id: USER }], cost_rate: "10.00" });
  assert.equal(added[0].user_name, "John David");
  assert.equal(added[0].cost_rate, "10.00");
  const invited = await client.inviteProjectUser(p.project_id, { user_name: "Ada Lane", email: "ada@example.com", user_role: "staff", rate: 30 });
  const ada = invited[0].user_id;
  assert.match(ada, /^\d+$/);
  const listed = (await client.listProjectUsers(p.project_id)).items.map((u) => u.user_id);
  assert.deepEqual(listed, [USER, ada]);
  assert.equal((await client.getProjectUser(p.project_id, ada)).email, "ada@example.com");
  const updated = await client.updateProjectUser(p.project_id, ada, { user_role: "admin", cost_rate: "12.00" });
  assert.equal(updated[0].user_role, "admin");
  const again = await client.getProjectUser(p.project_id, ada);
  assert.equal(again.user_role, "admin");
  assert.equal(again.cost_rate, "12.00");
  assert.equal((await client.getProject(p.project_id)).users.find((u) => u.user_id === ada).user_role, "admin", "one place: the project's users");
  await client.removeProjectUser(p.project_id, ada);
  await assert.rejects(client.getProjectUser(p.project_id, ada), apiError(1002));
  await assert.rejects(client.updateProjectUser(p.project_id, ada, { user_role: "staff" }), apiError(1002));
  await assert.rejects(client.listProjectUsers("1"), apiError(1002));
  await assert.rejects(client.addProjectUsers(p.project_id, { users: [{ user_id: USER, rate: -1 }] }), apiError(20004));
});

test("deleteProject: a project without expenses goes (1002 afterwards), one with expenses stays (20077)", async () => {
  const p = await client.createProject(project("Short-lived"));
  await client.addProjectComment(p.project_id, { description: "bye" });
  await client.deleteProject(p.project_id);
  await assert.rejects(client.getProject(p.project_id), apiError(1002));
  await assert.rejects(client.listProjectUsers(p.project_id), apiError(1002));
  await assert.rejects(client.deleteProject(p.project_id), apiError(1002));
  const spent = await client.createProject(project("Spent"));
  const accounts = (await client.listAccounts()).items;
  await client.createExpense({ account_id: accounts[0].account_id, date: "2024-02-01", amount: 9, project_id: spent.project_id });
  await assert.rejects(client.deleteProject(spent.project_id), apiError(20077));
  assert.equal((await client.getProject(spent.project_id)).project_name, "Spent");
});

test("getRecurringInvoice, listRecurringInvoices, updateRecurringInvoice, updateRecurringInvoiceTemplate: seen by get, list and history", async () => {
  const ri = await client.createRecurringInvoice(recurring("Weekly cleaning"));
  const id = ri.recurring_invoice_id;
  const got = await client.getRecurringInvoice(id);
  assert.equal(got.recurrence_name, "Weekly cleaning");
  assert.equal(got.status, "active");
  const updated = await client.updateRecurringInvoice(id, recurring("Weekly cleaning B", { recurrence_frequency: "weeks", repeat_every: 2 }));
  assert.equal(updated.repeat_every, 2);
  assert.equal((await client.getRecurringInvoice(id)).recurrence_frequency, "weeks");
  const listed = await client.listRecurringInvoices({ recurrence_name: "Weekly cleaning B", customer_id: CUSTOMER });
  assert.deepEqual(listed.items.map((x) => x.recurring_invoice_id), [id]);
  const other = await client.createRecurringInvoice(recurring("Other"));
  await assert.rejects(client.updateRecurringInvoice(other.recurring_invoice_id, recurring("Weekly cleaning B")), apiError(1003));
  await client.updateRecurringInvoiceTemplate(id, "90300000001336", { recurring_invoice_id: id, template_id: "90300000001336" });
  assert.equal((await client.getRecurringInvoice(id)).template_id, "90300000001336");
  const history = (await client.listRecurringInvoiceHistory(id)).items;
  assert.deepEqual(history.map((h) => h.operation_type), ["Added", "Updated", "Updated"]);
  assert.ok(history.every((h) => h.recurring_invoice_id === id && h.comment_type === "system"));
  await assert.rejects(client.getRecurringInvoice("1"), apiError(1002));
  await assert.rejects(client.updateRecurringInvoiceTemplate("1", "2"), apiError(1002));
});

test("stopRecurringInvoice, resumeRecurringInvoice: the status is seen by get, list and history", async () => {
  const ri = await client.createRecurringInvoice(recurring("Stoppable"));
  const id = ri.recurring_invoice_id;
  const stopped = await client.stopRecurringInvoice(id, { recurring_invoice_id: id });
  assert.equal(stopped.message, "The recurring invoice has been stopped.");
  assert.equal((await client.getRecurringInvoice(id)).status, "stopped");
  assert.ok((await client.listRecurringInvoices({ status: "stopped" })).items.some((x) => x.recurring_invoice_id === id));
  assert.ok(!(await client.listRecurringInvoices({ status: "active" })).items.some((x) => x.recurring_invoice_id === id));
  await client.resumeRecurringInvoice(id);
  assert.equal((await client.getRecurringInvoice(id)).status, "active");
  assert.ok((await client.listRecurringInvoices({ status: "active" })).items.some((x) => x.recurring_invoice_id === id));
  const history = (await client.listRecurringInvoiceHistory(id)).items.map((h) => h.operation_type);
  assert.deepEqual(history, ["Added", "Stopped", "Resumed"]);
  await assert.rejects(client.stopRecurringInvoice("1"), apiError(1002));
});

test("updateRecurringInvoiceByUniqueField: finds the recurring invoice by its custom field; upserts a new one", async () => {
  const ri = await client.createRecurringInvoice(recurring("Contract A", { custom_fields: [{ label: "cf_contract", value: "C-1" }] }));
  const headers = { x_unique_identifier_key: "cf_contract", x_unique_identifier_value: "C-1" };
  const updated = await client.updateRecurringInvoiceByUniqueField({ ...headers, ...recurring("Contract A", { reference_number: "REF-9" }) });
  assert.equal(updated.recurring_invoice_id, ri.recurring_invoice_id);
  assert.equal((await client.getRecurringInvoice(ri.recurring_invoice_id)).reference_number, "REF-9");
  await assert.rejects(client.updateRecurringInvoiceByUniqueField({ ...headers, x_unique_identifier_value: "C-2", ...recurring("Contract B") }), apiError(1002));
  const upserted = await client.updateRecurringInvoiceByUniqueField({ ...headers, x_unique_identifier_value: "C-2", x_upsert: true, ...recurring("Contract B") });
  assert.notEqual(upserted.recurring_invoice_id, ri.recurring_invoice_id);
  assert.equal((await client.getRecurringInvoice(upserted.recurring_invoice_id)).recurrence_name, "Contract B");
});

test("deleteRecurringInvoice: it is gone from get, list and its history (1002 afterwards)", async () => {
  const ri = await client.createRecurringInvoice(recurring("Doomed"));
  const id = ri.recurring_invoice_id;
  await client.deleteRecurringInvoice(id);
  await assert.rejects(client.getRecurringInvoice(id), apiError(1002));
  assert.ok(!(await client.listRecurringInvoices()).items.some((x) => x.recurring_invoice_id === id));
  await assert.rejects(client.listRecurringInvoiceHistory(id), apiError(1002));
  await assert.rejects(client.deleteRecurringInvoice(id), apiError(1002));
});
