// The books rows only the vendor's examples show (organizations, accounts and their transactions,
// journals, fixed assets), through the installed package against the sandbox: each call in a state
// round trip (act, read back, and a deleted record is 1002).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client, SvcError } from "svc-sdk";
import { startSandbox } from "./support/sandbox.mjs";

const ORG = "10234695";
let sandbox;
let client;

before(async () => {
  sandbox = await startSandbox(["--no-rate-limit"]);
  client = new Client({ accessToken: "dev-token", organizationId: ORG, apiDomain: sandbox.url });
});
after(() => sandbox.close());

const gone = (e) => {
  assert.ok(e instanceof SvcError, `not an SvcError: ${e}`);
  assert.equal(e.kind, "api", e.message);
  assert.equal(e.code, 1002, e.message);
  return true;
};

test("getOrganization: the organization of the path, as an update left it; an unknown one is 1002", async () => {
  const seeded = await client.getOrganization(ORG);
  assert.equal(seeded.organization_id, ORG);
  assert.equal(seeded.currency_code, "USD");
  const created = await client.createOrganization({ name: "Brightline", currency_code: "EUR", time_zone: "Europe/Paris", portal_name: "brightline01" });
  await client.updateOrganization(created.organization_id, { name: "Brightline SA", fiscal_year_start_month: "april" });
  const got = await client.getOrganization(created.organization_id);
  assert.equal(got.name, "Brightline SA");
  assert.equal(got.fiscal_year_start_month, 3);
  assert.equal(got.currency_code, "EUR");
  await assert.rejects(client.getOrganization("999"), gone);
});

test("accounts: inactive and active again as get and list see it, then deleted", async () => {
  const a = await client.createAccount({ account_name: "Float books-a", account_type: "cash" });
  assert.equal(a.is_active, true);
  assert.equal((await client.markAccountInactive(a.account_id)).code, 0);
  assert.equal((await client.getAccount(a.account_id)).is_active, false);
  const inactive = (await client.listAccounts({ filter_by: "AccountType.Inactive" })).items;
  assert.ok(inactive.some((x) => x.account_id === a.account_id));
  await client.markAccountActive(a.account_id);
  assert.equal((await client.getAccount(a.account_id)).is_active, true);
  assert.ok(!(await client.listAccounts({ filter_by: "AccountType.Inactive" })).items.some((x) => x.account_id === a.account_id));
  await client.deleteAccount(a.account_id);
  await assert.rejects(client.getAccount(a.account_id), gone);
  await assert.rejects(client.markAccountActive(a.account_id), gone);
});

test("account transactions: a published journal posts one per line; deleting the transaction deletes the journal", async () => {
  const bank = await client.createAccount({ account_name: "Loan bank books-a", account_type: "bank" });
  const loan = await client.createAccount({ account_name: "Loan books-a", account_type: "long_term_liability" });
  const j = await client.createJournal({
    journal_date: "2024-03-01",
    reference_number: "LOAN-1",
    notes: "Loan received",
    line_items: [
      { account_id: bank.account_id, debit_or_credit: "debit", amount: 40 },
      { account_id: loan.account_id, debit_or_credit: "credit", amount: 40 },
    ],
  });
  const posted = (await client.listAccountTransactions({ account_id: bank.account_id })).items;
  assert.equal(posted.length, 1);
  const t = posted[0];
  assert.equal(t.transaction_id, j.journal_id);
  assert.equal(t.transaction_type, "journal");
  assert.equal(t.transaction_date, "2024-03-01");
  assert.equal(t.debit_or_credit, "debit");
  assert.equal(t.debit_amount, 40);
  assert.equal(t.offset_account_name, "Loan books-a");
  assert.equal((await client.listAccountTransactions({ account_id: loan.account_id, date: "2024-03-01", amount: 40 })).items[0].credit_amount, 40);
  const expenses = (await client.listAccountTransactions({ transaction_type: "expense" })).items;
  assert.ok(expenses.length >= 2, "the seeded expense posts to its account and the one it was paid through");

  await client.deleteAccountTransaction(t.transaction_id);
  assert.deepEqual((await client.listAccountTransactions({ account_id: bank.account_id })).items, []);
  await assert.rejects(client.getJournal(j.journal_id), gone);
  await assert.rejects(client.deleteAccountTransaction(t.transaction_id), gone);
});

test("journals: list, get, update, publish, attach, comment, delete", async () => {
  const accounts = (await client.listAccounts()).items;
  const [cash, rent] = [accounts.find((a) => a.account_name === "Petty Cash"), accounts.find((a) => a.account_name === "Rent")];
  const lines = (amount) => [
    { account_id: rent.account_id, debit_or_credit: "debit", amount },
    { account_id: cash.account_id, debit_or_credit: "credit", amount },
  ];
  const j = await client.createJournal({ journal_date: "2024-04-01", reference_number: "JR-books-a", notes: "Rent April", status: "draft", line_items: lines(50) });
  const listed = (await client.listJournals({ reference_number: "JR-books-a" })).items;
  assert.deepEqual(listed.map((x) => [x.journal_id, x.status]), [[j.journal_id, "draft"]]);
  assert.ok(!(await client.listAccountTransactions({ account_id: rent.account_id })).items.some((t) => t.transaction_id === j.journal_id), "a draft posts nothing");

  const updated = await client.updateJournal(j.journal_id, { journal_date: "2024-04-02", notes: "Rent April (corrected)", line_items: lines(75) });
  assert.equal(updated.total, 75);
  const got = await client.getJournal(j.journal_id);
  assert.equal(got.notes, "Rent April (corrected)");
  assert.equal(got.journal_date, "2024-04-02");
  assert.equal(got.line_items[0].account_name, "Rent");
  assert.equal((await client.listJournals({ notes: "corrected", total: 75 })).items[0].journal_id, j.journal_id);

  await client.publishJournal(j.journal_id);
  assert.equal((await client.getJournal(j.journal_id)).status, "published");
  assert.ok((await client.listJournals({ filter_by: "Status.Published" })).items.some((x) => x.journal_id === j.journal_id));
  assert.ok(!(await client.listJournals({ filter_by: "Status.Draft" })).items.some((x) => x.journal_id === j.journal_id));
  assert.ok((await client.listAccountTransactions({ account_id: rent.account_id })).items.some((t) => t.transaction_id === j.journal_id && t.debit_amount === 75));

  await client.addJournalAttachment(j.journal_id, { files: [new File(["%PDF-1.4"], "lease.pdf"), { name: "schedule.csv", data: "month,amount\n4,75" }] });
  const attached = await client.getJournal(j.journal_id);
  assert.equal(attached.has_attachment, true);
  assert.deepEqual(attached.documents.map((d) => d.file_name), ["lease.pdf", "schedule.csv"]);
  assert.equal(attached.documents[1].file_size, 17);
  await assert.rejects(client.addJournalAttachment(j.journal_id, { files: [{ name: "run.exe", data: "MZ" }] }), (e) => e instanceof SvcError && e.kind === "validation");

  const [comment] = await client.addJournalComment(j.journal_id, { description: "Checked against the lease" });
  assert.match(comment.comment_id, /^\d+$/);
  const commented = await client.getJournal(j.journal_id);
  assert.deepEqual(commented.comments.map((c) => c.description), ["Checked against the lease"]);
  await client.deleteJournalComment(j.journal_id, comment.comment_id);
  assert.deepEqual((await client.getJournal(j.journal_id)).comments, []);
  await assert.rejects(client.deleteJournalComment(j.journal_id, comment.comment_id), gone);

  await client.deleteJournal(j.journal_id);
  await assert.rejects(client.getJournal(j.journal_id), gone);
  await assert.rejects(client.addJournalComment(j.journal_id, { description: "late" }), gone);
  await assert.rejects(client.publishJournal(j.journal_id), gone);
});

test("fixed assets: status changes, forecast, history, comments, sale, write-off, delete", async () => {
  const types = (await client.listFixedAssetTypes()).items;
  const machines = types.find((t) => t.fixed_asset_type_name === "Machines");
  const fields = {
    fixed_asset_type_id: machines.fixed_asset_type_id,
    asset_account_id: machines.depreciation_account_id,
    expense_account_id: machines.expense_account_id,
    depreciation_method: "declining_method",
    depreciation_percentage: 12,
    depreciation_frequency: "yearly",
    total_life: 60,
    salvage_value: 100,
    asset_cost: 1000,
    asset_purchase_date: "2024-12-17",
    depreciation_start_date: "2024-12-17",
  };
  const asset = await client.createFixedAsset({ asset_name: "Lathe books-a", ...fields });
  const id = asset.fixed_asset_id;
  assert.equal((await client.getFixedAsset(id)).status, "draft");

  const forecast = await client.getFixedAssetForecast(id);
  assert.equal(forecast.length, 5);
  assert.deepEqual(forecast[0], { valuation_date: "2025-11-30", depreciated_value: 120, current_value: 880, accumulated_value: 120 });
  assert.equal(forecast[4].current_value, 100);
  assert.equal(forecast[4].accumulated_value, 900);

  await client.markFixedAssetActive(id);
  assert.equal((await client.getFixedAsset(id)).status, "active");
  assert.ok((await client.listFixedAssets({ filter_by: "Status.Active" })).items.some((x) => x.fixed_asset_id === id));
  await client.markFixedAssetCancelled(id);
  assert.equal((await client.getFixedAsset(id)).status, "cancel");
  assert.ok((await client.listFixedAssets({ filter_by: "Status.Cancel" })).items.some((x) => x.fixed_asset_id === id));
  assert.deepEqual(await client.getFixedAssetForecast(id), [], "a cancelled asset depreciates no more");
  await client.markFixedAssetDraft(id);
  assert.equal((await client.getFixedAsset(id)).status, "draft");
  const history = (await client.getFixedAssetHistory(id, { per_page: 10 })).items;
  assert.deepEqual(history.map((h) => h.type), ["active", "cancel", "draft"]);
  assert.equal(history[0].current_value, 1000);

  const comment = await client.addFixedAssetComment(id, { description: "Serviced in March" });
  assert.equal(comment.description, "Serviced in March");
  assert.ok((await client.getFixedAsset(id)).comments.some((c) => c.comment_id === comment.comment_id));
  await client.deleteFixedAssetComment(id, comment.comment_id);
  assert.ok(!(await client.getFixedAsset(id)).comments.some((c) => c.comment_id === comment.comment_id));
  await assert.rejects(client.deleteFixedAssetComment(id, comment.comment_id), gone);

  await client.markFixedAssetActive(id);
  await client.sellFixedAsset(id, { expense_account_id: machines.expense_account_id, reason: "Replaced by a CNC lathe" });
  const sold = await client.getFixedAsset(id);
  assert.equal(sold.status, "sold");
  assert.equal(sold.current_asset_value, 0);
  assert.ok((await client.listFixedAssets({ filter_by: "Status.Sold" })).items.some((x) => x.fixed_asset_id === id));
  const sale = (await client.getFixedAssetHistory(id)).items.at(-1);
  assert.deepEqual([sale.type, sale.description, sale.depreciated_value, sale.current_value], ["sold", "Sold: Replaced by a CNC lathe", 1000, 0]);

  const other = await client.createFixedAsset({ asset_name: "Press books-a", ...fields });
  await client.markFixedAssetActive(other.fixed_asset_id);
  await client.writeOffFixedAsset(other.fixed_asset_id, { date: "2025-02-03", expense_account_id: machines.expense_account_id, reason: "Damaged in a flood" });
  assert.equal((await client.getFixedAsset(other.fixed_asset_id)).status, "write_off");
  assert.ok((await client.listFixedAssets({ filter_by: "Status.WriteOff" })).items.some((x) => x.fixed_asset_id === other.fixed_asset_id));
  const writeOff = (await client.getFixedAssetHistory(other.fixed_asset_id)).items.at(-1);
  assert.deepEqual([writeOff.type, writeOff.valuation_date, writeOff.description], ["write_off", "2025-02-03", "Written off: Damaged in a flood"]);
  assert.deepEqual(await client.getFixedAssetForecast(other.fixed_asset_id), []);

  await client.deleteFixedAsset(id);
  await assert.rejects(client.getFixedAsset(id), gone);
  await assert.rejects(client.getFixedAssetHistory(id), gone);
  await assert.rejects(client.markFixedAssetActive(id), gone);
  await assert.rejects(client.addFixedAssetComment(id, { description: "late" }), gone);
  assert.ok(!(await client.listFixedAssets()).items.some((x) => x.fixed_asset_id === id));
});
