// The fleet figure: N worker processes (tests/support/fleet-worker.mjs, run from the bench's
// consumer project), one Client each, sharing one organization's limits through a real
// redis-server, against the release sandbox at its documented 100 a minute and 5 in flight.
// A worker that exits before the step is over ends the step at once with its exit code and the
// last lines of its stderr; the sandbox and redis-server are stopped either way.
import { spawn } from "node:child_process";
import { copyFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { consumer, root, startSandbox } from "./lib.mjs";
import { ensureRedis } from "../scripts/setup.mjs";

/** The worker and the modules it imports beside it, copied into the consumer project. */
const WORKER_FILES = ["fleet-worker.mjs", "scaled-clock.mjs"];

export async function measureFleet({ processes, seconds, callsEach, latencyMs, org }) {
  ensureRedis();
  process.env.SVC_ROOT ??= root;
  const { startRedis } = await import(pathToFileURL(path.join(root, "tests/support/redis-server.mjs")));
  for (const f of WORKER_FILES) copyFileSync(path.join(root, "tests/support", f), path.join(consumer, f));
  const workerFile = path.join(consumer, WORKER_FILES[0]);
  const redis = await startRedis();
  let sandbox = null;
  let workers = [];
  try {
    sandbox = await startSandbox(["--org", org, "--faults", "slow=1", "--slow-ms", String(latencyMs), "--seed", "1"]);
    const config = JSON.stringify({ redisUrl: redis.url, sandboxUrl: sandbox.url, organizationId: org, leaseMs: 10_000 });
    workers = Array.from({ length: processes }, (_, i) => worker(i, workerFile, config));
    let answered = 0;
    let failed = 0;
    const died = Promise.race(workers.map((w) => w.died));
    await Promise.race([Promise.all(workers.map((w) => w.ready)), died]);
    for (const w of workers) w.onDone = (ok) => (ok ? answered++ : failed++);
    const started = Date.now();
    workers.forEach((w, i) => w.child.stdin.write(JSON.stringify({ run: Array.from({ length: callsEach }, (_, j) => `bench-${i}-${j}`) }) + "\n"));
    let timer;
    await Promise.race([new Promise((r) => (timer = setTimeout(r, seconds * 1000))), died]).finally(() => clearTimeout(timer));
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
    for (const w of workers) w.stop();
    await sandbox?.close();
    await redis.stop();
  }
}

/**
 * One worker process: `ready` resolves on its ready line; `died` rejects when it exits before
 * `stop()`, with its exit code or signal and the last lines of its stderr (which it also passes on).
 */
function worker(index, file, config) {
  const child = spawn(process.execPath, [file, config], { cwd: consumer, stdio: ["pipe", "pipe", "pipe"] });
  const w = { child, onDone: () => {}, stopping: false };
  let err = "";
  child.stderr.on("data", (c) => {
    process.stderr.write(c);
    err = (err + c).slice(-4000);
  });
  w.ready = new Promise((resolve) => {
    let rest = "";
    child.stdout.on("data", (c) => {
      rest += c;
      const lines = rest.split("\n");
      rest = lines.pop();
      for (const l of lines.filter(Boolean).map((x) => JSON.parse(x))) {
        if (l.ready) resolve();
        if (l.done !== undefined) w.onDone(l.ok);
      }
    });
  });
  w.died = new Promise((_, reject) => {
    const fail = (why) => {
      if (w.stopping) return;
      // The last lines that say something: a stack's frames and Node's version line left out.
      const said = err.split("\n").filter((l) => l.trim() && !/^\s+at /.test(l) && !/^Node\.js v/.test(l));
      const last = said.slice(-6).join("\n");
      reject(new Error(`fleet worker ${index} (pid ${child.pid}) ${why} before the step was over${last ? `; its stderr ends:\n${last}` : " (no stderr)"}`));
    };
    child.on("error", (e) => fail(`could not run: ${e.message}`));
    child.on("close", (code, signal) => fail(signal ? `was ended by ${signal}` : `exited with code ${code}`));
  });
  w.died.catch(() => {});
  w.stop = () => {
    w.stopping = true;
    child.kill("SIGKILL");
  };
  return w;
}
