// svc-sdk/cloudflare's declarations as a worker's author meets them: tsc --strict --noEmit on
// tests/types/cloudflare.ts, which declares Cloudflare's Durable Object types itself (no
// @cloudflare/workers-types) and whose @ts-expect-error lines must be errors.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = process.env.SVC_ROOT;

test("the cloudflare declarations accept Cloudflare's Durable Object shapes under --strict; wrong arguments do not compile", () => {
  // Inside the consumer project, so that "svc-sdk" resolves to the installed package.
  const dir = path.join(process.cwd(), "types-cloudflare");
  mkdirSync(dir, { recursive: true });
  cpSync(path.join(root, "tests/types/cloudflare.ts"), path.join(dir, "worker.ts"));
  writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        noImplicitOverride: true,
        target: "ES2022",
        module: "ESNext",
        moduleResolution: "Bundler",
        customConditions: ["workerd"],
        lib: ["ES2022", "DOM", "DOM.Iterable"],
        types: [],
        skipLibCheck: false,
      },
      files: ["worker.ts"],
    }),
  );
  const tsc = path.join(root, "node_modules/typescript/bin/tsc");
  const r = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: dir, encoding: "utf8", timeout: 120_000 });
  assert.equal(r.status, 0, `tsc failed:\n${r.stdout}${r.stderr}`);
});
