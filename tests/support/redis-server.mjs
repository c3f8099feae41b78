// A real redis-server on 127.0.0.1 for a test (the fleet tests, issue 16): a free port (or the one
// asked for), no persistence, a fresh temp dir, and answering PING (from its own pid, checked with
// INFO server) before startRedis resolves.
// It is started like the harness's children (tests/runtimes/harness.mjs startChild: its own process
// group, its output kept for messages) and also under `setpriv --pdeathsig KILL`, so the kernel ends
// it when the test's process ends, even by a crash or SIGKILL: no test leaves a server behind.
// redis-server is Debian's package, installed by `npm test` (scripts/setup.mjs ensureRedis).
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = process.env.SVC_ROOT ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const h = await import(pathToFileURL(path.join(root, "tests/runtimes/harness.mjs")));
const { REDIS_SERVER } = await import(pathToFileURL(path.join(root, "scripts/setup.mjs")));
const SETPRIV = "/usr/bin/setpriv";
const KILL_AFTER_MS = 5000;

/**
 * Starts redis-server and resolves once it answers PING.
 * `port`: the port to listen on; without it, a free one (another is tried if that one is taken
 * before redis-server binds it). `timeoutMs`: how long to wait for the first PONG.
 * Resolves { url: "redis://127.0.0.1:PORT", port, stop(), restart(), output() }:
 * stop() sends SIGTERM and resolves when the server has exited (SIGKILL after 5 s); it does nothing
 * if the server is already stopped. restart() stops it if it runs, then starts it again on the same
 * port and resolves once it answers PING (data is not kept: there is no persistence).
 * output() is the server's last stdout and stderr, for assertion messages.
 */
export async function startRedis({ port, timeoutMs = 10_000 } = {}) {
  for (const [file, what] of [[REDIS_SERVER, "redis-server (node scripts/setup.mjs --redis installs it)"], [SETPRIV, "setpriv (util-linux)"]]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: ${what}`);
  }
  let server = null;
  for (let attempt = 1; ; attempt++) {
    const p = port ?? (await h.freePort());
    try {
      server = await launch(p, timeoutMs);
      break;
    } catch (error) {
      // A free port can be taken between freePort() and redis-server's bind: try another.
      if (port !== undefined || attempt === 3 || !error.addressInUse) throw error;
    }
  }
  const chosen = server.port;
  let last = server;
  return {
    url: `redis://127.0.0.1:${chosen}`,
    port: chosen,
    stop: async () => {
      if (server) await server.stop();
      server = null;
    },
    restart: async () => {
      if (server) await server.stop();
      server = null;
      server = last = await launch(chosen, timeoutMs);
    },
    output: () => last.output(),
  };
}

/** One redis-server process on `port`, answering PING; rejects (the process ended) if it does not. */
async function launch(port, timeoutMs) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "svc-redis-"));
  const args = [
    "--port", String(port),
    "--bind", "127.0.0.1",
    "--save", "",
    "--appendonly", "no",
    "--dir", dir,
    "--daemonize", "no",
    "--logfile", "",
  ];
  const c = h.startChild(SETPRIV, ["--pdeathsig", "KILL", REDIS_SERVER, ...args], { label: `redis-server :${port}` });
  let exited = false;
  c.exited.then(() => (exited = true));
  const cleanup = () => {
    try {
      process.kill(-c.child.pid, "SIGKILL");
    } catch {}
    rmSync(dir, { recursive: true, force: true });
  };
  // A test that forgets stop() must not keep its process alive: the server holds no reference to
  // the event loop while it runs (pdeathsig ends it when the process exits), only while it stops.
  process.once("exit", cleanup);
  const stop = async () => {
    c.child.ref();
    await c.stop(KILL_AFTER_MS);
    await c.exited;
    process.removeListener("exit", cleanup);
    rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) {
      await stop();
      const error = new Error(`redis-server exited before answering PING on 127.0.0.1:${port}\n${c.output()}`);
      error.addressInUse = /address already in use/i.test(c.output());
      throw error;
    }
    if (await ping(port, c.child.pid)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`redis-server did not answer PING on 127.0.0.1:${port} within ${timeoutMs} ms\n${c.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  c.child.unref();
  c.child.stdout.unref?.();
  c.child.stderr.unref?.();
  return { port, stop, output: c.output };
}

/**
 * Sends PING over a raw TCP connection, then INFO server: true if +PONG comes back within a second
 * from the process `pid` (setpriv execs redis-server, so that is the child's pid), not from another
 * server that already had the port.
 */
function ping(port, pid) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    let answer = "";
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\nINFO server\r\n"));
    socket.on("data", (d) => {
      answer += d;
      if (!answer.includes("\r\n")) return;
      if (!answer.startsWith("+PONG\r\n")) return done(false);
      const id = answer.match(/\r\nprocess_id:(\d+)\r\n/);
      if (id) done(Number(id[1]) === pid);
    });
    socket.once("end", () => done(false));
  });
}
