// A user's TypeScript file: it must compile under --strict, and each @ts-expect-error line must
// be an error (tsc fails on an unused @ts-expect-error), so wrong values are caught at compile time.
// It is compiled as CommonJS and as ESM, under every module resolution, with Node's, the DOM's,
// Cloudflare's and Deno's global types (tests/js/types.test.mjs).
import {
  Client,
  ErrorCode,
  ExactNumber,
  SvcError,
  operations,
  parseEvent,
  parseWatchNotification,
  regions,
  requiredScopes,
  schemaFor,
  validate,
  type FixedAssetInput,
  type FixedAssetListEntry,
  type Issue,
  type LogRecord,
  type Page,
  type RateLimitState,
  type WatchChannel,
} from "svc-sdk";
import { redisStore } from "svc-sdk/redis";
import * as forms from "svc-sdk/validate";
import type { IssueCode, OperationParams, ValidationResult } from "svc-sdk/validate";

const client = new Client({ accessToken: async () => "token", organizationId: "10234695", region: "eu", plan: "premium" });

// @ts-expect-error: the token is a string or a function
new Client({ accessToken: 5, organizationId: "1" });
// @ts-expect-error: not a region
new Client({ accessToken: "t", region: "mars" });

const watched = new Client({
  accessToken: "t",
  logLevel: "debug",
  logger: console,
  onRequest: ({ operationId, method, url, attempt }) => void [operationId, method, url, attempt],
  onResponse: (info) => {
    const took: number = info.durationMs;
    const status: number = info.status;
    void [took, status, info.operationId];
  },
  rateLimit: { store: redisStore({ url: "redis://127.0.0.1:6379" }) },
});
// @ts-expect-error: not a log level
new Client({ accessToken: "t", logLevel: "verbose" });
// @ts-expect-error: a logger has all four levels
new Client({ accessToken: "t", logger: { error() {} } });
const keep = (r: LogRecord) => void [r.level, r.event, r.message, r.attempt, r.status ?? 0, r.durationMs, r.requestId?.length, r.errorKind];
new Client({
  accessToken: "t",
  logger: { debug: keep, info: keep, warn: keep, error: (r) => void [r.operationId, r.url] },
  onRequest: (info) => void info.headers["content-type"],
  onResponse: (info) => void [info.headers["retry-after"], info.requestId ?? "none"],
});
// @ts-expect-error: a record's status is a number
new Client({ accessToken: "t", logger: { ...console, error: (r) => void (r.status satisfies string | undefined) } });

const asset: FixedAssetInput = {
  asset_name: "Laptop",
  fixed_asset_type_id: "3640355000000319008",
  asset_account_id: "3640355000000000367",
  asset_cost: 1000,
  asset_purchase_date: "2024-12-17",
  depreciation_method: "declining_method",
  depreciation_percentage: 12,
};

// @ts-expect-error: a wrong enum value
const sideways: FixedAssetInput = { ...asset, depreciation_method: "sideways" };

// @ts-expect-error: a missing required field (asset_purchase_date)
const incomplete: FixedAssetInput = { asset_name: "x", fixed_asset_type_id: "1", asset_account_id: "2", asset_cost: 1 };

const channel: WatchChannel = {
  channel_id: "1000000068001",
  events: ["Deals.create", "Custom_Module.all"],
  notify_url: "https://hooks.example.com/svc",
};
// @ts-expect-error: the operation of an event is one of create, delete, edit, all
const badEvent: WatchChannel = { ...channel, events: ["Deals.update"] };

export async function run(): Promise<void> {
  const created = await client.createFixedAsset(asset);
  const id: string = created.fixed_asset_id;
  const cost: number | ExactNumber | undefined = created.asset_cost;
  // @ts-expect-error: a model's number may be an ExactNumber, which is no JS number
  const rounded: number | undefined = created.asset_cost;
  const text: string = new ExactNumber("12345678901234567891").text;
  await client.updateFixedAsset(id, { ...asset, asset_cost: new ExactNumber("1000.00000000000000000000000001") });

  // @ts-expect-error: params of createFixedAsset are required
  await client.createFixedAsset();
  // @ts-expect-error: misspelt field on a request type
  await client.createTask("p1", { task_nam: "Design" });
  // @ts-expect-error: path parameters are strings
  await client.getTask(1, "t1");
  // @ts-expect-error: a response names its known fields only (the others are kept at run time)
  void created.fixed_assett_id;

  const page: Page<FixedAssetListEntry> = await client.listFixedAssets({ per_page: 10, sort_order: "D" });
  for await (const a of page) {
    const name: string | undefined = a.asset_name;
    void name;
  }
  // @ts-expect-error: sort_order is A or D
  await client.listFixedAssets({ sort_order: "up" });

  const task = await client.createTask("p1", { task_name: "Design", description: "first" });
  const taskId: string = task.task_id;
  const receipt: Blob = await client.getExpenseReceipt("982000000030049", { preview: false });
  await client.addExpenseAttachment("982000000030049", {
    files: [new File(["%PDF"], "a.pdf"), { name: "b.pdf", data: new Blob(["%PDF"]), type: "application/pdf" }],
  });
  // @ts-expect-error: a bare Blob has no name to send
  await client.addExpenseAttachment("982000000030049", { files: [new Blob(["%PDF"])] });
  // @ts-expect-error: getAccount takes no params
  await client.getAccount("982000000030049", { bogus_param: 1 });
  const watch = await client.updateNotificationChannels({ watch: [channel] }, { timeoutMs: 5000 });
  const done = await client.deleteTask("p1", taskId);
  const message: string = done.message;

  const { data, response } = await watched.getCurrency("982000000567001").withResponse();
  const currencyCode: string | undefined = data.currency_code;
  const answered: [number, Record<string, string>, string] = [response.status, response.headers, response.url];
  const accounts = await client.listAccounts({}, { headers: { "x-request-id": "r1" }, signal: new AbortController().signal });
  // @ts-expect-error: header values are strings
  await client.listAccounts({}, { headers: { "x-request-id": 1 } });
  const paged = await client.listTasks("p1").withResponse();
  void [currencyCode, answered, accounts.items, paged.data.items];

  try {
    await client.listPlans({ filter_by: "PlanStatus.ACTIVE" });
  } catch (e) {
    if (e instanceof SvcError) {
      const kind: "validation" | "api" | "rate_limited" | "unauthorized" | "network" | "timeout" | "aborted" | "decode" | "config" | "verification" = e.kind;
      const issues: Issue[] | undefined = e.issues;
      const headers: Record<string, string> | undefined = e.headers;
      const cause: unknown = e.cause;
      void kind, issues, headers, cause;
    }
  }

  const result = validate("createTask", { task_name: "" });
  if (!result.ok) {
    const path: (string | number)[] = result.issues[0].path;
    void path;
  }
  // @ts-expect-error: not an operation
  validate("createTaskk", {});
  const schema = schemaFor("createFixedAsset");
  const checked = schema["~standard"].validate(asset);
  const scopes: string[] = requiredScopes(["createTask", "listTasks"]);
  const state: RateLimitState | null = client.rateLimitState();
  const url: string = regions.au;
  const prepared = await client.prepare("getTask", "p1", "t1");
  await client.prepare("getTask", "p1", "t1", {});
  await client.prepare("createFixedAsset", asset);
  // @ts-expect-error: getTask takes its two path params before its params
  await client.prepare("getTask", {});
  // @ts-expect-error: createTask takes its project's id first
  await client.prepare("createTask", { task_name: "Design" });
  const raw = await client.request("GET", "books", "/journals", { query: { page: 1 } });
  void [id, cost, receipt, watch, message, checked, scopes, state, url, prepared, raw, operations(), sideways, incomplete, badEvent];
}

/** The receivers verify unless told in so many words not to: the options are required. */
export function received(body: string, url: string, token: string) {
  const event = parseEvent(body, { token, url });
  const fromUrl = parseEvent(body, { token, url: new URL(url), param: "key", maxBodyBytes: 4096 });
  const unverified = parseEvent(body, { skipVerification: true });
  // @ts-expect-error: verifying an event takes the token and the URL it came to
  parseEvent(body);
  // @ts-expect-error: the token alone does not verify an event: the URL holds it
  parseEvent(body, { token });
  // @ts-expect-error: either a token or skipVerification
  parseEvent(body, { token, url, skipVerification: true });
  const notification = parseWatchNotification(body, { token });
  // @ts-expect-error: verifying a notification takes the channel's token
  parseWatchNotification(body);
  return [event.event_type, fromUrl.event_id, unverified.event_time, notification.channel_id];
}

/** svc-sdk/validate: the main entry's functions and types, on a wasm of its own. */
export function formIssues(values: OperationParams["createOrganization"]): IssueCode[] {
  const result: ValidationResult = forms.validate("createOrganization", values);
  // @ts-expect-error: not an operation
  forms.validate("createOrganisation", values);
  const checked = forms.schemaFor("createTask")["~standard"].validate({ task_name: "" });
  const scopes: string[] = forms.requiredScopes(["listPlans"]);
  const refused = (e: unknown) => e instanceof forms.SvcError && e.kind === "config";
  void [checked, scopes, forms.operations(), refused];
  return result.ok ? [] : result.issues.map((i) => i.code);
}

/** A form's schema: its issues are the SDK's Issue, narrowed by code to their details, and its words the form's own. */
export function formWords(values: unknown): string[] {
  const message = (issue: Issue) => (issue.code === "too_long" ? `At most ${issue.maximum} characters` : issue.message);
  const schema = forms.schemaFor("createFixedAsset", { labels: { fixed_asset_type_id: "Asset type" }, message, blankAsMissing: true });
  // @ts-expect-error: message is a function of an Issue
  forms.schemaFor("createTask", { message: "Required" });
  // @ts-expect-error: blankAsMissing is true or false
  forms.validate("createTask", {}, { blankAsMissing: "yes" });
  const out = schema["~standard"].validate(values);
  if (!out.issues) return [out.value.asset_name];
  return out.issues.map((issue) => (issue.code === "invalid_value" ? issue.allowed.join(", ") : issue.message));
}

/** An SvcError narrows by kind to that kind's members, and an Issue by code to its details: no `!` needed. */
export function narrowed(e: unknown): string {
  if (!(e instanceof SvcError)) return "";
  if (e.kind === "validation") return e.issues.map((i) => i.path.join(".")).join(", ");
  if (e.kind === "rate_limited") return String(e.retryAfterMs ?? 0);
  if (e.kind === "api") {
    const answered: [number | undefined, number | undefined, Record<string, string> | undefined] = [e.status, e.code, e.headers];
    // @ts-expect-error: an api error has no issues
    e.issues.map(String);
    return String(answered);
  }
  if (e.kind === "config") {
    // @ts-expect-error: a config error has no status
    const status: number = e.status;
    void status;
  }
  return `${e.kind} ${e.message} ${e.operationId}`;
}

export function detail(issue: Issue): string | number {
  switch (issue.code) {
    case "too_long":
      return issue.maximum;
    case "invalid_type":
      return issue.expected;
    case "invalid_value":
      return issue.allowed.join(", ");
    case "invalid_format":
      return `${issue.format} ${issue.allowed?.join(", ")}`;
    case "out_of_range":
      return issue.minimum;
    case "required":
      // @ts-expect-error: a required issue has no details
      return issue.maximum;
    default:
      return issue.message;
  }
}

const made = new SvcError("validation", "bad params", { issues: [] });
const madeIssues: Issue[] = made.issues;
// @ts-expect-error: not a kind
new SvcError("oops", "no such kind");
void madeIssues;

/** Issue 28: an api error's code compares with ErrorCode's literals; a list's promise iterates; a page fetches the next; viaProxy is a boolean. */
export async function surfaceOf28(c: Client, e: unknown): Promise<number> {
  const notFound: 1002 = ErrorCode.NOT_FOUND;
  const documented: ErrorCode = ErrorCode.PROJECT_HAS_EXPENSES;
  // @ts-expect-error: ErrorCode is read-only
  ErrorCode.NOT_FOUND = 1;
  // @ts-expect-error: no such documented code
  void ErrorCode.NOT_THERE;
  const missing = e instanceof SvcError && e.kind === "api" && e.code === ErrorCode.NOT_FOUND;
  let count = 0;
  for await (const a of c.listFixedAssets({ per_page: 10 })) {
    const id: string | undefined = a.fixed_asset_id;
    void id;
    count++;
  }
  const first = await c.listFixedAssets();
  const more: boolean = first.hasNextPage();
  const second: Page<FixedAssetListEntry> = await first.getNextPage();
  const everyAsset: FixedAssetListEntry[] = await c.listFixedAssets({ per_page: 200 }).toArray({ max: 10_000 });
  const fromSecond: FixedAssetListEntry[] = await second.toArray();
  // @ts-expect-error: max is a number of items
  await first.toArray({ max: "10" });
  // @ts-expect-error: a single resource's promise has no toArray
  await c.getAccount("1").toArray();
  void [everyAsset, fromSecond];
  // @ts-expect-error: a single resource's promise is not iterable
  for await (const x of c.getAccount("1")) void x;
  new Client({ apiDomain: "/api", viaProxy: true });
  // @ts-expect-error: viaProxy is a boolean
  new Client({ apiDomain: "/api", viaProxy: "yes" });
  return count + notFound + documented + Number(missing) + Number(more) + second.items.length;
}
