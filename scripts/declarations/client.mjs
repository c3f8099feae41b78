// What the catalog rows declare: OperationId, each operation's params and arguments, and one Client
// method per row (path params first, then params, then the call's options).

function camel(s) {
  return s.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
}

/** An operation's arguments before its call options: each path param (an id as a string or a BigInt), then params (optional unless required). */
function args(op, t) {
  const params = `params${t.paramsRequired ? "" : "?"}: ${t.params ?? "Record<string, unknown>"}`;
  return [...op.pathParams.map((p) => `${camel(p)}: ${p.endsWith("_id") ? "IdInput" : "string"}`), params];
}

const pascal = (s) => s[0].toUpperCase() + s.slice(1);

function method(op, t, name = op.id, family = undefined) {
  const result = t.result ?? "Record<string, unknown>";
  const promise = t.list ? `PagePromise<${result}>` : `APIPromise<${result}>`;
  const summary = t.summary ? `${t.summary.replace(/\.$/, "")}.
   *
   * ` : "";
  const call = family ? t.example?.replace(`client.${op.id}(`, `client.${family}.${name}(`) : t.example;
  const example = call ? `
   *
   * @example ${call}` : "";
  return `  /**
   * ${summary}\`${op.method} ${op.path}\` (${op.family}; scope \`${op.scope}\`)${example}
   */
  ${name}(${[...args(op, t), "options?: CallOptions"].join(", ")}): ${promise};`;
}

/** The declarations that depend on the rows; `types` is what `cargo run -p xtask -- declarations` prints (params, result, list, paramsRequired, and local: its name in its family's namespace, per id). */
export function operationDeclarations(ops, types, clientTail) {
  const typesOf = (op) => types[op.id] ?? {};
  const rows = (line) => ops.map((op) => `  ${op.id}: ${line(op, typesOf(op))};`).join("\n");
  const families = [...new Set(ops.map((op) => op.family))];
  return `export type OperationId = ${ops.map((o) => JSON.stringify(o.id)).join(" | ")};

/** The params type of each operation. */
export interface OperationParams {
${rows((op, t) => t.params ?? "Record<string, unknown>")}
}

/** The arguments of each operation after its id, as \`prepare\` takes them: its path params, then its params. */
export interface OperationArgs {
${rows((op, t) => `[${args(op, t).join(", ")}]`)}
}

export declare class Client {
  constructor(options: ClientOptions);
${families.map((f) => `  /** The ${f} family's operations: \`client.${f}.${typesOf(ops.find((op) => op.family === f)).local}(...)\`. */
  readonly ${f}: ${pascal(f)}Operations;`).join("\n")}
${ops.map((op) => method(op, typesOf(op))).join("\n")}
  /** The request an operation would send, validated; nothing is sent. The Authorization header is left out. */
  prepare<Op extends OperationId>(operationId: Op, ...args: OperationArgs[Op]): Promise<PreparedRequest>;
${clientTail}
}

${families.map((f) => `/** The ${f} family's operations, under their names there (\`client.${f}\`). */
export interface ${pascal(f)}Operations {
${ops.filter((op) => op.family === f).map((op) => method(op, typesOf(op), typesOf(op).local, f)).join("\n")}
}`).join("\n\n")}`;
}
