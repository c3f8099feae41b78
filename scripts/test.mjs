// `npm test`: installs what is missing, runs the native tests, builds and packs the package,
// installs the tarball into a fresh consumer project exactly as a user would, and runs the JS,
// browser and edge-runtime tests there. The node test runner's summary is the last output.
import { readdirSync } from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { ensureChromium, ensureNodeModules, ensureRedis, ensureRust } from "./setup.mjs";
import { log, root, run } from "./lib.mjs";
import { consumer, packAndInstall } from "./consumer.mjs";


ensureRust();
ensureNodeModules();
ensureChromium();
ensureRedis();

log("native tests: cargo test --workspace");
run("cargo", ["test", "--workspace", "--quiet"]);
run("cargo", ["build", "--quiet", "-p", "sandbox"]);

run("node", [path.join(root, "scripts/build.mjs")]);

packAndInstall();

log("JS, browser and edge-runtime tests against the installed package");
const files = readdirSync(path.join(root, "tests/js")).filter((f) => f.endsWith(".test.mjs")).sort();
const r = spawnSync(
  process.execPath,
  ["--test", "--test-reporter=spec", "--test-concurrency=1", ...files],
  { cwd: consumer, stdio: "inherit", env: { ...process.env, SVC_ROOT: root, SVC_CONSUMER: consumer } },
);
process.exit(r.status ?? 1);
