// Packs the built package as `npm run pack` does and installs the tarball into a fresh consumer
// project (.tmp/consumer), exactly as a user installs it; the JS tests are copied in beside it.
// The consumer also depends on `redis`, svc-sdk's optional peer dependency, as a user who wants it
// adds it (`npm install redis`), and has the global types of a TypeScript user (Node's, Cloudflare's),
// Vitest for the testing examples, and React with react-hook-form and TanStack Form for the forms examples, each at the version pinned in our devDependencies (so from npm's cache).
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { root, run } from "./lib.mjs";
import { pack } from "./pack.mjs";

const tmp = path.join(root, ".tmp");
export const consumer = path.join(tmp, "consumer");

export function packAndInstall() {
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(consumer, { recursive: true });
  const tarball = path.basename(pack(tmp));
  const pinned = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).devDependencies;
  const ours = (...names) => Object.fromEntries(names.map((n) => [n, pinned[n]]));
  const dependencies = { "svc-sdk": `file:../${tarball}`, ...ours("redis") };
  const devDependencies = ours("@types/node", "@cloudflare/workers-types", "vitest", "react", "react-dom", "react-hook-form", "@hookform/resolvers", "@tanstack/react-form");
  writeFileSync(
    path.join(consumer, "package.json"),
    JSON.stringify({ name: "svc-sdk-consumer", private: true, type: "module", dependencies, devDependencies }, null, 2),
  );
  run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: consumer });
  cpSync(path.join(root, "tests/js"), consumer, { recursive: true });
  cpSync(path.join(root, "tests/support"), path.join(consumer, "support"), { recursive: true });
}

if (import.meta.url === `file://${process.argv[1]}`) packAndInstall();
