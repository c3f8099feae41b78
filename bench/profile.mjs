// Where the time of an SDK workload goes: runs bench/profile-worker.mjs under `node --cpu-prof` on
// the named copy of the package, and sums the samples by stage (each sample goes to the innermost
// frame of its stack that names a stage) and by function (self time).
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { root } from "./lib.mjs";

const STAGES = {
  decode: [
    [/svc_\w+::lossless/, "scan and id rewrite in wasm (svc_core::lossless)"],
    [/svc_\w+::response/, "envelope decode in wasm (svc_core::response)"],
    [/__wbg_parse_/, "JSON.parse of the rewritten text (and its UTF-8 copy out of wasm)"],
    [/__wbg_prototypesetcall|getArrayU8FromWasm0|bytes_of/, "copy of the body into wasm memory"],
    [/^makePage|__wbg_makePage/, "page object (makePage)"],
    [/^attempt |undici|readablestream|abort_controller|webstreams|js_transferable|^fetch /, "the fetch attempt (Response, arrayBuffer, AbortController, timer)"],
    [/^toWire|^walk |__wbg_toWire|passStringToWasm|encodeUtf8/, "params into wasm (toWire, UTF-8 copy)"],
    [/svc_\w+::validate|svc_\w+::request/, "validation and request building"],
  ],
  call: [
    [/svc_\w+::lossless|svc_\w+::response/, "response decode in wasm (lossless scan, envelope)"],
    [/__wbg_parse_|^parse$/, "JSON.parse of the decoded text"],
    [/makeTransferable|createAbortSignal|AbortController|AbortSignal|JSTransferable/, "the attempt's AbortController (Node 20)"],
    [/^toWire|^plain |^mark |encode/, "params into wasm (toWire, UTF-8 bytes)"],
    [/svc_\w+::request|svc_\w+::placement|svc_\w+::catalog|svc_\w+::validate|svc_\w+::json|svc_\w+::wasm::client|svc_\w+::wasm::params|svc_\w+::wasm::upload/, "arguments, validation and request building (wasm)"],
    [/svc_\w+::send|svc_\w+::wasm::platform|future_to_promise|wasm_bindgen_futures|js_sys::futures|^readAll |^onAbort /, "the send loop (Rust on wasm-bindgen-futures) and its platform"],
    [/undici|^fetch |node:net|net\.js|stream|_http|tcp|(native )?(writev|read)|^onStreamRead|Socket/i, "fetch itself (undici, sockets)"],
  ],
  validate: [
    [/^plain |^toWire |^mark |encode/, "params into JSON text and UTF-8 (params.js toWire)"],
    [/svc_json::|svc_\w+::json|serde_json|serde_core/, "reading the JSON text into the borrowed tree (crates/svc-json/src/read.rs)"],
    [/svc_\w+::validate|svc_\w+::request|svc_\w+::placement/, "the rules (crates/svc-core/src/validate, crates/svc-core/src/placement.rs)"],
    [/^validate |svc_\w+::wasm|__wbg_parse_|dlmalloc|alloc/, "the entry: operation lookup, allocation, result object"],
  ],
};

const label = (cf) => `${cf.functionName || "(anonymous)"} ${cf.url ? path.basename(cf.url) : ""}`.trim();

/** Runs one workload under the profiler; returns per-call µs by stage and the top functions by self time. */
export function profile(namedDir, workload, arg, ms = 2500) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "svc-bench-prof-"));
  try {
    const r = spawnSync(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${dir}`, path.join(root, "bench/profile-worker.mjs"), namedDir, workload, arg ?? "", String(ms)], { encoding: "utf8", cwd: root });
    if (r.status !== 0) throw new Error(`profile ${workload} failed:\n${r.stderr}`);
    const { calls } = JSON.parse(r.stdout.trim().split("\n").pop());
    const prof = JSON.parse(readFileSync(path.join(dir, readdirSync(dir).find((f) => f.endsWith(".cpuprofile"))), "utf8"));
    const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
    const parent = new Map();
    for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const stages = STAGES[workload.startsWith("validate") ? "validate" : workload.endsWith("call") ? "call" : "decode"];
    const self = new Map();
    for (let i = 0; i < prof.samples.length; i++) self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + prof.timeDeltas[i]);
    const byStage = {};
    const byFunction = {};
    let total = 0;
    for (const [id, t] of self) {
      const leaf = nodes.get(id).callFrame;
      if (["(idle)", "(program)"].includes(leaf.functionName)) continue;
      total += t;
      const fn = label(leaf).replace(/::h[0-9a-f]{16}/, "").replace(/\[[0-9a-f]{16}\]/g, "");
      byFunction[fn] = (byFunction[fn] ?? 0) + t;
      let stage = leaf.functionName === "(garbage collector)" ? "garbage collection" : null;
      for (let n = id; !stage && n !== undefined; n = parent.get(n)) {
        const l = label(nodes.get(n).callFrame);
        stage = stages.find(([re]) => re.test(l))?.[1] ?? null;
      }
      stage ??= leaf.url.startsWith("wasm://") || /\.wasm/.test(leaf.url) ? "other wasm (allocator, futures, glue)" : "other JS (promises, wasm-bindgen glue, the loop)";
      byStage[stage] = (byStage[stage] ?? 0) + t;
    }
    const perCall = (t) => t / calls; // µs per call (timeDeltas are µs)
    return {
      calls,
      usPerCall: perCall(total),
      stages: Object.entries(byStage).map(([stage, t]) => ({ stage, us: perCall(t), share: t / total })).sort((a, b) => b.us - a.us),
      functions: Object.entries(byFunction).map(([fn, t]) => ({ fn, us: perCall(t), share: t / total })).sort((a, b) => b.us - a.us).slice(0, 12),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
