// Runs one SDK workload in a loop under `node --cpu-prof`, on a build of the package whose wasm keeps
// its function names (wasm-opt -Oz -g), so that the profile names the Rust functions:
// `node --cpu-prof bench/profile-worker.mjs <named dir> <workload> <arg> <ms>`: the workload is decode
// (arg: the list file), call (arg: the sandbox URL), raw-call (the same request with a bare fetch),
// validate-fixed-asset, validate-watch or validate-organization.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { fixedAssetValid, organizationValid, watchValid } from "./bodies.mjs";

const [dir, workload, arg, msArg = "2500"] = process.argv.slice(2);
const glue = await import(pathToFileURL(path.join(dir, "node.js")).href);
const ms = Number(msArg);

let n = 0;
const start = performance.now();
if (workload === "decode") {
  const text = readFileSync(arg, "utf8");
  const headers = { "content-type": "application/json;charset=UTF-8" };
  const client = new glue.Client({
    accessToken: "bench-token", organizationId: "10234695", apiDomain: "http://127.0.0.1:9", rateLimit: false, maxRetries: 0,
    fetch: async () => new Response(text, { status: 200, headers }),
  });
  while (performance.now() - start < ms) {
    await client.listPackages({ per_page: 200 });
    n++;
  }
} else if (workload === "call" || workload === "raw-call") {
  const client = new glue.Client({ accessToken: "dev-token", organizationId: "10234695", apiDomain: arg, rateLimit: false, maxRetries: 0 });
  const id = (await client.listCurrencies()).items[0].currency_id;
  const prepared = await client.prepare("getCurrency", id);
  const headers = { ...prepared.headers, Authorization: "Svc-oauthtoken dev-token" };
  const raw = async () => (await (await fetch(prepared.url, { headers })).json()).currency;
  const call = workload === "call" ? () => client.getCurrency(id) : raw;
  while (performance.now() - start < ms) {
    await call();
    n++;
  }
} else {
  const [op, body] = {
    "validate-watch": ["updateNotificationChannels", watchValid],
    "validate-organization": ["createOrganization", organizationValid],
  }[workload] ?? ["createFixedAsset", fixedAssetValid];
  while (performance.now() - start < ms) {
    for (let i = 0; i < 100; i++) glue.validate(op, body);
    n += 100;
  }
}
console.log(JSON.stringify({ workload, calls: n, ms: performance.now() - start }));
