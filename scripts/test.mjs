// `npm test`: installs what is missing, runs the native tests, builds and packs the package,
// installs the tarball into a fresh consumer project exactly as a user would, and runs the JS,
// browser and edge-runtime tests there. The node test runner's summary is the last output.
// `npm run test:quick` (scripts/test-quick.mjs) takes the same steps but for the slow tiers.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { ensureChromium, ensureNodeModules, ensureRedis, ensureRust } from "./setup.mjs";
import { log, root, run } from "./lib.mjs";
import { consumer, packAndInstall } from "./consumer.mjs";

/**
 * The guardrails CI holds: formatted code; clippy clean with warnings denied for native code, the wasm
 * and the page build (each crate forbids unsafe code and denies unwrap and expect outside tests at
 * its root); no production file over 800 lines, no module cycle, tests apart from the code they test,
 * and a `//!` line opening every Rust file (scripts/guardrails.mjs); every path and command quoted in a
 * Markdown file resolves (scripts/docs-paths.mjs); the hand-written TypeScript of the declarations, the
 * partials of scripts/declarations/partials/, type-checks (tsc, about 2 s, before the build stitches it).
 */
export const GUARDRAILS = [
  ["cargo", ["fmt", "--all", "--check"]],
  ["cargo", ["clippy", "--quiet", "--workspace", "--all-targets", "--", "-D", "warnings"]],
  ["cargo", ["clippy", "--quiet", "--workspace", "--target", "wasm32-unknown-unknown", "--", "-D", "warnings"]],
  ["cargo", ["clippy", "--quiet", "-p", "svc-sdk", "--target", "wasm32-unknown-unknown", "--no-default-features", "--", "-D", "warnings"]],
  ["cargo", ["clippy", "--quiet", "-p", "svc-sdk", "--target", "wasm32-unknown-unknown", "--features", "cli", "--", "-D", "warnings"]],
  ["node", [path.join(root, "scripts/guardrails.mjs")]],
  ["node", [path.join(root, "scripts/docs-paths.mjs")]],
  ["node", [path.join(root, "node_modules/typescript/bin/tsc"), "-p", path.join(root, "scripts/declarations/partials")]],
];

/** The native tests: every crate of the workspace. */
export const NATIVE_TESTS = ["cargo", ["test", "--workspace", "--quiet"]];

/**
 * What puts a JS test file in a slow tier, by what it uses: Chromium (support/chromium.mjs, the demo
 * app's), redis-server, an example project installed and served (support/edge.mjs), or from the
 * runtimes' harness a runtime's project (workerd, Deno, a browser page), a Vite build, wrangler or a
 * tool of node_modules/.bin (tsc, deno).
 */
const SLOW = /support\/(chromium|demo-app|redis-server|edge)\.mjs|\bh\.(installRuntime|viteBuild|startWranglerDev|bin)\(/;

/** The JS test files, sorted; with `quick`, those of no slow tier. */
export function jsTestFiles({ quick = false } = {}) {
  const dir = path.join(root, "tests/js");
  const files = readdirSync(dir).filter((f) => f.endsWith(".test.mjs")).sort();
  return quick ? files.filter((f) => !SLOW.test(readFileSync(path.join(dir, f), "utf8"))) : files;
}

/** Installs what the build and the tests need; with `slow`, Debian's Chromium and redis-server too. */
export function setUp({ slow = true } = {}) {
  ensureRust();
  ensureNodeModules();
  if (slow) {
    ensureChromium();
    ensureRedis();
  }
}

/** Builds the sandbox and the package, checks the entries' size budgets (scripts/budgets.mjs), packs it and installs the tarball into the consumer project. */
export function buildAndInstall() {
  run("cargo", ["build", "--quiet", "-p", "sandbox"]);
  run("node", [path.join(root, "scripts/build.mjs")]);
  run("node", [path.join(root, "scripts/budgets.mjs")]);
  packAndInstall();
}

/** Runs `files` of tests/js in the consumer project, `concurrency` files at a time; resolves to the runner's exit status. */
export function runJsTests(files, { concurrency = 1 } = {}) {
  const child = spawn(
    process.execPath,
    ["--test", "--test-reporter=spec", `--test-concurrency=${concurrency}`, ...files],
    { cwd: consumer, stdio: "inherit", env: { ...process.env, SVC_ROOT: root, SVC_CONSUMER: consumer } },
  );
  return new Promise((resolve) => child.on("exit", (code) => resolve(code ?? 1)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  setUp();
  log("guardrails: cargo fmt --check, cargo clippy (native, wasm, page build), file lengths, module cycles, tests apart, //! lines, the docs' paths, the declarations' partials (tsc)");
  for (const step of GUARDRAILS) run(...step);
  log("native tests: cargo test --workspace");
  run(...NATIVE_TESTS);
  buildAndInstall();
  log("JS, browser and edge-runtime tests against the installed package");
  process.exit(await runJsTests(jsTestFiles()));
}
