// A CommonJS user of the installed package: `node --no-experimental-require-module
// commonjs-client.cjs <apiDomain> <accessToken> <organizationId>` (so no require(esm) can help).
// It requires svc-sdk and svc-sdk/redis, validates, calls the service once, and prints one JSON line.
"use strict";
const { Client, SvcError, validate } = require("svc-sdk");
const { redisStore } = require("svc-sdk/redis");

function described(e) {
  return { instanceofSvcError: e instanceof SvcError, kind: e?.kind, message: String(e?.message ?? e) };
}

async function main([apiDomain, accessToken, organizationId]) {
  const report = { resolved: require.resolve("svc-sdk"), redisResolved: require.resolve("svc-sdk/redis") };
  report.validate = validate("createTask", { task_name: "" });
  const client = new Client({ accessToken, organizationId, apiDomain, maxRetries: 0 });
  const page = await client.listCurrencies();
  report.currencies = page.items.map((c) => c.currency_code);
  report.invalid = await client.createTask("460000000044001", { task_name: "" }).then(() => null, described);
  try {
    redisStore({});
  } catch (e) {
    report.redisConfig = described(e);
  }
  return report;
}

main(process.argv.slice(2)).then(
  (report) => console.log(JSON.stringify(report)),
  (e) => {
    console.error(e);
    process.exitCode = 1;
  },
);
