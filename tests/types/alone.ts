// Compiled where no package but svc-sdk resolves (no @standard-schema/spec, no @types): schemaFor's
// Standard Schema is declared by svc-sdk itself, and it is what the published Standard Schema v1 shape
// (https://standardschema.dev), written out here, asks of a schema.
import { schemaFor, validate, type Issue, type StandardSchemaV1 } from "svc-sdk/validate";
import type { TaskInput } from "svc-sdk";

/** Standard Schema v1 as its spec publishes it: what a form library's types take. */
interface SpecV1<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => SpecResult<Output> | Promise<SpecResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}
type SpecResult<Output> = { readonly value: Output; readonly issues?: undefined } | { readonly issues: ReadonlyArray<SpecIssue> };
interface SpecIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

const schema = schemaFor("createTask", { labels: { task_name: "Task" } });
export const asSpec: SpecV1<TaskInput, TaskInput> = schema;
export const own: StandardSchemaV1<TaskInput, TaskInput, Issue> = schema;
const result = schema["~standard"].validate({ task_name: "" });
export const first: Issue | undefined = result.issues?.[0];
export const checked: boolean = validate("createTask", { task_name: "Audit" }).ok;
// @ts-expect-error: a schema of another operation's params is not a TaskInput schema
export const wrong: SpecV1<TaskInput, TaskInput> = schemaFor("createOrganization");
