// Your code's test against the in-process sandbox, with Vitest: `npx vitest run`.
import { beforeEach, expect, test } from "vitest";
import { Client } from "svc-sdk";
import { Sandbox } from "svc-sdk/testing";

const sandbox = new Sandbox({ faults: "429=1", seed: 1 });
const client = new Client({ accessToken: "dev-token", organizationId: sandbox.organizationId, apiDomain: sandbox.url, fetch: sandbox.fetch, maxRetries: 0, rateLimit: false });

beforeEach(() => sandbox.reset());

test("a 429 from the service is a rate_limited error with its Retry-After", async () => {
  await expect(client.listAccounts()).rejects.toMatchObject({ kind: "rate_limited", retryAfterMs: 1000 });
  expect(sandbox.requests()).toHaveLength(1);
});
