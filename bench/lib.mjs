// Shared pieces of the benchmarks: what to build, the installed package, the sandbox, statistics.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { log, output, root, run } from "../scripts/lib.mjs";
import { pack } from "../scripts/pack.mjs";
import { startSandbox as startTestSandbox } from "../tests/support/sandbox.mjs";

export { log, root, run };

/** Scratch space of the benchmarks (inside target/, which git ignores). */
export const work = path.join(root, "target/bench");
/** A project with the packed package installed, as a user installs it. */
export const consumer = path.join(work, "consumer");
export const pkgDir = path.join(root, "pkg");
export const sandboxBin = path.join(root, "target/release/sandbox");

/** Builds pkg/ with scripts/build.mjs when it is missing. */
export function ensurePackage() {
  if (existsSync(path.join(pkgDir, "node.js")) && existsSync(path.join(pkgDir, "validate/node.js"))) return false;
  log("bench: pkg/ is missing, building it (scripts/build.mjs)");
  run(process.execPath, [path.join(root, "scripts/build.mjs")]);
  return true;
}

/** Builds the release sandbox: cargo builds what changed, nothing when it is current. */
export function ensureSandbox() {
  log("bench: cargo build --release -p sandbox");
  run("cargo", ["build", "--release", "-p", "sandbox"]);
  return true;
}

const same = (a, b) => existsSync(a) && existsSync(b) && readFileSync(a).equals(readFileSync(b));

/** Every file under `dir`, as paths relative to it. */
export function filesUnder(dir) {
  return readdirSync(dir, { recursive: true }).filter((f) => statSync(path.join(dir, f)).isFile());
}

/**
 * Packs the package as `npm run pack` does and installs the tarball into target/bench/consumer, as
 * scripts/consumer.mjs does for the tests, but in a place of its own: consumer.mjs starts by
 * removing .tmp/, where a test run may be going on at the same time. Skipped when the installed
 * package already holds the same wasm and glue as pkg/.
 */
export function ensureConsumer() {
  const installed = path.join(consumer, "node_modules/svc-sdk/pkg");
  const current = existsSync(installed) && filesUnder(installed).length === filesUnder(pkgDir).length && filesUnder(pkgDir).every((f) => same(path.join(pkgDir, f), path.join(installed, f)));
  if (current && existsSync(path.join(consumer, "node_modules/redis"))) return false;
  log("bench: packing pkg/ and installing it into target/bench/consumer");
  rmSync(consumer, { recursive: true, force: true });
  mkdirSync(consumer, { recursive: true });
  for (const f of readdirSync(work)) if (f.endsWith(".tgz")) rmSync(path.join(work, f));
  const tarball = path.basename(pack(work));
  writeFileSync(
    path.join(consumer, "package.json"),
    JSON.stringify({ name: "svc-sdk-bench-consumer", private: true, type: "module", dependencies: { "svc-sdk": `file:../${tarball}`, redis: devRedis() } }, null, 2),
  );
  run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: consumer });
  return true;
}

/** The redis client version the tests pin, for the fleet workers. */
function devRedis() {
  return JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).devDependencies.redis;
}

/** The installed package's Node entry, resolved from the consumer project like `import "svc-sdk"` (the ESM entry, not `require`'s). */
export function sdkEntry() {
  const url = output(process.execPath, ["--input-type=module", "-e", 'console.log(import.meta.resolve("svc-sdk"))'], { cwd: consumer });
  if (!url?.startsWith("file:")) throw new Error(`svc-sdk does not resolve from ${consumer}`);
  return url;
}

/** Starts the release sandbox on a free loopback port; it exits when this process does (stdin pipe). */
export const startSandbox = (args = []) => startTestSandbox(args, { bin: sandboxBin });

// ---- statistics ----

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/** The median of the per-round ratios a[i] / b[i]: each round times both, one right after the other, so a
 * slow drift of a shared machine's speed cancels out of the ratio. */
export function pairedRatio(a, b) {
  return median(a.map((x, i) => x / b[i]));
}

export function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))))];
}

/** "min–max" of a list, formatted. */
export const spread = (xs, fmt) => `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`;

export const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
export const ms = (n) => `${n.toFixed(n < 10 ? 2 : 1)} ms`;
export const us = (n) => `${n.toFixed(n < 100 ? 1 : 0)} µs`;
export const ops = (n) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)} M/s` : `${(n / 1e3).toFixed(1)} k/s`);
export const x = (n) => `${n.toFixed(2)}×`;

/** Runs `node file args` and returns its stdout parsed as JSON (the last line). */
export function nodeJson(file, args = [], opts = {}) {
  const r = spawnSync(process.execPath, [file, ...args], { encoding: "utf8", cwd: root, maxBuffer: 64 << 20, ...opts });
  if (r.status !== 0) throw new Error(`${path.basename(file)} ${args.join(" ")} failed (exit ${r.status}):\n${r.stderr}`);
  const lines = r.stdout.trim().split("\n");
  return JSON.parse(lines[lines.length - 1]);
}

// ---- the machine ----

export function machine() {
  const cpus = os.cpus();
  let distro = `${os.type()} ${os.release()}`;
  try {
    const rel = readFileSync("/etc/os-release", "utf8").match(/^PRETTY_NAME="?([^"\n]*)"?/m);
    if (rel) distro = `${rel[1]} (kernel ${os.release()})`;
  } catch {}
  return {
    cpu: cpus[0]?.model ?? "unknown",
    cores: cpus.length,
    ram: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    os: distro,
    node: process.version,
    rustc: output("rustc", ["--version"]) ?? "unknown",
    load: os.loadavg().map((l) => l.toFixed(2)).join(", "),
  };
}
