// Deno host: `deno run --allow-net=127.0.0.1 smoke.mjs <apiDomain> <accessToken> <organizationId>`
// inside the consumer project. deno.json sets "nodeModulesDir": "manual", so "svc-sdk" resolves
// from the consumer's node_modules (npm install), with the package's `deno` export condition.
// Prints one JSON line.
import { smoke } from "../scenario.mjs";

const [apiDomain, accessToken, organizationId] = Deno.args;
const report = await smoke({ apiDomain, accessToken, organizationId });
report.runtime = { name: "deno", version: Deno.version.deno, resolved: import.meta.resolve("svc-sdk") };
console.log(JSON.stringify(report));
