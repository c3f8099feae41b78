// Minifies the package's JS in place with esbuild; names are kept, so SvcError and the methods keep theirs.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { transformSync } from "esbuild";

export function minifyText(code) {
  return transformSync(code, { minify: true, keepNames: true, format: "esm", target: "es2022", supported: { "import-source": true }, legalComments: "none" }).code;
}

/** Every .js file under `dir`, minified where it lies. */
export function minifyTree(dir) {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) minifyTree(p);
    else if (name.endsWith(".js")) writeFileSync(p, minifyText(readFileSync(p, "utf8")));
  }
}
