// svc-sdk/testing: the shared scenario (tests/runtimes/testing/scenario.mjs, without its 429 step, whose
// Retry-After waits are the sandbox's, not ours) against a new in-process sandbox and against a new release
// binary over loopback, in turns: `node bench/testing-worker.mjs <sdk entry URL> <rounds>`. Prints one JSON
// line: the ms of importing the entry, of `new Sandbox()`, and per round of each scenario.
import { performance } from "node:perf_hooks";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { root, startSandbox } from "./lib.mjs";

const [entry, roundsArg = "7"] = process.argv.slice(2);
const sdk = await import(entry);
const t = performance.now();
const { Sandbox } = await import(new URL("./testing/node.js", entry));
const importMs = performance.now() - t;
const { BINARY_FLAGS, TOKENS, scenario } = await import(pathToFileURL(path.join(root, "tests/runtimes/testing/scenario.mjs")));

const newSandbox = [];
const rounds = { inProcess: [], loopback: [], requests: 0 };
for (let r = 0; r < Number(roundsArg); r++) {
  let t0 = performance.now();
  const sandbox = new Sandbox({ tokens: TOKENS });
  newSandbox.push(performance.now() - t0);
  t0 = performance.now();
  await scenario(sdk, sandbox.url, sandbox.fetch, sandbox.organizationId);
  rounds.inProcess.push(performance.now() - t0);
  const log = sandbox.requests();
  rounds.requests = log.length + log.dropped;
  const binary = await startSandbox(BINARY_FLAGS.tokens);
  try {
    t0 = performance.now();
    await scenario(sdk, binary.url, fetch, "10234695");
    rounds.loopback.push(performance.now() - t0);
  } finally {
    await binary.close();
  }
}
console.log(JSON.stringify({ importMs, newSandbox, rounds }));
