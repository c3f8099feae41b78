// `npm run pack`: the tarball a user installs (and the one to publish), packed from a staging copy
// (<dest>/package) of the files npm would ship, whose package.json keeps what a user's tools read and
// drops what only this repository can run (scripts, devDependencies, private).
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { log, output, root, run } from "./lib.mjs";

/** Fields of the root package.json that stay out of the package. */
const DEVELOPMENT = ["scripts", "devDependencies", "private"];

/** Packs the built package into `dest` (staged in `dest`/package); returns the tarball's path. */
export function pack(dest = path.join(root, ".tmp")) {
  const listed = output("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root });
  if (listed === null) throw new Error("npm pack --dry-run failed: run `npm run build` first");
  const files = JSON.parse(listed)[0].files.map((f) => f.path);
  const stage = path.join(dest, "package");
  rmSync(stage, { recursive: true, force: true });
  for (const f of files) {
    mkdirSync(path.dirname(path.join(stage, f)), { recursive: true });
    cpSync(path.join(root, f), path.join(stage, f));
  }
  const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  for (const key of DEVELOPMENT) delete manifest[key];
  writeFileSync(path.join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  mkdirSync(dest, { recursive: true });
  run("npm", ["pack", "--silent", "--pack-destination", dest], { cwd: stage, stdio: ["ignore", "ignore", "inherit"] });
  const tarball = path.join(dest, `${manifest.name}-${manifest.version}.tgz`);
  log(`packed ${path.relative(root, tarball)} (${files.length} files)`);
  return tarball;
}

if (import.meta.url === `file://${process.argv[1]}`) pack();
