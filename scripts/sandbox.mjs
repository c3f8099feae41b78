// `npm run sandbox [-- flags]`: builds and runs the local sandbox service (default port 8787).
import { spawn } from "node:child_process";
import path from "node:path";
import { root, run } from "./lib.mjs";

run("cargo", ["build", "--release", "--quiet", "-p", "sandbox"]);
const args = process.argv.slice(2);
const child = spawn(path.join(root, "target/release/sandbox"), args.includes("--port") ? args : ["--port", "8787", ...args], {
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
