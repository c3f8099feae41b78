// The connections figure: a call through a connection (a client made per call, or kept) beside a plain
// `oauth` Client and a raw fetch, and the memory of many connections known to one process, against the
// release sandbox's accounts server (bench/connections-worker.mjs, in a process of its own).
import { spawnSync } from "node:child_process";
import { copyFileSync } from "node:fs";
import path from "node:path";
import { consumer, root, startSandbox } from "./lib.mjs";

export async function measureConnections({ calls, known }) {
  copyFileSync(path.join(root, "bench/connections-worker.mjs"), path.join(consumer, "connections-worker.mjs"));
  const sandbox = await startSandbox(["--no-rate-limit"]);
  try {
    const config = { url: sandbox.url, oauth: sandbox.oauth, calls, known };
    const run = spawnSync(process.execPath, ["--expose-gc", path.join(consumer, "connections-worker.mjs"), JSON.stringify(config)], { cwd: consumer, encoding: "utf8", maxBuffer: 1 << 24 });
    if (run.status !== 0) throw new Error(`the connections worker exited ${run.status}: ${run.stderr.trim().split("\n").slice(-5).join("\n")}`);
    return JSON.parse(run.stdout.trim().split("\n").pop());
  } finally {
    await sandbox.close();
  }
}
