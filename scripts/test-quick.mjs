// `npm run test:quick`, the edit-test loop: the steps of `npm test` (scripts/test.mjs) but for the
// slow tiers. Every native test and, beside them, the plain Node tests of tests/js against the
// installed package; not the tests that need Chromium, redis-server, workerd, Deno, tsc or an example
// project, which `npm test` (what CI runs) adds.
import { spawn } from "node:child_process";
import { log, root } from "./lib.mjs";
import { NATIVE_TESTS, buildAndInstall, jsTestFiles, runJsTests, setUp } from "./test.mjs";

const started = performance.now();
const seconds = () => ((performance.now() - started) / 1000).toFixed(0);
setUp({ slow: false });
buildAndInstall();
log(`built and installed in ${seconds()} s`);

// The native tests run while the JS tests wait on their loopback servers; their output is held
// until they end, so that it does not cut through the JS tests'.
const [cmd, args] = NATIVE_TESTS;
const cargo = spawn(cmd, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
let nativeOutput = "";
cargo.stdout.on("data", (c) => (nativeOutput += c));
cargo.stderr.on("data", (c) => (nativeOutput += c));
const native = new Promise((resolve) => cargo.on("exit", (code) => resolve(code ?? 1)));

const files = jsTestFiles({ quick: true });
log(`native tests (cargo test --workspace), and the plain Node tests against the installed package: ${files.length} of ${jsTestFiles().length} files, two at a time`);
const js = await runJsTests(files, { concurrency: 2 });
const nativeStatus = await native;
log(`native tests (cargo test --workspace) ${nativeStatus === 0 ? "passed" : "failed"}:`);
process.stderr.write(nativeOutput);
const status = js || nativeStatus;
log(`test:quick ${status === 0 ? "passed" : "failed"} in ${seconds()} s (native ${nativeStatus === 0 ? "passed" : "failed"}, JS ${js === 0 ? "passed" : "failed"})`);
process.exit(status);
