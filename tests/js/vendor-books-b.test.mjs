// The vendor-only rows of expenses and vendor credits, through the installed package against the
// sandbox: each call in a state round trip (act, read back, assert the change; a delete then a get is 1002).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client, SvcError } from "svc-sdk";
import { startSandbox } from "./support/sandbox.mjs";

const ORG = "10234695";
const VENDOR = "460000000020029";
let sandbox;
let client;
let account;

before(async () => {
  sandbox = await startSandbox(["--no-rate-limit"]);
  client = new Client({ accessToken: "dev-token", organizationId: ORG, apiDomain: sandbox.url });
  account = (await client.listAccounts()).items[0].account_id;
});
after(() => sandbox.close());

const gone = (e) => {
  assert.ok(e instanceof SvcError, `not an SvcError: ${e}`);
  assert.equal(e.kind, "api", e.message);
  assert.equal(e.code, 1002, e.message);
  return true;
};

test("expenses: list, get, update (totals again), receipt upload served back, history, delete", async () => {
  const e = await client.createExpense({ account_id: account, date: "2024-05-02", amount: 40, description: "Taxi" });
  const listed = (await client.listExpenses({ per_page: 200 })).items;
  assert.ok(listed.some((x) => x.expense_id === e.expense_id && x.description === "Taxi"));

  const updated = await client.updateExpense(e.expense_id, { amount: 55.5, description: "Taxi and tip", exchange_rate: 2 });
  assert.equal(updated.total, 55.5);
  const got = await client.getExpense(e.expense_id);
  assert.equal(got.expense_id, e.expense_id, "ids beyond 2^53 arrive whole");
  assert.equal(got.description, "Taxi and tip");
  assert.equal(got.bcy_total, 111);

  const png = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);
  await client.addExpenseReceipt(e.expense_id, { receipt: new File([png], "scan.png", { type: "image/png" }) });
  const receipt = await client.getExpenseReceipt(e.expense_id);
  assert.equal(receipt.type, "image/png");
  assert.deepEqual(new Uint8Array(await receipt.arrayBuffer()), png);
  assert.equal((await client.getExpense(e.expense_id)).expense_receipt_name, "scan.png");
  await assert.rejects(client.addExpenseReceipt(e.expense_id, { receipt: { name: "notes.txt", data: "x" } }), (err) => err.kind === "validation");

  const history = (await client.listExpenseComments(e.expense_id)).items;
  assert.deepEqual(history.map((c) => c.operation_type), ["Added", "Updated"], "newest first");
  assert.match(history[0].description, /scan\.png/);
  assert.ok(history.every((c) => c.expense_id === e.expense_id && c.comment_id));

  await client.deleteExpense(e.expense_id);
  await assert.rejects(client.getExpense(e.expense_id), gone);
  await assert.rejects(client.getExpenseReceipt(e.expense_id), gone);
  await assert.rejects(client.listExpenseComments(e.expense_id), gone);
  assert.ok(!(await client.listExpenses()).items.some((x) => x.expense_id === e.expense_id));
});

test("vendor credits: get, update, statuses, bills lower and restore the balance, comments, delete", async () => {
  const vc = await client.createVendorCredit({ vendor_id: VENDOR, date: "2024-05-03", line_items: [{ account_id: account, name: "Returned chairs", rate: 50, quantity: 2 }] });
  const id = vc.vendor_credit_id;
  const got = await client.getVendorCredit(id, { accept: "json" });
  assert.equal(got.total, 100);
  assert.deepEqual(got.bills_credited, []);

  const updated = await client.updateVendorCredit(id, { reference_number: "RMA-7", line_items: [{ account_id: account, name: "Returned chairs", rate: 60, quantity: 2 }] });
  assert.equal(updated.total, 120);
  const afterUpdate = await client.getVendorCredit(id);
  assert.equal(afterUpdate.reference_number, "RMA-7");
  assert.equal(afterUpdate.balance, 120);

  const status = async () => (await client.getVendorCredit(id)).status;
  const listedStatus = async () => (await client.listVendorCredits()).items.find((x) => x.vendor_credit_id === id).status;
  await client.submitVendorCredit(id);
  assert.equal(await status(), "pending_approval");
  await client.approveVendorCredit(id);
  assert.equal(await status(), "approved");
  await client.markVendorCreditVoid(id);
  assert.equal(await status(), "void");
  assert.equal(await listedStatus(), "void");
  await client.markVendorCreditOpen(id);
  assert.equal(await status(), "open");
  assert.equal(await listedStatus(), "open");

  await client.applyVendorCreditToBills(id, { bills: [{ bill_id: "460000000057075", amount_applied: 45 }] });
  const applied = await client.getVendorCredit(id);
  assert.equal(applied.balance, 75);
  assert.equal(applied.total_credits_used, 45);
  const bills = (await client.listVendorCreditBills(id)).items;
  assert.equal(bills.length, 1);
  assert.equal(bills[0].bill_id, "460000000057075");
  assert.equal(bills[0].amount, 45);
  assert.equal(applied.bills_credited[0].vendor_credit_bill_id, bills[0].vendor_credit_bill_id);
  await client.deleteVendorCreditBill(id, bills[0].vendor_credit_bill_id);
  assert.equal((await client.getVendorCredit(id)).balance, 120);
  assert.deepEqual((await client.listVendorCreditBills(id)).items, []);
  await assert.rejects(client.deleteVendorCreditBill(id, bills[0].vendor_credit_bill_id), gone);

  const comment = await client.addVendorCreditComment(id, { description: "Credits checked" });
  assert.equal(comment.description, "Credits checked");
  const comments = (await client.listVendorCreditComments(id)).items;
  assert.deepEqual(comments.map((c) => c.comment_id), [comment.comment_id]);
  assert.equal((await client.getVendorCredit(id)).comments[0].description, "Credits checked");
  await client.deleteVendorCreditComment(id, comment.comment_id);
  assert.deepEqual((await client.listVendorCreditComments(id)).items, []);
  await assert.rejects(client.addVendorCreditComment("404", { description: "x" }), gone);

  await client.deleteVendorCredit(id);
  await assert.rejects(client.getVendorCredit(id), gone);
  await assert.rejects(client.listVendorCreditBills(id), gone);
  assert.ok(!(await client.listVendorCredits()).items.some((x) => x.vendor_credit_id === id));
});
