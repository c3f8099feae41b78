// A fresh Node process that imports one implementation and validates one body, then exits:
// `node bench/fresh-child.mjs <svc-sdk|zod|valibot|none> <sdk entry URL>`. Prints one JSON line with
// the milliseconds since the process started (performance.timeOrigin) at each step.
import { fixedAssetValid } from "./bodies.mjs";

const [lib, entry] = process.argv.slice(2);
const start = performance.now();
let ok = true;
let imported = start;
if (lib === "svc-sdk") {
  const { validate } = await import(entry);
  imported = performance.now();
  ok = validate("createFixedAsset", fixedAssetValid).ok;
} else if (lib !== "none") {
  const s = await import(`./schemas/${lib}.mjs`);
  imported = performance.now();
  ok = s.check(s.createFixedAsset, fixedAssetValid).ok;
}
const validated = performance.now();
console.log(JSON.stringify({ start, imported, validated, ok }));
