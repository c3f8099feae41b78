// Installs what the build and the tests need, skipping whatever is already there:
// the wasm32 target, the pinned wasm-bindgen CLI, npm dependencies, and (with --browser) Chromium
// and (with --redis) redis-server, both from Debian's packages.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { log, output, root, run } from "./lib.mjs";

export const WASM_BINDGEN_VERSION = readFileSync(path.join(root, "Cargo.toml"), "utf8").match(
  /wasm-bindgen = "=([0-9.]+)"/,
)[1];

export function ensureRust() {
  const targets = output("rustup", ["target", "list", "--installed"]) ?? "";
  if (!targets.split("\n").includes("wasm32-unknown-unknown")) {
    log("installing the wasm32-unknown-unknown target");
    run("rustup", ["target", "add", "wasm32-unknown-unknown"]);
  }
  const components = output("rustup", ["component", "list", "--installed"]) ?? "";
  const missing = ["clippy", "rustfmt"].filter((c) => !components.split("\n").some((l) => l.startsWith(`${c}-`)));
  if (missing.length > 0) {
    log(`installing the rustup components ${missing.join(", ")} (the guardrails npm test runs)`);
    run("rustup", ["component", "add", ...missing]);
  }
  const version = output("wasm-bindgen", ["--version"]) ?? "";
  if (!version.includes(WASM_BINDGEN_VERSION)) {
    log(`installing wasm-bindgen-cli ${WASM_BINDGEN_VERSION} (a few minutes, once)`);
    run("cargo", ["install", "wasm-bindgen-cli", "--version", WASM_BINDGEN_VERSION]);
  }
}

export function ensureNodeModules() {
  const lock = path.join(root, "package-lock.json");
  const marker = path.join(root, "node_modules", ".package-lock.json");
  const stale = !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs);
  if (stale) {
    log("installing npm dependencies");
    run("npm", [existsSync(lock) ? "ci" : "install", "--no-audit", "--no-fund", "--loglevel=error"]);
  }
}

/** apt-get update, then apt-get install the packages: as root, or through sudo. */
function aptInstall(packages) {
  const sudo = process.getuid && process.getuid() !== 0 ? ["sudo"] : [];
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const apt = (args) => (sudo.length ? run("sudo", ["apt-get", ...args], { env }) : run("apt-get", args, { env }));
  apt(["update", "-qq"]);
  apt(["install", "-y", "-qq", ...packages]);
}

export function ensureChromium() {
  if (existsSync("/usr/bin/chromium")) return;
  log("installing Debian's chromium and chromium-driver");
  aptInstall(["chromium", "chromium-driver"]);
}

/** The real Redis server the fleet tests run (tests/support/redis-server.mjs); returns its path. */
export const REDIS_SERVER = "/usr/bin/redis-server";

export function ensureRedis() {
  if (!existsSync(REDIS_SERVER)) {
    log("installing Debian's redis-server");
    aptInstall(["redis-server"]);
  }
  return REDIS_SERVER;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureRust();
  ensureNodeModules();
  if (process.argv.includes("--browser")) ensureChromium();
  if (process.argv.includes("--redis")) ensureRedis();
}
