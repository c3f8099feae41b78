// What the hardening tests share: a sandbox, a witness Client made before any bad input (it must
// still complete a call after each case), and the checks that a failure is an SvcError without the token.
import assert from "node:assert/strict";
import util from "node:util";
import { before, after } from "node:test";
import { Client, SvcError } from "svc-sdk";
import { startSandbox } from "./sandbox.mjs";
import { startRecordingServer } from "./recording-server.mjs";

export const TOKEN = "hard-tok-4c1d9e7f2a6b";
export const ORG = "10234695";

/** The sandbox, a recording server, and the witness; started before the file's tests, closed after. */
export function setUp() {
  const env = {};
  before(async () => {
    env.sandbox = await startSandbox(["--token", `${TOKEN}=*`, "--no-rate-limit"]);
    env.server = await startRecordingServer();
    env.witness = new Client({ accessToken: TOKEN, organizationId: ORG, apiDomain: env.sandbox.url });
    await env.witness.listCurrencies();
  });
  after(async () => {
    await env.sandbox?.close();
    await env.server?.close();
  });
  return env;
}

/** The witness made before the bad input still completes a call against the sandbox. */
export async function stillWorks(env) {
  const page = await env.witness.listCurrencies();
  assert.ok(Array.isArray(page.items), "the witness Client still completes a call");
}

/** Every view of a value a user or a logger might print. */
export function views(x) {
  const out = [String(x), util.inspect(x, { depth: Infinity, showHidden: true }), util.format("%o %O", x, x)];
  try {
    out.push(JSON.stringify(x));
  } catch (e) {
    out.push(String(e));
  }
  if (x instanceof Error) out.push(x.message, x.stack ?? "", util.inspect(x.cause, { depth: Infinity }));
  return out.join("\n");
}

/** An SvcError of `kind` (any kind when not given) in which no view shows `secret`. */
export function svcError(kind, secret = TOKEN) {
  return (e) => {
    assert.ok(e instanceof SvcError, `not an SvcError: ${e && e.stack}`);
    if (kind) assert.equal(e.kind, kind, e.message);
    assert.ok(!views(e).includes(secret), `the token shows in ${views(e)}`);
    return true;
  };
}

/** Awaits a rejection that `check` accepts; returns the error. */
export async function rejection(promise, check) {
  try {
    await promise;
  } catch (e) {
    check(e);
    return e;
  }
  assert.fail("resolved; an SvcError was expected");
}

/** The error a synchronous call throws, checked. */
export function thrown(fn, check) {
  try {
    fn();
  } catch (e) {
    check(e);
    return e;
  }
  assert.fail("returned; an SvcError was expected");
}

/** The glue of the running instance (initSync, ...), which the package's entry keeps on SvcError under a symbol, not as exports. */
export async function coreGlue() {
  const { SvcError } = await import("svc-sdk");
  return SvcError[Symbol.for("svc-sdk.internal")];
}

/** Fills the running wasm's memory, so that the next large allocation traps (as a bug or a spent memory would). */
export async function fillCoreMemory() {
  const { memory } = (await coreGlue()).initSync({ module: new Uint8Array(0) });
  for (let pages = 4096; pages >= 1; pages >>= 1) {
    for (;;) {
      try {
        memory.grow(pages);
      } catch {
        break;
      }
    }
  }
}
