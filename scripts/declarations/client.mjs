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

function method(op, t) {
  const result = t.result ?? "Record<string, unknown>";
  const promise = t.list ? `PagePromise<${result}>` : `APIPromise<${result}>`;
  const summary = t.summary ? `${t.summary.replace(/\.$/, "")}.
   *
   * ` : "";
  const example = t.example ? `
   *
   * @example ${t.example}` : "";
  return `  /**
   * ${summary}\`${op.method} ${op.path}\` (${op.family}; scope \`${op.scope}\`)${example}
   */
  ${op.id}(${[...args(op, t), "options?: CallOptions"].join(", ")}): ${promise};`;
}

/** The declarations that depend on the rows; `types` is what `cargo run -p svc-core --example types` prints (params, result, list, paramsRequired per id). */
export function operationDeclarations(ops, types, clientTail) {
  const typesOf = (op) => types[op.id] ?? {};
  const rows = (line) => ops.map((op) => `  ${op.id}: ${line(op, typesOf(op))};`).join("\n");
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
${ops.map((op) => method(op, typesOf(op))).join("\n")}
  /** The request an operation would send, validated; nothing is sent. The Authorization header is left out. */
  prepare<Op extends OperationId>(operationId: Op, ...args: OperationArgs[Op]): Promise<PreparedRequest>;
${clientTail}
}`;
}
