// Starts the sandbox binary on 127.0.0.1 for a test: it exits when the test's process does (stdin pipe).
// `quiet: false` keeps its request log, which `log()` returns; `bin` picks another build (the benchmarks' release one).
import { spawn } from "node:child_process";
import path from "node:path";

export async function startSandbox(args = [], { quiet = true, bin = path.join(process.env.SVC_ROOT, "target/debug/sandbox") } = {}) {
  const child = spawn(bin, ["--port", "0", "--exit-on-stdin-eof", ...(quiet ? ["--quiet"] : []), ...args], { stdio: ["pipe", "pipe", "pipe"] });
  let log = "";
  child.stderr.on("data", (c) => (log += c));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the sandbox did not start:\n${log}`)), 15_000);
    child.on("exit", (code) => reject(new Error(`the sandbox exited (${code}):\n${log}`)));
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
      const m = out.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  const admin = async (method, p, body) => {
    const res = await fetch(url + p, { method, headers: { "content-type": "application/json" }, body: body && JSON.stringify(body) });
    return res.json();
  };
  // The demo OAuth client of its accounts server (none with --oauth-no-demo-client).
  const demo = (await admin("GET", "/__sandbox/accounts")).demo_client;
  const oauth = demo && { clientId: demo.client_id, clientSecret: demo.client_secret, refreshToken: demo.refresh_token, accountsUrl: url };
  return {
    url,
    /** The demo OAuth client: { clientId, clientSecret, refreshToken, accountsUrl }. */
    oauth,
    log: () => log,
    counters: () => admin("GET", "/__sandbox/counters"),
    resetCounters: () => admin("POST", "/__sandbox/reset-counters"),
    crm: (module, operation, records) => admin("POST", `/__sandbox/crm/${module}/${operation}`, { records }),
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.on("exit", resolve);
        child.stdin.end();
        setTimeout(() => child.kill("SIGKILL"), 3000).unref();
      }),
  };
}
