// The types Rust declares (tsify models, and the typescript_custom_sections: error kinds, issue
// codes, limiter state, regions, plans, families), read from wasm-bindgen's svc_sdk.d.ts with the
// TypeScript parser. Only interfaces and type aliases are taken: wasm-bindgen's own declarations
// (init functions, the wasm's exports) stay out of the package's types. A response's kept unknown
// fields are typed by an intersection with `Record<string, unknown>` (or `unknown`); that member is
// dropped, so a misspelt field of an answer is a type error, while the fields stay at run time.
// A request type's declaration is taken as the Rust wrote it with its rules (`cargo run -p xtask -- declarations`).
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const WASM_BINDGEN_OWN = new Set(["InitInput", "InitOutput", "SyncInitInput"]);
const OPEN_ENDED = new Set(["Record<string, unknown>", "unknown"]);

/** `{ names, text }` of the model declarations in `pkg/svc_sdk.d.ts`; `requests`: name to declaration, in their place. */
export function readModels(pkg, requests) {
  const file = path.join(pkg, "svc_sdk.d.ts");
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const names = [];
  const parts = [];
  for (const node of source.statements) {
    if (!ts.isInterfaceDeclaration(node) && !ts.isTypeAliasDeclaration(node)) continue;
    const name = node.name.text;
    if (WASM_BINDGEN_OWN.has(name)) continue;
    names.push(name);
    parts.push(Object.hasOwn(requests, name) ? requests[name] : declaration(node, source));
  }
  const absent = Object.keys(requests).filter((n) => !names.includes(n));
  if (absent.length) throw new Error(`svc_sdk.d.ts does not declare the request types ${absent.join(", ")}`);
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (twice.length) throw new Error(`two Rust types share a TypeScript name: ${[...new Set(twice)].join(", ")}`);
  return { names, text: parts.join("\n\n") };
}

/** The declaration with its doc comment, less the open-ended member of a response's intersection. */
function declaration(node, source) {
  const text = source.getFullText();
  const docs = (ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [])
    .map((c) => text.slice(c.pos, c.end))
    .filter((c) => c.startsWith("/**"));
  return [...docs, body(node, source)].join("\n");
}

function body(node, source) {
  const text = node.getText(source);
  if (!ts.isTypeAliasDeclaration(node) || !ts.isIntersectionTypeNode(node.type)) return text;
  const kept = node.type.types.filter((t) => !OPEN_ENDED.has(t.getText(source)));
  if (kept.length === node.type.types.length) return text;
  const start = node.type.getStart(source) - node.getStart(source);
  const end = node.type.getEnd() - node.getStart(source);
  return text.slice(0, start) + kept.map((t) => t.getText(source)).join(" & ") + text.slice(end);
}
