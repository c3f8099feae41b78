// Class 4 of the hardening issue: a receiver verifies unless told in so many words not to; an unset
// variable can never turn verification off.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseEvent, parseWatchNotification } from "svc-sdk";
import { setUp, stillWorks, svcError, thrown } from "./support/hardening.mjs";

const env = setUp();
const body = JSON.stringify({ module: "Deals", operation: "update", channel_id: "1", token: "chan-secret" });

test("a missing, null, empty or non-string token is a config error, never a pass", async () => {
  const options = [undefined, null, {}, { token: undefined }, { token: null }, { token: "" }, { token: 1 }, { token: ["chan-secret"] }, { token: { toString: () => "chan-secret" } }, "chan-secret", ["chan-secret"]];
  for (const o of options) {
    const e = thrown(() => parseWatchNotification(body, o), svcError("config", "chan-secret"));
    if (o === undefined || (o !== null && typeof o === "object" && !Array.isArray(o) && o.token === undefined)) assert.match(e.message, /skipVerification/);
  }
  await stillWorks(env);
});

test("skipVerification: true reads without verifying; anything else about it is a config error", async () => {
  assert.equal(parseWatchNotification(body, { skipVerification: true }).channel_id, "1");
  for (const o of [{ skipVerification: false }, { skipVerification: "true" }, { skipVerification: 1 }, { skipVerification: true, token: "chan-secret" }]) {
    thrown(() => parseWatchNotification(body, o), svcError("config", "chan-secret"));
  }
  await stillWorks(env);
});

test("the right token passes, a wrong one is a verification error; unknown options and bad limits are config errors", async () => {
  assert.equal(parseWatchNotification(body, { token: "chan-secret" }).module, "Deals");
  for (const wrong of ["chan-secreT", "chan-secret ", "x", "chan-secret-and-more"]) {
    thrown(() => parseWatchNotification(body, { token: wrong }), svcError("verification", "chan-secret"));
  }
  thrown(() => parseWatchNotification(body, { token: "chan-secret", verify: false }), svcError("config", "chan-secret"));
  thrown(() => parseEvent("{}", { skipVerification: true, verify: false }), svcError("config"));
  thrown(() => parseEvent("{}", 5), svcError("config"));
  for (const maxBodyBytes of [0, -1, 0.5, "10", null, 2 ** 40]) {
    thrown(() => parseWatchNotification(body, { token: "chan-secret", maxBodyBytes }), svcError("config", "chan-secret"));
    thrown(() => parseEvent("{}", { skipVerification: true, maxBodyBytes }), svcError("config"));
  }
  await stillWorks(env);
});
