// The size budgets' reading of a wasm (scripts/wasm-items.mjs): every function body and data segment of
// the package's wasm, named from the cargo output's name section, and Rust symbols read as paths; and
// budgets.json holding a budget for every entry the check measures.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = process.env.SVC_ROOT;
const { wasmItems, demangle } = await import(pathToFileURL(path.join(root, "scripts/wasm-items.mjs")));
const { ENTRIES } = await import(pathToFileURL(path.join(root, "scripts/budgets.mjs")));

test("a wasm's items are its function bodies and data segments, together nearly the whole file", () => {
  const file = path.join(root, "pkg/svc_sdk_bg.wasm");
  const items = wasmItems(file);
  const total = items.reduce((s, [, n]) => s + n, 0);
  const size = statSync(file).size;
  assert.ok(total < size && total > size * 0.8, `${total} of ${size} bytes`);
  assert.deepEqual(items.map(([, n]) => n), [...items.map(([, n]) => n)].sort((a, b) => b - a), "largest first");
  assert.equal(new Set(items.map(([name]) => name)).size, items.length, "every name once");
});

test("the cargo output's items are named from its name section", () => {
  const items = wasmItems(path.join(root, "target/wasm32-unknown-unknown/release/svc_sdk.wasm"));
  assert.ok(items.some(([name]) => name === "svc_sdk::wasm::options::read_as"), "a Rust function by its path");
  assert.ok(items.some(([name]) => name.startsWith("data segment ")));
});

test("Rust symbols read as paths without their hash", () => {
  assert.equal(demangle("_ZN7svc_sdk4wasm7options7read_as17hbb02db437bc4871aE"), "svc_sdk::wasm::options::read_as");
  assert.equal(demangle("_ZN7svc_sdk4wasm5proxy5Proxy6handle28_$u7b$$u7b$closure$u7d$$u7d$17h6694c40e4f4b3dfdE"), "svc_sdk::wasm::proxy::Proxy::handle::{{closure}}");
  assert.equal(demangle("_ZN87_$LT$core..future..poll_fn..PollFn$LT$F$GT$$u20$as$u20$core..future..future..Future$GT$4poll17hcf83ed2b72fd4342E"), "_<core::future::poll_fn::PollFn<F> as core::future::future::Future>::poll");
  assert.equal(demangle("memcpy"), "memcpy");
});

test("budgets.json has a budget for every entry the check measures, each with why", () => {
  const { budgets } = JSON.parse(readFileSync(path.join(root, "budgets.json"), "utf8"));
  assert.deepEqual(Object.keys(budgets).sort(), Object.keys(ENTRIES).sort());
  for (const [name, b] of Object.entries(budgets)) {
    assert.ok(Number.isInteger(b.gzip) && b.gzip > 0, name);
    assert.ok(b.why.length > 10, name);
    if (b.goal !== undefined) assert.ok(b.goal <= b.gzip, `${name}: a goal above its budget`);
  }
});

test("a client entry that links core's float formatting fails the check, with the items named", async () => {
  const { forbidden } = await import(pathToFileURL(path.join(root, "scripts/budgets.mjs")));
  const clean = [["svc_sdk::send::run", 900], ["data segment 0", 100]];
  assert.deepEqual(forbidden(() => clean), []);
  const float = [...clean, ["_RNvNtNtNtNtCsgXGp5Oqx2Ny_4core3num7flt2dec8strategy6dragon15format_shortest", 6071]];
  const found = forbidden((entry) => (entry.module === "page/web.js" ? float : clean));
  assert.equal(found.length, 1);
  assert.match(found[0], /^page links core's float formatting/);
  assert.match(found[0], /6071 {2}_RNv.*flt2dec/);
  assert.deepEqual(forbidden(), [], "the built entries link none of it");
});
