// The authentication figure: the same fleet of Node processes with oauth, each on its own (every process
// refreshes for itself) and sharing one redis store (one refresh for the fleet), against the release
// sandbox's accounts server with short-lived tokens: refreshes granted, "Access Denied" answers, API 401s
// and failed calls, side by side.
import { spawn } from "node:child_process";
import { copyFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { consumer, root, startSandbox } from "./lib.mjs";
import { ensureRedis } from "../scripts/setup.mjs";

/** Runs one process per `processes` with `config`; resolves with each one's counts. */
function fleet(processes, config) {
  const workerFile = path.join(consumer, "auth-worker.mjs");
  const runs = Array.from({ length: processes }, () => {
    const w = spawn(process.execPath, [workerFile, JSON.stringify(config)], { cwd: consumer, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    w.stdout.on("data", (c) => (out += c));
    w.stderr.on("data", (c) => (err += c));
    return new Promise((resolve, reject) =>
      w.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").pop())) : reject(new Error(`an auth worker exited ${code}: ${err.trim().split("\n").slice(-5).join("\n")}`)))),
    );
  });
  return Promise.all(runs);
}

/** The fleet of `processes` for `seconds`, tokens living `lifetimeMs`, alone and then with a store. */
export async function measureAuth({ processes, seconds, lifetimeMs, everyMs, org }) {
  ensureRedis();
  process.env.SVC_ROOT ??= root;
  const { startRedis } = await import(pathToFileURL(path.join(root, "tests/support/redis-server.mjs")));
  copyFileSync(path.join(root, "bench/auth-worker.mjs"), path.join(consumer, "auth-worker.mjs"));
  const out = { processes, seconds, lifetimeMs, everyMs, modes: {} };
  for (const mode of ["alone", "store"]) {
    const redis = mode === "store" ? await startRedis() : undefined;
    const sandbox = await startSandbox(["--org", org, "--no-rate-limit", "--oauth-token-lifetime-ms", String(lifetimeMs)]);
    try {
      const config = { oauth: sandbox.oauth, org, seconds, everyMs, deadlineMs: 10_000, redisUrl: redis?.url };
      const counts = await fleet(processes, config);
      const accounts = await (await fetch(`${sandbox.url}/__sandbox/accounts`)).json();
      const failed = {};
      for (const c of counts) for (const [k, n] of Object.entries(c.failed)) failed[k] = (failed[k] ?? 0) + n;
      out.modes[mode] = {
        calls: counts.reduce((n, c) => n + c.ok + Object.values(c.failed).reduce((a, b) => a + b, 0), 0),
        ok: counts.reduce((n, c) => n + c.ok, 0),
        failed,
        granted: accounts.refreshes.granted,
        accessDenied: accounts.refreshes.access_denied,
        api401: accounts.api_401.expired + accounts.api_401.revoked,
        peakLive: accounts.refresh_tokens[sandbox.oauth.refreshToken].peak_live_tokens,
      };
    } finally {
      await sandbox.close();
      await redis?.stop();
    }
  }
  return out;
}
