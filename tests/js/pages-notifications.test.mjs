// Issue 38, item 5, through the installed package: every item of every page in one array, bounded by
// toArray({ max }) (one more is a config SvcError, not an array that grows without bound), on a list's
// promise and on a page; and svc-sdk/testing's notification() writes the body the sandbox posts to a
// channel's notify_url, which parseWatchNotification accepts with the channel's token.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Client, SvcError, parseWatchNotification } from "svc-sdk";
import { Sandbox, notification } from "svc-sdk/testing";
import { startSandbox } from "./support/sandbox.mjs";

let sandbox;
let client;
before(async () => {
  sandbox = await startSandbox(["--no-rate-limit"]);
  client = new Client({ accessToken: "dev-token", organizationId: "10234695", apiDomain: sandbox.url, maxRetries: 0 });
});
after(() => sandbox.close());

const configError = (pattern) => (e) => e instanceof SvcError && e.kind === "config" && pattern.test(e.message);

test("toArray() gathers every item of every page, from the promise and from a page", async () => {
  const walked = [];
  for await (const a of client.listAccounts({ per_page: 2 })) walked.push(a.account_id);
  assert.ok(walked.length > 4, `only ${walked.length} accounts: the sandbox's seed should span pages of 2`);
  const all = await client.listAccounts({ per_page: 2 }).toArray();
  assert.deepEqual(all.map((a) => a.account_id), walked);
  const first = await client.listAccounts({ per_page: 2 });
  assert.deepEqual((await first.toArray({ max: walked.length })).map((a) => a.account_id), walked);
  const second = await first.getNextPage();
  assert.deepEqual((await second.toArray()).map((a) => a.account_id), walked.slice(2));
});

test("one item more than max rejects with a config SvcError, and no page after it is asked for", async () => {
  const walked = [];
  for await (const a of client.listAccounts({ per_page: 2 })) walked.push(a);
  const max = walked.length - 1;
  await assert.rejects(client.listAccounts({ per_page: 2 }).toArray({ max }), configError(new RegExp(`more than ${max} items.*give a larger max, or go over the items with for await`)));
  await assert.rejects((await client.listAccounts({ per_page: 2 })).toArray({ max: 0 }), configError(/more than 0 items/));
  await sandbox.resetCounters();
  await assert.rejects(client.listAccounts({ per_page: 2 }).toArray({ max: 3 }), configError(/more than 3 items/));
  assert.equal((await sandbox.counters()).operations.listAccounts.received, 2, "pages 1 and 2 (the 4th item) only");
});

test("a max that is not a whole number of items, or another option, is a config SvcError before any item", async () => {
  const page = await client.listAccounts({ per_page: 2 });
  for (const [options, pattern] of [
    [{ max: -1 }, /max must be a whole number from 0 to 4294967295, got -1/],
    [{ max: 1.5 }, /got 1\.5/],
    [{ max: "10" }, /got a string/],
    [{ max: 2 ** 32 }, /got 4294967296/],
    [{ limit: 10 }, /options must be \{ max \}/],
    ["10", /options must be \{ max \}/],
  ]) {
    await assert.rejects(page.toArray(options), configError(pattern), JSON.stringify(options));
  }
  assert.ok((await page.toArray({ max: undefined })).length > 4);
});

test("notification() is the body the sandbox posts, and parseWatchNotification accepts it with the channel's token", async () => {
  const posted = [];
  const inProcess = new Sandbox({ callbackFetch: async (_url, init) => (posted.push(init.body), new Response("ok")) });
  const c = new Client({ accessToken: "dev-token", organizationId: "10234695", apiDomain: inProcess.url, fetch: inProcess.fetch, maxRetries: 0 });
  const notifyUrl = "https://hooks.example.test/svc?tenant=acme";
  // The service writes ids as JSON numbers (longs), as notification() does: the sandbox echoes what it was given.
  await c.updateNotificationChannels({ watch: [{ channel_id: 1000000068001, events: ["Leads.edit"], notify_url: notifyUrl, token: "chan-secret-1" }] });
  const records = [{ id: 4150868000001, values: { Email: "a@b.test" } }, { id: 4150868000002, values: { Email: "a@b.test" } }];
  await inProcess.fetch(`${inProcess.url}/__sandbox/crm/Leads/edit`, { method: "POST", body: JSON.stringify({ records }) });
  assert.equal(posted.length, 1);
  const serverTime = JSON.parse(posted[0]).server_time;
  const built = notification({
    module: "Leads", operation: "edit", ids: ["4150868000001", 4150868000002n], values: { Email: "a@b.test" },
    channelId: "1000000068001", token: "chan-secret-1", notifyUrl, serverTime, apiDomain: inProcess.url,
  });
  assert.equal(built, posted[0]);
  const received = parseWatchNotification(built, { token: "chan-secret-1" });
  assert.deepEqual([received.channel_id, received.ids, received.operation, received.query_params], ["1000000068001", ["4150868000001", "4150868000002"], "edit", { tenant: "acme" }]);
  assert.throws(() => parseWatchNotification(built, { token: "another" }), (e) => e.kind === "verification");
  const minimal = JSON.parse(notification({ module: "Deals", operation: "create", ids: [1], channelId: 7 }));
  assert.equal(minimal.resource_uri, "https://www.svcapis.com/crm/v8/Deals");
  assert.equal(minimal.token, undefined);
  assert.throws(() => notification({ module: "Deals", operation: "update", ids: [1], channelId: 7 }), /notification\(options\): operation: one of create, edit, delete is required/);
  assert.throws(() => notification({ module: "Deals", operation: "edit", ids: [1] }), /channelId: the channel's id is required/);
});
