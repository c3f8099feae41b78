// `npm run bench`: builds what is missing, runs every benchmark in one run, and writes BENCHMARKS.md.
// Benchmarks are not tests: nothing here fails on a figure, and nothing here runs in `npm test`.
// Each measurement runs in a process of its own and is repeated; the tables give medians.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CASES } from "./bodies.mjs";
import {
  consumer, ensureConsumer, ensurePackage, ensureSandbox, kb, log, machine, median, ms, nodeJson, ops, pairedRatio, root,
  sdkEntry, spread, startSandbox, us, work, x,
} from "./lib.mjs";
import { alternativesSizes, namedVariant, named, packageSizes, wasmBreakdown } from "./size.mjs";
import { profile } from "./profile.mjs";
import { output } from "../scripts/lib.mjs";
import { measureFleet } from "./fleet.mjs";
import { measureValidatePage, validatePageRows, validatePageSection } from "./validate-page.mjs";

const QUICK = process.argv.includes("--quick");
/** `--report`: write BENCHMARKS.md again from the figures of the last run (target/bench/results.json), measuring nothing. */
const REPORT_ONLY = process.argv.includes("--report");
const CONFIG = {
  validationRuns: QUICK ? 2 : 5,
  validationMsPerCase: QUICK ? 300 : 700,
  freshProcesses: QUICK ? 5 : 15,
  decodeRounds: QUICK ? 5 : 15,
  decodeMs: 150,
  callRounds: QUICK ? 3 : 9,
  callsPerRound: QUICK ? 150 : 300,
  timelineCalls: QUICK ? 500 : 2000,
  rateLimit: 600,
  rateSeconds: QUICK ? 60 : 120,
  fleet: { processes: 8, seconds: 120, callsEach: 50, latencyMs: 300, org: "70000009" },
  listItems: 200,
  pageLoads: QUICK ? 5 : 15,
  profileMs: 2500,
};
const TARGETS = { sizeGzip: 120 * 1024, freshInsideMs: 15, validationVsZod: 1, decodeVsParse: 2, callVsRaw: 1.1, rateShare: 0.95, validatePageGzip: 45 * 1024, validatePageVsZod: 1.5 };
const ORG = "10234695";
const FRESH = ["none", "svc-sdk", "zod", "valibot"];

const resultsFile = path.join(work, "results.json");
mkdirSync(work, { recursive: true });
const R = REPORT_ONLY ? JSON.parse(readFileSync(resultsFile, "utf8")) : await measure();
if (!REPORT_ONLY) writeFileSync(resultsFile, JSON.stringify(R));

/** Every measurement of one run, as one object (saved to target/bench/results.json). */
async function measure() {
  const started = Date.now();
  const env = machine();
  const commit = output("git", ["rev-parse", "--short", "HEAD"]) ?? "unknown";
  const dirty = (output("git", ["status", "--porcelain", "--untracked-files=no"]) ?? "") !== "";
  log(`bench: ${env.cpu}, ${env.cores} cores, load ${env.load}`);

  // ---- build what is missing ----
  ensurePackage();
  ensureSandbox();
  const variant = namedVariant(); // rebuilds pkg/ when it is older than the release wasm
  ensureConsumer();
  const entry = sdkEntry();

  // ---- package size ----
  log("bench: package size");
  const sizes = packageSizes();
  const wasm = wasmBreakdown(15);
  const alternatives = alternativesSizes();
  log(`bench: a page that only validates (Vite, Chromium), ${CONFIG.pageLoads} loads of it and of the zod page`);
  const validatePage = await measureValidatePage(CONFIG.pageLoads);

  // ---- validation: the three implementations agree, then ops/s ----
  log("bench: validation (cross-check)");
  const agreement = nodeJson(path.join(root, "bench/validate-check.mjs"), [entry]);
  log(`bench: validation ops/s, ${CONFIG.validationRuns} runs × 3 implementations`);
  const LIBS = ["svc-sdk", "zod", "valibot"];
  const validation = Object.fromEntries(LIBS.map((l) => [l, Object.fromEntries(CASES.map((c) => [c.name, []]))]));
  for (let r = 0; r < CONFIG.validationRuns; r++) {
    for (const lib of LIBS.map((_, i) => LIBS[(i + r) % LIBS.length])) {
      const out = nodeJson(path.join(root, "bench/validate-worker.mjs"), [lib, entry, String(CONFIG.validationMsPerCase)]);
      for (const [name, v] of Object.entries(out.cases)) validation[lib][name].push(v.opsPerSec);
    }
  }

  // ---- a fresh process: import and first validate ----
  log(`bench: fresh processes, ${CONFIG.freshProcesses} × 4`);
  const fresh = Object.fromEntries(FRESH.map((l) => [l, { wall: [], sinceStart: [], work: [], importMs: [], firstValidate: [] }]));
  for (let i = 0; i < CONFIG.freshProcesses; i++) {
    for (const lib of FRESH) {
      const t = process.hrtime.bigint();
      const r = spawnSync(process.execPath, [path.join(root, "bench/fresh-child.mjs"), lib, entry], { encoding: "utf8", cwd: consumer });
      const wall = Number(process.hrtime.bigint() - t) / 1e6;
      if (r.status !== 0) throw new Error(`fresh ${lib}: ${r.stderr}`);
      const o = JSON.parse(r.stdout.trim());
      if (!o.ok) throw new Error(`fresh ${lib}: the valid body did not pass`);
      fresh[lib].wall.push(wall);
      fresh[lib].sinceStart.push(o.validated);
      fresh[lib].work.push(o.validated - o.start);
      fresh[lib].importMs.push(o.imported - o.start);
      fresh[lib].firstValidate.push(o.validated - o.imported);
    }
  }

  // ---- on the loopback sandbox without limits: the list text, decode, one call ----
  const listFile = path.join(work, `list-${CONFIG.listItems}.json`);
  let decode, call, callProfile, rawProfile;
  {
    log("bench: sandbox (release, --no-rate-limit)");
    const sandbox = await startSandbox(["--no-rate-limit", "--plan", "ultimate", "--daily-quota", "1000000"]);
    try {
      const { Client } = await import(entry);
      const client = new Client({ accessToken: "dev-token", organizationId: ORG, apiDomain: sandbox.url, rateLimit: false });
      for (let i = 0; i < CONFIG.listItems; i++) {
        await client.createPackage({
          salesorder_id: "460000000039129",
          date: "2024-01-02",
          notes: `Package ${i + 1}: handle with care`,
          line_items: [1, 2, 3].map((k) => ({ so_line_item_id: `46000000003913${k}`, quantity: k })),
        });
      }
      const p = await client.prepare("listPackages", { per_page: CONFIG.listItems });
      const res = await fetch(p.url, { headers: { ...p.headers, Authorization: "Svc-oauthtoken dev-token" } });
      writeFileSync(listFile, await res.text());

      log(`bench: decode, ${CONFIG.decodeRounds} rounds`);
      decode = nodeJson(path.join(root, "bench/decode-worker.mjs"), [entry, listFile, String(CONFIG.decodeRounds), String(CONFIG.decodeMs)]);

      log(`bench: one call vs raw fetch, ${CONFIG.callRounds} rounds × ${CONFIG.callsPerRound} calls`);
      call = nodeJson(path.join(root, "bench/call-worker.mjs"), [entry, sandbox.url, String(CONFIG.callRounds), String(CONFIG.callsPerRound), String(CONFIG.timelineCalls)]);
      const callRatio = pairedRatio(call.rounds.sdk, call.rounds.raw);
      if (callRatio > TARGETS.callVsRaw) {
        log("bench: profiling one call");
        callProfile = profile(named, "call", sandbox.url, CONFIG.profileMs);
        rawProfile = profile(named, "raw-call", sandbox.url, CONFIG.profileMs);
      }
    } finally {
      await sandbox.close();
    }
  }

  // ---- profiles where a target is missed ----
  const decodeRatio = pairedRatio(decode.rounds.sdk, decode.rounds.jsonParse);
  const decodeProfile = decodeRatio > TARGETS.decodeVsParse ? (log("bench: profiling decode"), profile(named, "decode", listFile, CONFIG.profileMs)) : null;
  const validationRatios = CASES.map((c) => median(validation["svc-sdk"][c.name]) / median(validation.zod[c.name]));
  const validationProfiles =
    validationRatios.some((r) => r < TARGETS.validationVsZod)
      ? (log("bench: profiling validation"),
        { "createFixedAsset, valid": profile(named, "validate-fixed-asset", "", CONFIG.profileMs), "watch update, valid": profile(named, "validate-watch", "", CONFIG.profileMs) })
      : null;

  // ---- the limiter under a per-minute limit ----
  let rate, rateCounters;
  {
    log(`bench: rate limiter, ${CONFIG.rateLimit}/min for ${CONFIG.rateSeconds} s`);
    const sandbox = await startSandbox(["--rate-per-minute", String(CONFIG.rateLimit), "--plan", "ultimate", "--daily-quota", "1000000"]);
    try {
      rate = nodeJson(path.join(root, "bench/rate-worker.mjs"), [entry, sandbox.url, String(CONFIG.rateLimit), String(CONFIG.rateSeconds)]);
      rateCounters = (await sandbox.counters()).operations?.listCurrencies;
    } finally {
      await sandbox.close();
    }
  }
  // ---- a fleet of processes sharing one organization's limits through redis ----
  log(`bench: fleet of ${CONFIG.fleet.processes} processes on redis at 100/min for ${CONFIG.fleet.seconds} s`);
  const fleet = await measureFleet(CONFIG.fleet);
  return {
    commit,
    dirty,
    started, elapsedMs: Date.now() - started, config: CONFIG, env, variant, sizes, wasm, alternatives, agreement, validation,
    fresh, decode, call, callProfile, rawProfile, decodeProfile, validationProfiles, rate, rateCounters, fleet, validatePage,
  };
}

/** Why a crate is in the wasm (Cargo.toml and `cargo tree --target wasm32-unknown-unknown`). */
const WHY = {
  svc_sdk: "the SDK's own code (catalog, rules, request, response, limiter, retry, webhook)",
  core: "Rust's core library: formatting, str and slice helpers, float parsing, unicode tables",
  alloc: "Vec, String, BTreeMap and friends",
  std: "std's wasm32 runtime (hashing for RandomState, panics)",
  serde_json: "direct dependency: JSON in and out of the core",
  serde_core: "serde (derive support)",
  indexmap: "serde_json's `preserve_order` feature (Map keeps the key order)",
  hashbrown: "indexmap's hash table (`preserve_order`)",
  equivalent: "indexmap",
  zmij: "serde_json: writing floats",
  itoa: "serde_json: writing integers",
  dlmalloc: "the allocator of std on wasm32-unknown-unknown",
  js_sys: "wasm only: JS built-ins (Promise, JSON, Reflect, Uint8Array)",
  wasm_bindgen: "wasm only: the JS bindings",
  __rustc: "compiler builtins",
  "data segments (strings, tables)": "string constants (messages, the catalog's names and paths, TS type names) and tables (core's unicode and float tables, the rule tables)",
};

function report(R) {
  const { started, env, variant, sizes, wasm, alternatives, agreement, validation, fresh, decode, call, callProfile, rawProfile, decodeProfile, validationProfiles, rate, rateCounters } = R;
  const CONFIG = R.config;
  const validationRatios = CASES.map((c) => median(validation["svc-sdk"][c.name]) / median(validation.zod[c.name]));
  const decodeRatio = pairedRatio(decode.rounds.sdk, decode.rounds.jsonParse);
  const L = [];
  const yes = (b) => (b ? "**met**" : "**missed**");
  const { commit = "unknown", dirty = false } = R;
  const date = new Date(started).toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");

  L.push("# Benchmarks", "");
  L.push("Written by `npm run bench` (`bench/run.mjs`); figures change from run to run, so every figure is the median of");
  L.push("several runs (the count is given with each). Benchmarks are not tests: nothing here fails a build.", "");
  L.push("| | |", "|---|---|");
  L.push(`| date | ${date} |`);
  L.push(`| commit | ${commit}${dirty ? " with uncommitted changes in the working tree" : ""} |`);
  L.push(`| CPU | ${env.cpu}, ${env.cores} cores |`, `| RAM | ${env.ram} |`, `| OS | ${env.os} |`);
  L.push(`| Node | ${env.node} |`, `| rustc | ${env.rustc} |`);
  L.push(`| load average at the start | ${env.load} (other work was running on the machine: medians, not means) |`);
  L.push(`| run time | ${(R.elapsedMs / 1000).toFixed(0)} s |`, "");

  // summary
  const sizeOk = sizes.total.gzip <= TARGETS.sizeGzip;
  const f = (lib) => median(fresh[lib].wall);
  const callRatio = pairedRatio(call.rounds.sdk, call.rounds.raw);
  const share = rate.sustainedPerMinute / rate.limit;
  const n429 = rate.statuses["429"] ?? 0;
  const rateOk = share >= TARGETS.rateShare && n429 === 0 && rate.rejected === 0;
  L.push("## Summary", "");
  L.push("The decode and call ratios are the medians of the per-round ratios: each round times the SDK and what it is");
  L.push("compared with one right after the other, so that a drift of a shared machine's speed cancels out.", "");
  L.push("| benchmark | svc-sdk | compared with | ratio | target | |", "|---|---|---|---|---|---|");
  L.push(
    `| package size: gzip -9 of the wasm and the JS Node loads | ${kb(sizes.total.gzip)} (wasm ${kb(sizes.wasm.gzip)}, glue ${kb(sizes.glue.gzip)}) | ` +
      (alternatives ? `zod 4 with the two schemas ${kb(alternatives.zod.gzip)}, valibot ${kb(alternatives.valibot.gzip)} (bundled, minified) | ` : "— | ") +
      `— | ≤ 120 KB | ${yes(sizeOk)} |`,
  );
  const inside = (lib) => median(fresh[lib].work);
  const wall = (lib) => ms(median(fresh[lib].wall));
  L.push(
    `| fresh Node process: import + first validate (median of ${CONFIG.freshProcesses} processes each) | wall ${wall("svc-sdk")} (an empty process: ${wall("none")}); import + validate inside it ${ms(inside("svc-sdk"))} | ` +
      `zod: wall ${wall("zod")}, inside ${ms(inside("zod"))}; valibot: wall ${wall("valibot")}, inside ${ms(inside("valibot"))} | ${x(inside("svc-sdk") / inside("zod"))} zod (inside) | ≤ ${TARGETS.freshInsideMs} ms inside | ${yes(inside("svc-sdk") <= TARGETS.freshInsideMs)} |`,
  );
  for (const [i, c] of CASES.entries()) {
    const s = median(validation["svc-sdk"][c.name]);
    L.push(
      `| validate ${c.name} (ops/s, median of ${CONFIG.validationRuns} runs) | ${ops(s)} | zod ${ops(median(validation.zod[c.name]))}, valibot ${ops(median(validation.valibot[c.name]))} | ` +
        `${x(validationRatios[i])} zod | ≥ zod | ${yes(validationRatios[i] >= TARGETS.validationVsZod)} |`,
    );
  }
  L.push(
    `| decode a ${decode.items}-item list (${kb(decode.bytes)}, ${decode.bigIds} ids beyond 2^53), per call, median of ${CONFIG.decodeRounds} rounds | ${us(median(decode.rounds.sdk))}, every id exact | ` +
      `JSON.parse ${us(median(decode.rounds.jsonParse))} (changes ${decode.lostByJsonParse} of ${decode.bigIds} ids); Response.json() ${us(median(decode.rounds.responseJson))} | ${x(decodeRatio)} JSON.parse | ≤ 2× JSON.parse | ${yes(decodeRatio <= TARGETS.decodeVsParse)} |`,
  );
  L.push(
    `| one call (getCurrency) on the loopback sandbox, sequential, median of ${CONFIG.callRounds} rounds × ${CONFIG.callsPerRound} calls | ${us(median(call.rounds.sdk))} | raw fetch + res.json() ${us(median(call.rounds.raw))} | ${x(callRatio)} raw | ≤ 1.10× raw | ${yes(callRatio <= TARGETS.callVsRaw)} |`,
  );
  L.push(
    `| sustained rate of the limiter at ${rate.limit}/min against a sandbox limiting at ${rate.limit}/min (${rate.calls} calls queued at once, one run of ${(rate.elapsedMs / 1000).toFixed(0)} s) | ${rate.sustainedPerMinute.toFixed(1)}/min, ${n429} × 429 | the limit, ${rate.limit}/min | ${(share * 100).toFixed(1)} % | ≥ 95 %, no 429 | ${yes(rateOk)} |`,
  );
  if (R.fleet) {
    const f = R.fleet;
    // The limit allows `limit` starts a minute: the full run's worth, counting from the first start.
    const allowed = f.limitPerMinute * Math.floor(f.elapsedMs / 60_000);
    const fShare = f.received / allowed;
    const f429 = f.statuses["429"] ?? 0;
    L.push(
      `| fleet: ${f.processes} Node processes sharing one redis-server, 100/min and 5 in flight (free plan), ${f.queued} calls queued at once, answers after ${f.latencyMs} ms, ${(f.elapsedMs / 1000).toFixed(0)} s | ${f.received} requests, ${f429} × 429, peak ${f.peakInFlight} in flight | the limit, ${allowed} in ${Math.floor(f.elapsedMs / 60_000)} min | ${(fShare * 100).toFixed(1)} % | ≥ 95 %, no 429 | ${yes(fShare >= TARGETS.rateShare && f429 === 0 && f.peakInFlight <= 5)} |`,
    );
  }
  if (R.validatePage) L.push(...validatePageRows(R.validatePage, TARGETS, yes));
  L.push("");

  // package size
  L.push("## Package size", "");
  L.push("Sizes of `pkg/` as built by `scripts/build.mjs` (gzip -9 is zlib at level 9). Node loads the wasm, `svc_sdk.js` (the");
  L.push("glue and every snippet, bundled) and `node.js`; the other entries are the same size for their runtimes.", "");
  L.push("| file | raw | gzip -9 |", "|---|---|---|");
  for (const r of sizes.rows) L.push(`| \`${r.file}\` | ${kb(r.raw)} | ${kb(r.gzip)} |`);
  L.push(`| **what Node loads** | **${kb(sizes.total.raw)}** | **${kb(sizes.total.gzip)}** |`, "");
  L.push(
    `Names: a copy built from the same release wasm with \`wasm-opt -Oz -g\` (names kept) is ${kb(variant.namedBytes)}, of which ${kb(wasm.names)} are the`,
    `name sections; the rest, ${kb(wasm.total)}, is the code and data of the shipped wasm (${kb(sizes.wasm.raw)}; wasm-bindgen's output before`,
    `wasm-opt: ${kb(variant.bindgenBytes)}). The glue wasm-bindgen writes for that wasm, minified as the build minifies it, is byte for byte pkg/'s: ${variant.sameGlue ? "yes" : "no"}${variant.rebuilt ? " (pkg/ was rebuilt first)" : ""}.`,
    "",
  );
  L.push(`### The ${wasm.topItems.length} largest items of the wasm (\`twiggy top -n ${wasm.topItems.length}\`, name sections left out)`, "");
  L.push("| bytes | share | item | what the data holds |", "|---|---|---|---|");
  for (const t of wasm.topItems) L.push(`| ${t.bytes} | ${((100 * t.bytes) / wasm.total).toFixed(1)} % | \`${t.name.replace(/\|/g, "\\|")}\` | ${t.preview ? t.preview.replace(/\|/g, "\\|").replace(/`/g, "'") : ""} |`);
  L.push("");
  L.push("### What each crate costs (twiggy, summed by the crate in each symbol's name)", "");
  L.push("Generic code is counted in the crate whose name it bears, so `core` and `alloc` include code instantiated for svc-sdk's");
  L.push("types; the export shims and the async closure hold svc-sdk code that wasm-opt inlined into them.", "");
  L.push("| crate or part | bytes | share | items | there because |", "|---|---|---|---|---|");
  for (const c of wasm.crates) L.push(`| ${c.crate} | ${c.bytes} | ${((100 * c.bytes) / wasm.total).toFixed(1)} % | ${c.items} | ${WHY[c.crate] ?? ""} |`);
  L.push("");

  if (R.validatePage) L.push(...validatePageSection(R.validatePage));

  // fresh
  L.push("## A fresh Node process", "");
  L.push(`${CONFIG.freshProcesses} processes of each kind, in turn; \`bench/fresh-child.mjs\` imports the implementation and validates the valid`);
  L.push("createFixedAsset body once. Wall time is measured around the whole process; the other columns inside it.", "");
  L.push("| | wall (median) | wall (min–max) | process start to validated | import | first validate |", "|---|---|---|---|---|---|");
  for (const lib of FRESH) {
    const d = fresh[lib];
    const none = lib === "none";
    L.push(`| ${none ? "empty process (the child script, no import)" : lib} | ${ms(median(d.wall))} | ${spread(d.wall, ms)} | ${ms(median(d.sinceStart))} | ${none ? "—" : ms(median(d.importMs))} | ${none ? "—" : ms(median(d.firstValidate))} |`);
  }
  L.push("");

  // validation
  L.push("## Validation", "");
  L.push("The rules of createFixedAsset and updateNotificationChannels written again in zod 4 and valibot 1 (`bench/schemas/`):");
  L.push("required fields (a blank string is missing), ids as non-empty strings or integers, value sets, 0–100 for");
  L.push("depreciation_percentage and not with straight_line, dates, the watch's channel id, events, URL, token length, expiry");
  L.push("within a week, nested groups of field members and at most 10 fields however nested. Unknown keys are kept and every");
  L.push("issue is reported in one pass by all three. Before timing, the three are run on the four bodies (`bench/bodies.mjs`):", "");
  L.push("| body | svc-sdk | zod | valibot |", "|---|---|---|---|");
  for (const c of CASES) L.push(`| ${c.name} | ${agreement[c.name]["svc-sdk"]} | ${agreement[c.name].zod} | ${agreement[c.name].valibot} |`);
  L.push("");
  L.push(`Calls per second, median of ${CONFIG.validationRuns} runs, each run a fresh process per implementation (~${CONFIG.validationMsPerCase} ms per body after a warm-up):`, "");
  L.push("| body | svc-sdk | zod 4 | valibot 1 | svc-sdk ÷ zod | svc-sdk runs (min–max) |", "|---|---|---|---|---|---|");
  for (const [i, c] of CASES.entries()) {
    const s = validation["svc-sdk"][c.name];
    L.push(`| ${c.name} | ${ops(median(s))} | ${ops(median(validation.zod[c.name]))} | ${ops(median(validation.valibot[c.name]))} | ${x(validationRatios[i])} | ${spread(s, ops)} |`);
  }
  L.push("");

  // decode
  L.push("## Decoding a list", "");
  L.push(`A \`listPackages\` answer of the sandbox with ${decode.items} packages of 3 line items each (${kb(decode.bytes)}; package and line item ids are`);
  L.push(`JSON numbers from 9007199254740993 up), handed to a Client by a custom \`fetch\` from memory. JSON.parse of the same text changes`);
  L.push(`${decode.lostByJsonParse} of its ${decode.bigIds} ids (every odd one: ${decode.example ? `${decode.example[0]} becomes ${decode.example[1]}` : "none"}); the SDK gives all ${decode.exactBySdk} as exact strings.`);
  L.push(`Per call, median of ${CONFIG.decodeRounds} rounds of ~${CONFIG.decodeMs} ms:`, "");
  L.push("| | µs per call | rounds (min–max) |", "|---|---|---|");
  const D = {
    sdk: "svc-sdk: `client.listPackages()` through the custom fetch",
    jsonParse: "JSON.parse(text)",
    responseJson: "`await new Response(text).json()` (what a raw fetch user does)",
    sdkEmptyList: "part: the same call answering an empty list (fixed cost of a call)",
    responseBytes: "part: `new Response(text)` and `arrayBuffer()` (the custom fetch and attempt())",
    parseRewritten: `part: JSON.parse of the text with ids as strings, as the SDK hands it over (${kb(decode.rewrittenBytes)})`,
    jsRegexRewrite: "what-if, not the SDK: id rewrite by a JS regex, then JSON.parse (`bench/decode-worker.mjs`)",
  };
  for (const [k, label] of Object.entries(D)) if (decode.rounds[k]) L.push(`| ${label} | ${us(median(decode.rounds[k]))} | ${spread(decode.rounds[k], us)} |`);
  if (decode.jsRegexExact !== undefined) L.push("", `The what-if regex rewrite gives the same ids as the SDK: ${decode.jsRegexExact ? "yes, all of them" : "no"}.`);
  L.push("");

  // call
  L.push("## One call against a raw fetch", "");
  L.push(`\`getCurrency\` (${call.url}) on the release sandbox over loopback (\`--no-rate-limit\`), one call at a time; the raw fetch sends the`);
  L.push(`request \`client.prepare()\` gives, with the same headers. ${CONFIG.callRounds} rounds of ${CONFIG.callsPerRound} calls per variant, the order rotated each round:`, "");
  L.push("| | µs per call (median) | rounds (min–max) |", "|---|---|---|");
  const C = {
    raw: "raw `fetch` + `res.json()`",
    rawSignal: "raw fetch with an AbortController signal and a 60 s timer, as attempt() sends it",
    rawTimeoutSignal: "raw fetch with `AbortSignal.timeout(60000)` instead",
    sdk: "svc-sdk, `rateLimit: false`",
    sdkLimiter: "svc-sdk with the limiter on (a limit that never binds)",
  };
  for (const [k, label] of Object.entries(C)) if (call.rounds[k]) L.push(`| ${label} | ${us(median(call.rounds[k]))} | ${spread(call.rounds[k], us)} |`);
  L.push("");
  L.push("The SDK's request and the raw one are byte for byte the same on the wire (checked with a bare TCP listener while writing");
  L.push("this benchmark); what differs is the work around them.", "");
  const tl = call.timeline;
  L.push(`Where the SDK's extra time falls (${tl.calls} calls each, SDK and raw interleaved, the SDK's fetch wrapped to take the time):`, "");
  L.push("| | svc-sdk | raw fetch |", "|---|---|---|");
  L.push(`| call to fetch (arguments, validation, request, limiter, attempt() set-up) | ${us(tl.sdk.before)} | — |`);
  L.push(`| fetch until the response headers | ${us(tl.sdk.fetch)} | ${us(tl.raw.fetch)} |`);
  L.push(`| response headers until the result (body, decode, JSON.parse) | ${us(tl.sdk.after)} | ${us(tl.raw.after)} |`);
  L.push(`| total | ${us(tl.sdk.total)} | ${us(tl.raw.total)} |`, "");

  // rate
  L.push("## The limiter under a per-minute limit", "");
  L.push(`A Client with \`plan: "ultimate", rateLimit: { requestsPerMinute: ${rate.limit} }\` against a sandbox started with \`--rate-per-minute ${rate.limit}\`;`);
  L.push(`${rate.calls} \`listCurrencies\` calls are started at once so that the queue never runs dry, and a wrapping fetch records when each`);
  L.push(`attempt leaves the limiter. One run (it takes ${(rate.elapsedMs / 1000).toFixed(0)} s).`, "");
  L.push("| | |", "|---|---|");
  L.push(`| sustained rate: ${rate.limit} calls per median span of ${rate.limit} places (below) | ${rate.sustainedPerMinute.toFixed(1)}/min, ${(share * 100).toFixed(1)} % of the limit |`);
  L.push(`| attempts in the first ${rate.seconds} s after the first one | ${rate.inWindow} (${rate.perMinute.toFixed(1)}/min) |`);
  L.push(`| answers by status (client side) | ${Object.entries(rate.statuses).map(([s, n]) => `${s}: ${n}`).join(", ")} |`);
  if (rateCounters) L.push(`| answers by status (sandbox counters) | ${Object.entries(rateCounters.statuses ?? {}).map(([s, n]) => `${s}: ${n}`).join(", ")} |`);
  L.push(`| calls that failed | ${rate.rejected}${rate.firstError ? ` (first: ${rate.firstError})` : ""} |`);
  L.push(`| time from an attempt to the attempt ${rate.limit} places later | min ${(rate.gapMinMs / 1000).toFixed(3)} s, median ${(rate.gapMedianMs / 1000).toFixed(3)} s, max ${(rate.gapMaxMs / 1000).toFixed(3)} s |`);
  L.push("");

  // profiles
  if (validationProfiles || decodeProfile || callProfile) {
    L.push("## Where the time goes (profiles of the missed targets)", "");
    L.push("`node --cpu-prof` on `bench/profile-worker.mjs`, which loads a copy of the package whose wasm keeps its names (same code as");
    L.push("`pkg/`). Each sample is counted in the innermost frame of its stack that names a stage; µs per call include the profiler's");
    L.push("own overhead, so compare shares rather than absolute figures with the tables above.", "");
    const table = (title, p) => {
      L.push(`### ${title} (${p.calls} calls, ${us(p.usPerCall)} per call under the profiler)`, "");
      L.push("| stage | µs per call | share |", "|---|---|---|");
      for (const s of p.stages) L.push(`| ${s.stage} | ${s.us.toFixed(1)} | ${(s.share * 100).toFixed(1)} % |`);
      L.push("", "Top functions by self time:", "", "| function | µs per call | share |", "|---|---|---|");
      for (const s of p.functions) L.push(`| \`${s.fn.replace(/\|/g, "\\|")}\` | ${s.us.toFixed(1)} | ${(s.share * 100).toFixed(1)} % |`);
      L.push("");
    };
    if (validationProfiles) for (const [name, p] of Object.entries(validationProfiles)) table(`validate: ${name}`, p);
    if (decodeProfile) table(`decode: the ${decode.items}-item list`, decodeProfile);
    if (callProfile) {
      table("one call through the SDK", callProfile);
      table("the same request with a raw fetch", rawProfile);
    }
  }

  const notes = path.join(root, "bench/notes.md");
  if (existsSync(notes)) L.push(readFileSync(notes, "utf8").trim(), "");
  L.push("## How to run", "");
  L.push("`npm run bench` (about 4 to 6 minutes; `node bench/run.mjs --quick` for a shorter, rougher run). It builds `pkg/`, the");
  L.push("release sandbox and twiggy when missing, packs the package into `target/bench/consumer` as a user installs it, and");
  L.push("rewrites this file. The scripts are in `bench/`; the notes above are `bench/notes.md`.");
  return L.join("\n") + "\n";
}

// ---- BENCHMARKS.md ----
writeFileSync(path.join(root, "BENCHMARKS.md"), report(R));
log(`bench: BENCHMARKS.md written${REPORT_ONLY ? " from target/bench/results.json" : ` in ${(R.elapsedMs / 1000).toFixed(0)} s`}`);
