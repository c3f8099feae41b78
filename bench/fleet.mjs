// The fleet figure: N worker processes (tests/support/fleet-worker.mjs, run from the bench's
// consumer project), one Client each, sharing one organization's limits through a real
// redis-server, against the release sandbox at its documented 100 a minute and 5 in flight.
import { spawn } from "node:child_process";
import { copyFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { consumer, root, startSandbox } from "./lib.mjs";
import { ensureRedis } from "../scripts/setup.mjs";

export async function measureFleet({ processes, seconds, callsEach, latencyMs, org }) {
  ensureRedis();
  process.env.SVC_ROOT ??= root;
  const { startRedis } = await import(pathToFileURL(path.join(root, "tests/support/redis-server.mjs")));
  const workerFile = path.join(consumer, "fleet-worker.mjs");
  copyFileSync(path.join(root, "tests/support/fleet-worker.mjs"), workerFile);
  const redis = await startRedis();
  const sandbox = await startSandbox(["--org", org, "--faults", "slow=1", "--slow-ms", String(latencyMs), "--seed", "1"]);
  const config = JSON.stringify({ redisUrl: redis.url, sandboxUrl: sandbox.url, organizationId: org, leaseMs: 10_000 });
  const workers = Array.from({ length: processes }, () => spawn(process.execPath, [workerFile, config], { cwd: consumer, stdio: ["pipe", "pipe", "inherit"] }));
  let answered = 0;
  let failed = 0;
  try {
    await Promise.all(
      workers.map(
        (w) =>
          new Promise((resolve) => {
            let rest = "";
            w.stdout.on("data", (c) => {
              rest += c;
              const lines = rest.split("\n");
              rest = lines.pop();
              for (const l of lines.filter(Boolean).map((x) => JSON.parse(x))) {
                if (l.ready) resolve();
                if (l.done !== undefined) l.ok ? answered++ : failed++;
              }
            });
          }),
      ),
    );
    const started = Date.now();
    workers.forEach((w, i) => w.stdin.write(JSON.stringify({ run: Array.from({ length: callsEach }, (_, j) => `bench-${i}-${j}`) }) + "\n"));
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const elapsedMs = Date.now() - started;
    const counters = await sandbox.counters();
    const created = counters.operations.createAccount ?? { received: 0, statuses: {} };
    return {
      processes,
      queued: processes * callsEach,
      latencyMs,
      elapsedMs,
      received: created.received,
      statuses: created.statuses,
      peakInFlight: counters.peak_in_flight[org],
      answered,
      failed,
      limitPerMinute: 100,
    };
  } finally {
    for (const w of workers) w.kill("SIGKILL");
    await sandbox.close();
    await redis.stop();
  }
}
