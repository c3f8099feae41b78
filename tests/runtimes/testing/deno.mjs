// Deno host of svc-sdk/testing: `deno run deno.mjs` with no permission at all (the sandbox is
// in-process, its wasm imported as a module); prints the scenario's recorded answers as one JSON line.
import { Client, SvcError } from "svc-sdk";
import { Sandbox } from "svc-sdk/testing";
import { FAULTS, TOKENS, recorded, scenario } from "./scenario.mjs";

const sandbox = new Sandbox({ tokens: TOKENS });
const faulty = new Sandbox(FAULTS);
const log = [];
await scenario({ Client, SvcError }, sandbox.url, recorded(sandbox.fetch, sandbox.url, log), sandbox.organizationId, { url: faulty.url, fetch: recorded(faulty.fetch, faulty.url, log) });
console.log(JSON.stringify({ resolved: import.meta.resolve("svc-sdk/testing"), log }));
