// The integrator's day, run in every runtime against the sandbox: a contact, an item, an invoice for
// them, the invoice emailed, a payment recorded against it, and what is unpaid listed before and after.
// It imports the installed package by its name; it never throws: the report says what it saw.
import { Client } from "svc-sdk";

export async function receivables({ apiDomain, accessToken, organizationId }) {
  const steps = [];
  try {
    const client = new Client({ accessToken, organizationId, apiDomain, rateLimit: false });
    const contact = await client.books.createContact({ contact_name: "Bowman and Co", contact_type: "customer" });
    steps.push(["contact", contact.contact_id]);
    const item = await client.createItem({ name: "Standing desk", rate: 250 });
    steps.push(["item", item.item_id]);
    const invoice = await client.createInvoice({
      customer_id: contact.contact_id,
      line_items: [{ item_id: item.item_id, rate: 250, quantity: 2 }],
    });
    steps.push(["invoice", invoice.invoice_id, invoice.total, invoice.balance, invoice.status]);
    await client.emailInvoice(invoice.invoice_id, { to_mail_ids: ["ap@bowman.example"] });
    const emailed = await client.getInvoice(invoice.invoice_id);
    steps.push(["emailed", emailed.status]);
    const unpaidBefore = (await client.listInvoices({ status: "unpaid" })).items.map((i) => i.invoice_id);
    steps.push(["unpaid before", unpaidBefore]);
    await client.createCustomerPayment({
      customer_id: contact.contact_id,
      payment_mode: "banktransfer",
      amount: 500,
      date: "2026-11-29",
      invoice_id: invoice.invoice_id,
      amount_applied: 500,
      invoices: [{ invoice_id: invoice.invoice_id, amount_applied: 500 }],
    });
    const paid = await client.getInvoice(invoice.invoice_id);
    steps.push(["paid", paid.balance, paid.status]);
    const unpaidAfter = (await client.listInvoices({ status: "unpaid" })).items.map((i) => i.invoice_id);
    steps.push(["unpaid after", unpaidAfter]);
    return { ok: true, steps };
  } catch (e) {
    return { ok: false, steps, error: { kind: e?.kind, message: String(e?.message ?? e), issues: e?.issues } };
  }
}

/** What every runtime's report must show. */
export function checkReceivables(assert, report) {
  assert.equal(report.ok, true, JSON.stringify(report));
  const step = (name) => report.steps.find((s) => s[0] === name);
  const [, contactId] = step("contact");
  const [, itemId] = step("item");
  const [, invoiceId, total, balance, status] = step("invoice");
  for (const id of [contactId, itemId, invoiceId]) assert.match(id, /^\d+$/, "ids are strings of digits");
  assert.deepEqual([Number(total), Number(balance), status], [500, 500, "draft"]);
  assert.deepEqual(step("emailed"), ["emailed", "sent"]);
  assert.deepEqual(step("unpaid before"), ["unpaid before", [invoiceId]]);
  assert.deepEqual(step("paid").slice(1).map(String), ["0", "paid"]);
  assert.deepEqual(step("unpaid after"), ["unpaid after", []]);
}
