// `npm run bench`: builds what is missing, runs every benchmark in one run, and writes BENCHMARKS.md.
// Benchmarks are not tests: nothing here fails on a figure, and nothing here runs in `npm test`.
// Each measurement runs in a process of its own and is repeated; the tables give medians.
// Every run also writes the figures of issue 26's table to bench/results/<commit>.json; `--before FILE`
// puts such a file's figures next to this run's in the summary.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { CASES } from "./bodies.mjs";
import {
  consumer, ensureConsumer, ensurePackage, ensureSandbox, kb, log, machine, median, ms, nodeJson, ops, pairedRatio, root,
  sdkEntry, spread, startSandbox, us, work, x,
} from "./lib.mjs";
import { alternativesSizes, namedValidateWasm, namedVariant, named, packageSizes, wasmBreakdown } from "./size.mjs";
import { profile } from "./profile.mjs";
import { output } from "../scripts/lib.mjs";
import { measureFleet } from "./fleet.mjs";
import { measureAuth } from "./auth.mjs";
import { measureConnections } from "./connections.mjs";
import { daySection, measureDay } from "./day.mjs";
import { measureValidatePage, validatePageSection, validatePageTimeRow } from "./validate-page.mjs";

const ARGS = process.argv.slice(2);
const QUICK = ARGS.includes("--quick");
/** `--report`: write BENCHMARKS.md again from the figures of the last run (target/bench/results.json), measuring nothing. */
const REPORT_ONLY = ARGS.includes("--report");
/** `--before FILE`: the bench/results/*.json of an earlier run (another commit), shown beside this run's figures. */
const BEFORE_FILE = ARGS.find((a) => a.startsWith("--before="))?.slice("--before=".length) ?? (ARGS.includes("--before") ? ARGS[ARGS.indexOf("--before") + 1] : null);
const CONFIG = {
  validationRuns: QUICK ? 2 : 5,
  validationMsPerCase: QUICK ? 300 : 700,
  freshProcesses: QUICK ? 5 : 15,
  decodeRounds: QUICK ? 5 : 15,
  decodeMs: 150,
  callRounds: QUICK ? 15 : 31,
  callsPerRound: QUICK ? 50 : 100,
  timelineCalls: QUICK ? 500 : 2000,
  /** The limiter and the fleet are not in issue 26's table; --quick leaves them out (they take three minutes). */
  limiter: !QUICK,
  rateLimit: 600,
  rateSeconds: 120,
  fleet: { processes: 8, seconds: 120, callsEach: 50, latencyMs: 300, org: "70000009" },
  /** The same fleet with oauth, tokens living 10 s, each process alone and then sharing a store. */
  auth: { processes: 8, seconds: 30, lifetimeMs: 10_000, everyMs: 1_000, org: "70000011" },
  /** A call through a connection beside a plain oauth client, and the memory of `known` connections in one process. */
  connections: { calls: QUICK ? 100 : 300, known: QUICK ? 1_000 : 10_000 },
  /** A day of 1000 calls, a sync job of 1200 early in it and 150 calls of people after. */
  day: { dailyQuota: 1000, syncCalls: 1200, interactiveCalls: 150 },
  listItems: 200,
  pageLoads: QUICK ? 5 : 15,
  testingRounds: QUICK ? 5 : 11,
  profileMs: 2500,
};
/** Issue 26's targets (the first eight) and the other figures' targets. */
const TARGETS = {
  sizeGzip: 180 * 1024,
  validatePageGzip: 45 * 1024,
  clientPageGzip: 110 * 1024,
  freshInsideMs: 15,
  validVsStringify: 3,
  invalidVsZod: 1,
  decodeVsParse: 1.5,
  callVsRaw: 1.25,
  rateShare: 0.95,
  validatePageVsZod: 1.5,
};
const ORG = "10234695";
const FRESH = ["none", "svc-sdk", "zod", "valibot"];

/** `--only limiter`, `--only fleet`, `--only auth`, `--only connections` or `--only day`: that step alone (after building what is missing); prints its figures, writes no file. */
const ONLY = ARGS.includes("--only") ? ARGS[ARGS.indexOf("--only") + 1] : null;

const resultsFile = path.join(work, "results.json");
mkdirSync(work, { recursive: true });
if (ONLY) {
  if (!["limiter", "fleet", "auth", "connections", "day"].includes(ONLY)) throw new Error(`--only ${ONLY}: the steps that run alone are limiter, fleet, auth, connections and day`);
  ensurePackage();
  ensureSandbox();
  ensureConsumer();
  const step = { limiter: () => measureLimiter(sdkEntry()), fleet: measureFleetStep, auth: measureAuthStep, connections: measureConnectionsStep, day: measureDayStep }[ONLY];
  const figures = await step();
  console.log(JSON.stringify(figures, null, 2));
  process.exit(0);
}
const BEFORE = BEFORE_FILE ? JSON.parse(readFileSync(path.resolve(BEFORE_FILE), "utf8")) : null;
const R = REPORT_ONLY ? JSON.parse(readFileSync(resultsFile, "utf8")) : await measure();
if (!REPORT_ONLY) writeFileSync(resultsFile, JSON.stringify(R));

/** Every measurement of one run, as one object (saved to target/bench/results.json). */
async function measure() {
  const started = Date.now();
  const env = machine();
  const commit = output("git", ["rev-parse", "--short=7", "HEAD"]) ?? "unknown";
  // Changes to the bench itself do not change what it measures.
  const dirty = (output("git", ["status", "--porcelain", "--untracked-files=no", "--", ".", ":!bench", ":!BENCHMARKS.md", ":!package.json"]) ?? "") !== "";
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
  let wasm = null;
  if (variant.missing) log(`bench: no named copy of the wasm (${variant.missing}): no twiggy breakdown, no profiles`);
  else wasm = wasmBreakdown(variant.namedWasm, 15);
  const validateVariant = namedValidateWasm();
  const validateWasm = validateVariant.missing ? null : wasmBreakdown(validateVariant.namedWasm, 10);
  const alternatives = alternativesSizes();
  log(`bench: a page that only validates (Vite, Chromium), ${CONFIG.pageLoads} loads of it and of the zod page`);
  const validatePage = await measureValidatePage(CONFIG.pageLoads);

  // ---- a fresh workerd isolate: start to its first answer ----
  log("bench: workerd cold start, 9 runs of each worker");
  const workerdCold = nodeJson(path.join(root, "bench/workerd-cold.mjs"), [QUICK ? "3" : "9"]);

  // ---- validation: the three implementations agree, then ops/s ----
  log("bench: validation (cross-check)");
  const agreement = nodeJson(path.join(root, "bench/validate-check.mjs"), [entry]);
  log(`bench: validation ops/s, ${CONFIG.validationRuns} runs × 3 implementations`);
  const LIBS = ["svc-sdk", "zod", "valibot"];
  // `stringify`: JSON.stringify of each body, timed in the svc-sdk worker right after svc-sdk (same process, same loop).
  const validation = Object.fromEntries([...LIBS, "stringify", "stringifyRatio"].map((l) => [l, Object.fromEntries(CASES.map((c) => [c.name, []]))]));
  for (let r = 0; r < CONFIG.validationRuns; r++) {
    for (const lib of LIBS.map((_, i) => LIBS[(i + r) % LIBS.length])) {
      const out = nodeJson(path.join(root, "bench/validate-worker.mjs"), [lib, entry, String(CONFIG.validationMsPerCase)]);
      for (const [name, v] of Object.entries(out.cases)) {
        validation[lib][name].push(v.opsPerSec);
        if (v.stringifyOpsPerSec) validation.stringify[name].push(v.stringifyOpsPerSec);
        if (v.stringifyRatio) validation.stringifyRatio[name].push(v.stringifyRatio);
      }
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
      if (callRatio > TARGETS.callVsRaw && !variant.missing) {
        log("bench: profiling one call");
        callProfile = profile(named, "call", sandbox.url, CONFIG.profileMs);
        rawProfile = profile(named, "raw-call", sandbox.url, CONFIG.profileMs);
      }
    } finally {
      await sandbox.close();
    }
  }

  // ---- svc-sdk/testing: the scenario in-process and over loopback ----
  log(`bench: svc-sdk/testing, ${CONFIG.testingRounds} rounds of the scenario`);
  const testing = nodeJson(path.join(root, "bench/testing-worker.mjs"), [entry, String(CONFIG.testingRounds)]);

  // ---- profiles where a target is missed ----
  const profiling = !variant.missing;
  const decodeRatio = pairedRatio(decode.rounds.sdk, decode.rounds.jsonParse);
  const decodeProfile = profiling && decodeRatio > TARGETS.decodeVsParse ? (log("bench: profiling decode"), profile(named, "decode", listFile, CONFIG.profileMs)) : null;
  const WORKLOAD = { createFixedAsset: "validate-fixed-asset", updateNotificationChannels: "validate-watch", createOrganization: "validate-organization" };
  const missedValid = CASES.filter((c) => c.ok && stringifyRatio(validation, c.name) > TARGETS.validVsStringify);
  const validationProfiles =
    profiling && missedValid.length
      ? (log("bench: profiling validation"), Object.fromEntries(missedValid.map((c) => [c.name, profile(named, WORKLOAD[c.op], "", CONFIG.profileMs)])))
      : null;

  // ---- the limiter under a per-minute limit ----
  let rate, rateCounters, fleet, auth;
  if (CONFIG.limiter) {
    ({ rate, rateCounters } = await measureLimiter(entry));
    fleet = await measureFleetStep();
    auth = await measureAuthStep();
  }
  const connections = await measureConnectionsStep();
  const day = measureDayStep();
  env.loadEnd = os.loadavg().map((l) => l.toFixed(2)).join(", ");
  return {
    commit,
    dirty,
    quick: QUICK,
    started, elapsedMs: Date.now() - started, config: CONFIG, env, variant, sizes, wasm, validateVariant, validateWasm, alternatives, agreement, validation,
    fresh, workerdCold, decode, call, callProfile, rawProfile, decodeProfile, validationProfiles, rate, rateCounters, fleet, auth, connections, day, validatePage, testing,
  };
}

/** A call through a connection beside a plain oauth client and a raw fetch; the memory of many connections. */
async function measureConnectionsStep() {
  const c = CONFIG.connections;
  log(`bench: connections: ${c.calls} calls each way, then ${c.known} connections known to one process`);
  try {
    return await measureConnections(c);
  } catch (e) {
    log(`bench: the connections step failed: ${e.message}`);
    return { error: e.message };
  }
}

/** The connections step's table: a call's median each way, and the memory of many connections. */
function connectionsSection(c) {
  const L = ["### Connections: a call through a connection, and many connections in one process", ""];
  if (!c) return [...L, "Not measured.", ""];
  if (c.error) return [...L, `Not measured: ${c.error.replace(/\s*\n\s*/g, " ")}`, ""];
  const per = (n) => `${(n / c.known).toFixed(0)} B`;
  L.push(
    "One process against the release sandbox over loopback, tokens kept (no refresh in the timed calls), the limiter off;",
    "each figure the median of the calls of `listCurrencies`, sequential.",
    "",
    "| a call | median | against raw fetch |",
    "|---|---|---|",
    ...[
      ["raw fetch with the token (the floor)", c.call.raw],
      ["a `Client` with `oauth`, kept", c.call.oauth],
      ["a connection's client, kept", c.call.connectionKept],
      ["a connection's client made for the call (`connections.client(id)` per request)", c.call.connectionPerCall],
    ].map(([what, v]) => `| ${what} | ${v.toFixed(3)} ms | ${x(v / c.call.raw)} |`),
    "",
    `${c.known} connections made in one process (consent, redirect, one call each) in ${(c.connectMs / 1000).toFixed(1)} s; the memory they hold after a`,
    `full GC: JS heap ${kb(c.memory.heapUsed)} (${per(c.memory.heapUsed)} each), external (the wasm's memory, which grows and never shrinks)`,
    `${kb(c.memory.external)} (${per(c.memory.external)} each), resident set ${kb(c.memory.rss)}. The process keeps at most 10 000 records (30 s each) and 4 096`,
    "idle credentials' tokens; past them the oldest are let go.",
    "",
  );
  return L;
}

/** The side-by-side table of the auth step: each process refreshing alone against the fleet sharing a store. */
function authSection(a) {
  const L = ["### Authentication: a fleet with oauth, alone or sharing a store", ""];
  if (!a) return [...L, "Not measured (`--quick`).", ""];
  if (a.error) return [...L, `Not measured: ${a.error.replace(/\s*\n\s*/g, " ")}`, ""];
  L.push(
    `${a.processes} Node processes, each a \`Client\` with \`oauth\` calling once a second for ${a.seconds} s, against the sandbox's accounts`,
    `server (10 tokens per refresh token in 10 minutes, tokens living ${a.lifetimeMs / 1000} s); "alone": no store, each process refreshes for`,
    "itself; \"store\": every process on one redis-server (`rateLimit.store`). The organization's limits are out of the way.",
    "",
    "| | refreshes granted | Access Denied answers | API 401s | peak live tokens | calls | answered | failed |",
    "|---|---|---|---|---|---|---|---|",
  );
  for (const [mode, m] of Object.entries(a.modes)) {
    const failed = Object.entries(m.failed).map(([k, n]) => `${n} ${k}`).join(", ") || "0";
    L.push(`| ${mode} | ${m.granted} | ${m.accessDenied} | ${m.api401} | ${m.peakLive} | ${m.calls} | ${m.ok} | ${failed} |`);
  }
  return [...L, ""];
}

/** The day with and without lanes; `{ error }` when the step failed. */
function measureDayStep() {
  log("bench: a day of a sync job and people's calls, without and with lanes");
  try {
    return measureDay(CONFIG.day);
  } catch (e) {
    log(`bench: the day step failed: ${e.message}`);
    return { error: e.message };
  }
}

/** The fleet with oauth, each process alone and then sharing a store; `{ error }` when the step failed. */
async function measureAuthStep() {
  const a = CONFIG.auth;
  log(`bench: ${a.processes} processes with oauth, tokens living ${a.lifetimeMs / 1000} s, for ${a.seconds} s each: alone, then sharing redis`);
  try {
    return await measureAuth(a);
  } catch (e) {
    log(`bench: the auth step failed: ${e.message}`);
    return { error: e.message };
  }
}

/** The limiter under a per-minute limit: the rate worker's figures and the sandbox's counters. */
async function measureLimiter(entry) {
  log(`bench: rate limiter, ${CONFIG.rateLimit}/min for ${CONFIG.rateSeconds} s`);
  const sandbox = await startSandbox(["--rate-per-minute", String(CONFIG.rateLimit), "--plan", "ultimate", "--daily-quota", "1000000"]);
  try {
    const rate = nodeJson(path.join(root, "bench/rate-worker.mjs"), [entry, sandbox.url, String(CONFIG.rateLimit), String(CONFIG.rateSeconds)]);
    return { rate, rateCounters: (await sandbox.counters()).operations?.listCurrencies };
  } finally {
    await sandbox.close();
  }
}

/** A fleet of processes sharing one organization's limits through redis; `{ error }` when the step failed. */
async function measureFleetStep() {
  log(`bench: fleet of ${CONFIG.fleet.processes} processes on redis at 100/min for ${CONFIG.fleet.seconds} s`);
  try {
    return await measureFleet(CONFIG.fleet);
  } catch (e) {
    log(`bench: the fleet step failed: ${e.message}`);
    return { error: e.message };
  }
}

/** Why a crate is in the wasm (Cargo.toml and `cargo tree --target wasm32-unknown-unknown`). */
const WHY = {
  svc_sdk: "the SDK's own code (catalog, rules, request, response, limiter, retry, webhook)",
  core: "Rust's core library: formatting, str and slice helpers, float parsing, unicode tables",
  alloc: "Vec, String, BTreeMap and friends",
  std: "std's wasm32 runtime (hashing for RandomState, panics)",
  serde_json: "not in a production build (tests only, through svc-core's `serde_json` feature)",
  serde_core: "serde (derive support)",
  indexmap: "an ordered map of a dependency",
  hashbrown: "std's HashMap and HashSet",
  equivalent: "indexmap",
  zmij: "the core's writer: floats written as serde_json writes them",
  itoa: "writing integers",
  dlmalloc: "the allocator of std on wasm32-unknown-unknown",
  js_sys: "wasm only: JS built-ins (Promise, JSON, Reflect, Uint8Array)",
  wasm_bindgen: "wasm only: the JS bindings",
  __rustc: "compiler builtins",
  "data segments (strings, tables)": "string constants (messages, the catalog's names and paths, TS type names) and tables (core's unicode and float tables, the rule tables)",
};

const yes = (b) => (b ? "**met**" : "**missed**");
const dateOf = (t) => new Date(t).toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
const usPer = (opsPerSec) => 1e6 / opsPerSec;
/** svc-sdk's time ÷ JSON.stringify's for one body: the median over runs of each run's median of paired slices. */
function stringifyRatio(validation, name) {
  return median(validation.stringifyRatio[name]);
}

/**
 * Issue 26's table for one run: per row the figure (`value`, in `unit`), what it is compared with,
 * the ratio to it where the target is one, the target and whether it is met. `short` is the cell of
 * the before/after table; `detail` and `comparison` are the cells of this run's table.
 */
function issueRows(R) {
  const { sizes, alternatives, fresh, validation, decode, call, validatePage: P } = R;
  const C = R.config;
  const rows = [];
  rows.push({
    id: "size",
    figure: "gzip -9 of what the Node entry loads",
    value: sizes.total.gzip, unit: "bytes",
    short: `${kb(sizes.total.gzip)} (wasm ${kb(sizes.wasm.gzip)})`,
    detail: `${kb(sizes.total.gzip)} (wasm ${kb(sizes.wasm.gzip)}, JS ${kb(sizes.glue.gzip)}; ${sizes.total.files.length} files followed from \`pkg/node.js\`)`,
    comparison: alternatives ? `zod 4 with the benchmark's schemas ${kb(alternatives.zod.gzip)}, valibot ${kb(alternatives.valibot.gzip)} (bundled, minified)` : "—",
    ratio: null,
    target: `≤ ${TARGETS.sizeGzip / 1024} KB`,
    met: sizes.total.gzip <= TARGETS.sizeGzip,
  });
  if (P) {
    const sdk = P.sizes["svc-sdk/validate"].total.gzip;
    const zod = P.sizes.zod.total.gzip;
    rows.push({
      id: "validatePage",
      figure: "a Vite page that only validates (`svc-sdk/validate`)",
      value: sdk, unit: "bytes",
      short: `${kb(sdk)} (zod page ${kb(zod)})`,
      detail: `${kb(sdk)} gzip -9 (wasm ${kb(P.sizes["svc-sdk/validate"].wasm.gzip)}, JS ${kb(P.sizes["svc-sdk/validate"].js.gzip)})`,
      comparison: `the same page with zod 4: ${kb(zod)}`,
      ratio: sdk / zod, ratioOf: "the zod page",
      target: `≤ ${TARGETS.validatePageGzip / 1024} KB`,
      met: sdk <= TARGETS.validatePageGzip,
    });
  }
  const page = P?.sizes["svc-sdk (Client + schemaFor)"];
  if (page) {
    const both = P.sizes["svc-sdk, then svc-sdk/validate"];
    rows.push({
      id: "clientPage",
      figure: "a Vite page with `Client` and `schemaFor` (`svc-sdk`'s browser build)",
      value: page.loaded.gzip, unit: "bytes",
      short: kb(page.loaded.gzip),
      detail: `${kb(page.loaded.gzip)} gzip -9 (wasm ${kb(page.wasm.gzip)}, JS ${kb(page.js.gzip)}); importing svc-sdk/validate too: ${kb(both.loaded.gzip)}, ${both.loaded.files.filter((f) => f.endsWith(".wasm")).length} wasm loaded`,
      comparison: "—",
      ratio: null,
      target: `≤ ${TARGETS.clientPageGzip / 1024} KB`,
      met: page.loaded.gzip <= TARGETS.clientPageGzip,
    });
  }
  const inside = (lib) => median(fresh[lib].work);
  const wall = (lib) => ms(median(fresh[lib].wall));
  rows.push({
    id: "fresh",
    figure: "fresh Node process: import + first validate, inside the process",
    value: inside("svc-sdk"), unit: "ms",
    short: `${ms(inside("svc-sdk"))} (valibot ${ms(inside("valibot"))})`,
    detail: `${ms(inside("svc-sdk"))} (median of ${C.freshProcesses} processes; wall ${wall("svc-sdk")}, an empty process ${wall("none")})`,
    comparison: `valibot ${ms(inside("valibot"))}, zod ${ms(inside("zod"))} (inside; wall ${wall("valibot")} and ${wall("zod")})`,
    ratio: inside("svc-sdk") / inside("valibot"), ratioOf: "valibot",
    target: `≤ ${TARGETS.freshInsideMs} ms`,
    met: inside("svc-sdk") <= TARGETS.freshInsideMs,
  });
  for (const c of CASES) {
    const sdk = validation["svc-sdk"][c.name];
    if (!sdk?.length) continue;
    const vsZod = median(sdk) / median(validation.zod[c.name]);
    const others = `zod ${us(usPer(median(validation.zod[c.name])))}, valibot ${us(usPer(median(validation.valibot[c.name])))}`;
    const detail = `${us(usPer(median(sdk)))} per call (${ops(median(sdk))}, median of ${sdk.length} runs)`;
    const figure = `validate ${c.name}`;
    if (c.ok) {
      const ratio = stringifyRatio(validation, c.name);
      rows.push({
        id: c.id, figure, value: usPer(median(sdk)), unit: "µs",
        short: `${x(ratio)} JSON.stringify (${us(usPer(median(sdk)))}; ${x(vsZod)} zod ops/s)`,
        detail, comparison: `JSON.stringify of the same body ${us(usPer(median(validation.stringify[c.name])))}; ${others} (svc-sdk ${x(vsZod)} zod's ops/s)`,
        ratio, ratioOf: "JSON.stringify (time)",
        target: `≤ ${TARGETS.validVsStringify}× JSON.stringify`,
        met: ratio <= TARGETS.validVsStringify,
      });
    } else {
      rows.push({
        id: c.id, figure, value: usPer(median(sdk)), unit: "µs",
        short: `${x(vsZod)} zod (${us(usPer(median(sdk)))})`,
        detail, comparison: others,
        ratio: vsZod, ratioOf: "zod (ops/s)",
        target: `≥ ${TARGETS.invalidVsZod.toFixed(1)}× zod`,
        met: vsZod >= TARGETS.invalidVsZod,
      });
    }
  }
  const decodeRatio = pairedRatio(decode.rounds.sdk, decode.rounds.jsonParse);
  rows.push({
    id: "decode",
    figure: `decode a ${decode.items}-item list`,
    value: median(decode.rounds.sdk), unit: "µs",
    short: `${x(decodeRatio)} JSON.parse (${us(median(decode.rounds.sdk))})`,
    detail: `${us(median(decode.rounds.sdk))} per call, every id exact (${kb(decode.bytes)}, ${decode.bigIds} ids beyond 2^53; median of ${C.decodeRounds} rounds)`,
    comparison: `JSON.parse ${us(median(decode.rounds.jsonParse))} (changes ${decode.lostByJsonParse} of ${decode.bigIds} ids); Response.json() ${us(median(decode.rounds.responseJson))}`,
    ratio: decodeRatio, ratioOf: "JSON.parse",
    target: `≤ ${TARGETS.decodeVsParse}× JSON.parse`,
    met: decodeRatio <= TARGETS.decodeVsParse,
  });
  const callRatio = pairedRatio(call.rounds.sdk, call.rounds.raw);
  rows.push({
    id: "call",
    figure: "one call on the loopback sandbox",
    value: median(call.rounds.sdk), unit: "µs",
    short: `${x(callRatio)} raw fetch (${us(median(call.rounds.sdk))})`,
    detail: `${us(median(call.rounds.sdk))} (getCurrency, sequential, in turns with the raw fetch; median of ${C.callRounds} rounds × ${C.callsPerRound} calls)`,
    comparison: `raw fetch + res.json() ${us(median(call.rounds.raw))}`,
    ratio: callRatio, ratioOf: "raw fetch",
    target: `≤ ${TARGETS.callVsRaw}× raw fetch`,
    met: callRatio <= TARGETS.callVsRaw,
  });
  return rows;
}

/** What bench/results/<commit>.json holds: the machine and issue 26's rows of one run. */
function resultsOf(R) {
  return {
    commit: R.commit, dirty: R.dirty, date: dateOf(R.started), quick: R.quick,
    machine: { ...R.env, note: "load is the load average (1, 5, 15 min) at the start, loadEnd at the end of the run" },
    elapsedSeconds: Math.round(R.elapsedMs / 1000),
    rows: issueRows(R),
  };
}

/** The twiggy tables of a named wasm: its largest items, and its bytes summed by crate. */
function wasmTables(wasm, h, prefix = "") {
  const L = [];
  const title = (t) => (prefix ? prefix + t : t[0].toUpperCase() + t.slice(1));
  L.push(`${h} ${title(`the ${wasm.topItems.length} largest items of the wasm (\`twiggy top -n ${wasm.topItems.length}\`, name sections left out)`)}`, "");
  L.push("| bytes | share | item | what the data holds |", "|---|---|---|---|");
  for (const t of wasm.topItems) L.push(`| ${t.bytes} | ${((100 * t.bytes) / wasm.total).toFixed(1)} % | \`${t.name.replace(/\|/g, "\\|")}\` | ${t.preview ? t.preview.replace(/\|/g, "\\|").replace(/`/g, "'") : ""} |`);
  L.push("");
  L.push(`${h} ${title("what each crate costs (twiggy, summed by the crate in each symbol's name)")}`, "");
  L.push("Generic code is counted in the crate whose name it bears, so `core` and `alloc` include code instantiated for svc-sdk's");
  L.push("types; the export shims and the async closure hold svc-sdk code that wasm-opt inlined into them.", "");
  L.push("| crate or part | bytes | share | items | there because |", "|---|---|---|---|---|");
  for (const c of wasm.crates) L.push(`| ${c.crate} | ${c.bytes} | ${((100 * c.bytes) / wasm.total).toFixed(1)} % | ${c.items} | ${WHY[c.crate] ?? ""} |`);
  L.push("");
  return L;
}

function report(R) {
  const { started, env, variant, sizes, wasm, agreement, validation, fresh, decode, call, callProfile, rawProfile, decodeProfile, validationProfiles, rate, rateCounters } = R;
  const CONFIG = R.config;
  const validationRatios = CASES.map((c) => median(validation["svc-sdk"][c.name]) / median(validation.zod[c.name]));
  const L = [];
  const { commit = "unknown", dirty = false } = R;
  const at = (c, d) => `${c}${d ? " (with uncommitted changes)" : ""}`;

  L.push("# Benchmarks", "");
  L.push("Written by `npm run bench` (`bench/run.mjs`); figures change from run to run, so every figure is the median of");
  L.push("several runs (the count is given with each). Benchmarks are not tests: nothing here fails a build.", "");
  L.push("| | |", "|---|---|");
  L.push(`| date | ${dateOf(started)} |`);
  L.push(`| commit | ${commit}${dirty ? " with uncommitted changes in the working tree" : ""} |`);
  L.push(`| CPU | ${env.cpu}, ${env.cores} cores |`, `| RAM | ${env.ram} |`, `| OS | ${env.os} |`);
  L.push(`| Node | ${env.node} |`, `| rustc | ${env.rustc} |`);
  L.push(`| load average (1, 5, 15 min) | ${env.load} at the start${env.loadEnd ? `, ${env.loadEnd} at the end` : ""} (other work was running on the machine: medians, not means) |`);
  L.push(`| run time | ${(R.elapsedMs / 1000).toFixed(0)} s${R.quick ? " (`--quick`: fewer runs, no limiter or fleet)" : ""} |`, "");

  // summary: issue 26's table, before and after
  const rows = issueRows(R);
  L.push("## Summary", "");
  if (BEFORE) {
    const before = new Map(BEFORE.rows.map((r) => [r.id, r]));
    L.push(`The goals' table (issue 26's rows, issue 51's goals: the Node entry under 180 KB, a valid body within 3× JSON.stringify), before (${at(BEFORE.commit, BEFORE.dirty)}, ${BEFORE.date}, load ${BEFORE.machine.load}) and after (${at(commit, dirty)}, load ${env.load}),`);
    L.push("each one run on the same machine; the before figures are read from the file `--before` named.", "");
    L.push(`| figure | before: ${BEFORE.commit} | after: ${commit} | target | before → after |`, "|---|---|---|---|---|");
    for (const r of rows) {
      const b = before.get(r.id);
      L.push(`| ${r.figure} | ${b ? b.short : "—"} | ${r.short} | ${r.target} | ${b ? (b.met ? "met" : "missed") : "—"} → ${yes(r.met)} |`);
    }
    L.push("");
  }
  L.push("The goals' table for this run. The decode, call and JSON.stringify ratios are the medians of the per-round ratios:");
  L.push("each round times the SDK and what it is compared with one right after the other, so that a drift of a shared machine's");
  L.push("speed cancels out. For a valid body the ratio is of times (svc-sdk ÷ `JSON.stringify` of the same body), for an invalid");
  L.push("one of calls per second (svc-sdk ÷ zod).", "");
  L.push("| figure | svc-sdk | compared with | ratio | target | |", "|---|---|---|---|---|---|");
  for (const r of rows) L.push(`| ${r.figure} | ${r.detail} | ${r.comparison} | ${r.ratio === null ? "—" : `${x(r.ratio)} ${r.ratioOf}`} | ${r.target} | ${yes(r.met)} |`);
  L.push("");

  L.push("Other figures (not in the goals' table):", "");
  L.push("| benchmark | svc-sdk | compared with | ratio | target | |", "|---|---|---|---|---|---|");
  if (R.validatePage) L.push(validatePageTimeRow(R.validatePage, TARGETS, yes));
  if (R.workerdCold) {
    const w = R.workerdCold;
    L.push(
      `| a fresh workerd isolate: \`workerd serve\` started to its first answer, which validates createFixedAsset (median of ${w.runs}; every run: ${w["svc-sdk"].firsts.join(", ")} ms) | ${ms(w["svc-sdk"].first)} (second answer ${ms(w["svc-sdk"].second)}) | the same worker without svc-sdk: ${ms(w.baseline.first)} | svc-sdk adds ${ms(w.added)} | reported | |`,
    );
  }
  if (rate) {
    const share = rate.sustainedPerMinute / rate.limit;
    const n429 = rate.statuses["429"] ?? 0;
    L.push(
      `| sustained rate of the limiter at ${rate.limit}/min against a sandbox limiting at ${rate.limit}/min (${rate.calls} calls queued at once, one run of ${(rate.elapsedMs / 1000).toFixed(0)} s) | ${rate.sustainedPerMinute.toFixed(1)}/min, ${n429} × 429 | the limit, ${rate.limit}/min | ${(share * 100).toFixed(1)} % | ≥ 95 %, no 429 | ${yes(share >= TARGETS.rateShare && n429 === 0 && rate.rejected === 0)} |`,
    );
  } else L.push("| the limiter at a per-minute limit | not measured (`--quick`) | | | ≥ 95 %, no 429 | |");
  if (R.fleet?.error) {
    L.push(`| fleet of processes sharing one organization's limits through redis | not measured: ${R.fleet.error.replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|")} | | | ≥ 95 %, no 429 | |`);
  } else if (R.fleet) {
    const f = R.fleet;
    // The limit allows `limit` starts a minute: the full run's worth, counting from the first start.
    const allowed = f.limitPerMinute * Math.floor(f.elapsedMs / 60_000);
    const fShare = f.received / allowed;
    const f429 = f.statuses["429"] ?? 0;
    L.push(
      `| fleet: ${f.processes} Node processes sharing one redis-server, 100/min and 5 in flight (free plan), ${f.queued} calls queued at once, answers after ${f.latencyMs} ms, ${(f.elapsedMs / 1000).toFixed(0)} s | ${f.received} requests, ${f429} × 429, peak ${f.peakInFlight} in flight | the limit, ${allowed} in ${Math.floor(f.elapsedMs / 60_000)} min | ${(fShare * 100).toFixed(1)} % | ≥ 95 %, no 429 | ${yes(fShare >= TARGETS.rateShare && f429 === 0 && f.peakInFlight <= 5)} |`,
    );
  } else L.push("| fleet of processes sharing one organization's limits through redis | not measured (`--quick`) | | | ≥ 95 %, no 429 | |");
  L.push("");
  L.push(...authSection(R.auth));
  L.push(...connectionsSection(R.connections));
  L.push(...daySection(R.day));

  // package size
  L.push("## Package size", "");
  L.push("Sizes of `pkg/` as built by `scripts/build.mjs` (gzip -9 is zlib at level 9). What the Node entry loads is found by");
  L.push("following `pkg/node.js`'s static imports and the wasm files its modules name (`bench/size.mjs`), marked ● below; the other");
  L.push("entries load the same for their runtimes.", "");
  L.push("| file | raw | gzip -9 | the Node entry loads it |", "|---|---|---|---|");
  for (const r of sizes.rows) L.push(`| \`${r.file}\` | ${kb(r.raw)} | ${kb(r.gzip)} | ${r.loaded ? "●" : ""} |`);
  L.push(`| **what the Node entry loads** | **${kb(sizes.total.raw)}** | **${kb(sizes.total.gzip)}** | ${sizes.total.files.length} files |`, "");
  if (!wasm) {
    L.push(`No breakdown of the wasm: ${variant.missing}.`, "");
  } else {
    L.push(
      `Names: a copy built from the same cargo output (\`${variant.input}\`) with wasm-bindgen and \`wasm-opt -Oz -g\` (names kept) is ${kb(variant.namedBytes)}, of which`,
      `${kb(wasm.names)} are the name sections; the rest, ${kb(wasm.total)}, is the code and data of the shipped wasm (${kb(sizes.wasm.raw)}; wasm-bindgen's`,
      `output before wasm-opt: ${kb(variant.bindgenBytes)}). Its exports and imports are those of \`pkg/${variant.wasmFile}\`${variant.rebuilt ? " (pkg/ was rebuilt first)" : ""}.`,
      "",
    );
    L.push(...wasmTables(wasm, "###"));
  }

  if (R.validatePage) {
    L.push(...validatePageSection(R.validatePage));
    const v = R.validateVariant;
    if (R.validateWasm) {
      L.push(`The wasm of \`svc-sdk/validate\` (\`pkg/${v.wasmFile}\`, from \`${v.input}\`), named the same way: ${kb(R.validateWasm.total)} of code and data.`, "");
      L.push(...wasmTables(R.validateWasm, "###", "svc-sdk/validate: "));
    } else if (v) L.push(`No breakdown of the wasm of \`svc-sdk/validate\`: ${v.missing}.`, "");
  }

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
  L.push("The rules of createFixedAsset, updateNotificationChannels and createOrganization written again in zod 4 and valibot 1");
  L.push("(`bench/schemas/`): required fields (a blank string is missing), ids as non-empty strings or integers, value sets, 0–100 for");
  L.push("depreciation_percentage and not with straight_line, dates, the watch's channel id, events, URL, token length, expiry");
  L.push("within a week, nested groups of field members and at most 10 fields however nested, portal_name of 5 to 30 letters and");
  L.push("digits. Unknown keys are kept and every issue is reported in one pass by all three. Before timing, the three are run on");
  L.push("the bodies (`bench/bodies.mjs`):", "");
  L.push("| body | svc-sdk | zod | valibot |", "|---|---|---|---|");
  for (const c of CASES) if (agreement[c.name]) L.push(`| ${c.name} | ${agreement[c.name]["svc-sdk"]} | ${agreement[c.name].zod} | ${agreement[c.name].valibot} |`);
  L.push("");
  L.push(`Calls per second, median of ${CONFIG.validationRuns} runs, each run a fresh process per implementation (~${CONFIG.validationMsPerCase} ms per body after a warm-up);`);
  L.push("`JSON.stringify` of the same body is timed the same way in the svc-sdk process, in 9 slices alternated with svc-sdk's;");
  L.push("the time ratio is the median of the slices' ratios (then of the runs'):", "");
  L.push("| body | svc-sdk | JSON.stringify | zod 4 | valibot 1 | svc-sdk time ÷ stringify time | svc-sdk ÷ zod (ops/s) | svc-sdk runs (min–max) |", "|---|---|---|---|---|---|---|---|");
  for (const [i, c] of CASES.entries()) {
    const s = validation["svc-sdk"][c.name];
    if (!s?.length) continue;
    const st = validation.stringify?.[c.name] ?? [];
    L.push(
      `| ${c.name} | ${ops(median(s))} | ${st.length ? ops(median(st)) : "—"} | ${ops(median(validation.zod[c.name]))} | ${ops(median(validation.valibot[c.name]))} | ` +
        `${st.length ? x(stringifyRatio(validation, c.name)) : "—"} | ${x(validationRatios[i])} | ${spread(s, ops)} |`,
    );
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
  L.push(`request \`client.prepare()\` gives, with the same headers. ${CONFIG.callRounds} rounds of ${CONFIG.callsPerRound} calls per variant. In each round the SDK`);
  L.push("and the raw fetch are called in turns and each gives its median call (a shared machine's pauses land on single calls);");
  L.push("the other variants follow, µs per call over the round, the order rotated:", "");
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

  if (R.testing) {
    const T = R.testing;
    const ratio = pairedRatio(T.rounds.inProcess, T.rounds.loopback);
    L.push("## svc-sdk/testing: the scenario in-process and over loopback", "");
    L.push(`The shared scenario of \`tests/runtimes/testing/scenario.mjs\` (${T.rounds.requests} requests: creates, pages, an update, a delete, an upload`);
    L.push("and its download, refused tokens; its 429 step left out, since its Retry-After waits are the sandbox's) through a Client, against a");
    L.push(`new \`Sandbox\` in-process and against a new release binary over loopback, in turns, ${T.rounds.inProcess.length} rounds.`);
    L.push("Its entry loads only when imported; its files are in the package size table above.", "");
    L.push("| | median | rounds (min–max) |", "|---|---|---|");
    L.push(`| \`import("svc-sdk/testing")\` (once, after \`svc-sdk\`) | ${ms(T.importMs)} | |`);
    L.push(`| \`new Sandbox()\` | ${ms(median(T.newSandbox))} | ${spread(T.newSandbox, ms)} |`);
    L.push(`| the scenario in-process (\`fetch: sandbox.fetch\`) | ${ms(median(T.rounds.inProcess))} | ${spread(T.rounds.inProcess, ms)} |`);
    L.push(`| the scenario over loopback (the binary) | ${ms(median(T.rounds.loopback))} | ${spread(T.rounds.loopback, ms)} |`);
    L.push(`| in-process / loopback (median of the rounds' ratios) | ${x(ratio)} | |`, "");
  }

  // rate
  if (rate) {
    const share = rate.sustainedPerMinute / rate.limit;
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
  }

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
  L.push("`npm run bench` (about 8 to 10 minutes; `npm run bench -- --quick` for a shorter, rougher run without the limiter and the");
  L.push("fleet). It builds `pkg/`, the release sandbox and twiggy when missing, packs the package into `target/bench/consumer` as a");
  L.push("user installs it, rewrites this file and writes the figures of issue 26's table to `bench/results/<commit>.json`.");
  L.push("`--before bench/results/<commit>.json` adds that run's figures as a \"before\" column to the summary; `--report` writes this");
  L.push("file again from the last run's figures; `--only limiter` or `--only fleet` runs that step alone and prints its figures.");
  L.push("The scripts are in `bench/`; the notes above are `bench/notes.md`.");
  return L.join("\n") + "\n";
}

// ---- BENCHMARKS.md and bench/results/<commit>.json ----
writeFileSync(path.join(root, "BENCHMARKS.md"), report(R));
if (!REPORT_ONLY) {
  const dir = path.join(root, "bench/results");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${R.commit}${R.dirty ? "-dirty" : ""}.json`);
  writeFileSync(file, JSON.stringify(resultsOf(R), null, 2) + "\n");
  log(`bench: figures of issue 26's table in ${path.relative(root, file)}`);
}
log(`bench: BENCHMARKS.md written${REPORT_ONLY ? " from target/bench/results.json" : ` in ${(R.elapsedMs / 1000).toFixed(0)} s`}`);
