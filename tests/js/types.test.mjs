// The package's declarations, as a TypeScript user meets them: tsc --strict --noEmit on a user file
// whose @ts-expect-error lines prove that wrong enum values and missing fields do not compile.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, writeFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { operations } from "svc-sdk";

const root = process.env.SVC_ROOT;
const dir = process.cwd();

test("the declarations type-check a strict user file; wrong values do not compile", () => {
  cpSync(path.join(root, "tests/types/consumer.ts"), path.join(dir, "consumer.ts"));
  writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        lib: ["ES2022", "DOM", "DOM.Iterable"],
        types: [],
        skipLibCheck: false,
      },
      files: ["consumer.ts"],
    }),
  );
  const tsc = path.join(root, "node_modules/typescript/bin/tsc");
  const r = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: dir, encoding: "utf8", timeout: 120_000 });
  assert.equal(r.status, 0, `tsc failed:\n${r.stdout}${r.stderr}`);
});

test("no operation of the Client is typed any", () => {
  const dts = readFileSync(path.join(dir, "node_modules/svc-sdk/pkg/index.d.ts"), "utf8");
  const client = dts.slice(dts.indexOf("export declare class Client"), dts.indexOf("export declare function operations"));
  assert.ok(!/\bany\b/.test(client), "the Client declaration mentions any");
  assert.equal((client.match(/\): Promise</g) ?? []).length, operations().length + 2, "one method per operation, prepare and request");
});
