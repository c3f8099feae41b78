// Before the validation benchmark: the three implementations give the same verdict and the same
// issue paths on the four bodies. `node bench/validate-check.mjs <sdk entry URL>`; prints one JSON
// line, per body and implementation "valid" or "N issues", and exits non-zero when they disagree.
import { CASES } from "./bodies.mjs";
import * as zod from "./schemas/zod.mjs";
import * as valibot from "./schemas/valibot.mjs";

const [entry] = process.argv.slice(2);
const { validate } = await import(entry);
const out = {};
const problems = [];
for (const c of CASES) {
  const s = validate(c.op, c.body);
  const results = {
    "svc-sdk": { ok: s.ok, paths: (s.issues ?? []).map((i) => i.path.join(".")) },
    zod: (({ ok, issues }) => ({ ok, paths: issues.map((i) => i.path.join(".")) }))(zod.check(zod[c.op], c.body)),
    valibot: (({ ok, issues }) => ({ ok, paths: issues.map((i) => i.path.join(".")) }))(valibot.check(valibot[c.op], c.body)),
  };
  out[c.name] = {};
  const want = [...results["svc-sdk"].paths].sort().join(" ");
  for (const [lib, r] of Object.entries(results)) {
    out[c.name][lib] = r.ok ? "valid" : `${r.paths.length} issues`;
    if (r.ok !== c.ok) problems.push(`${lib} on ${c.name}: expected ${c.ok ? "valid" : "invalid"}`);
    if ([...r.paths].sort().join(" ") !== want) problems.push(`${lib} on ${c.name}: issues at ${r.paths.join(", ")}; svc-sdk: ${want}`);
  }
}
if (problems.length) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log(JSON.stringify(out));
