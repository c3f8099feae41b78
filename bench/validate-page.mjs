// A page that only validates a form, built by Vite from the installed package: what it ships (gzip -9
// of its JS and wasm, importing only svc-sdk/validate) and the time from navigation to its first
// validation result in headless Chromium, against the same page with zod 4. Each page validates the
// valid createFixedAsset body of bench/bodies.mjs once. `node bench/validate-page.mjs [runs]` prints
// the figures as one JSON line; `npm run bench` puts them in BENCHMARKS.md.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { consumer, ensureConsumer, ensurePackage, kb, log, median, ms, root, work, x } from "./lib.mjs";
import { ensureChromium } from "../scripts/setup.mjs";
import * as h from "../tests/runtimes/harness.mjs";

// tests/support/chromium.mjs finds the project's tools through SVC_ROOT, as the tests set it.
process.env.SVC_ROOT ??= root;
const { launchChromium } = await import("../tests/support/chromium.mjs");

/** Per page: the module it validates with (a package, or a file of bench/), the names it imports, and the check. */
const PAGES = {
  "svc-sdk/validate": { from: "svc-sdk/validate", names: "validate", check: 'validate("createFixedAsset", fixedAssetValid).ok' },
  "svc-sdk (Client + schemaFor)": {
    from: "svc-sdk",
    names: "Client, schemaFor",
    check: '(new Client({ accessToken: "page-token-1234", organizationId: "1" }), !(await schemaFor("createFixedAsset")["~standard"].validate(fixedAssetValid)).issues)',
  },
  "svc-sdk, then svc-sdk/validate": {
    from: "svc-sdk",
    names: "Client, schemaFor",
    also: 'import { validate } from "svc-sdk/validate";',
    check: '(new Client({ accessToken: "page-token-1234", organizationId: "1" }), schemaFor("createFixedAsset"), validate("createFixedAsset", fixedAssetValid).ok)',
  },
  zod: { from: path.join(root, "bench/schemas/zod.mjs"), names: "check, createFixedAsset", check: "check(createFixedAsset, fixedAssetValid).ok" },
};
const BODIES = path.join(root, "bench/bodies.mjs");

const gz = (buf) => gzipSync(buf, { level: 9 }).length;
const slug = (lib) => lib.replace(/[^a-z]+/g, "-");

/** Writes the page of `lib` into the bench's consumer project (so "svc-sdk/validate" resolves to the installed package). */
function writePage(lib) {
  const dir = path.join(consumer, "pages", slug(lib));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const specifier = (from) => JSON.stringify(path.isAbsolute(from) ? "./" + path.relative(dir, from) : from);
  const { from, names, check, also = "" } = PAGES[lib];
  writeFileSync(path.join(dir, "index.html"), '<!doctype html>\n<html lang="en"><head><meta charset="utf-8" /><title>form</title></head>\n<body><pre id="result"></pre><script type="module" src="./main.mjs"></script></body></html>\n');
  writeFileSync(
    path.join(dir, "main.mjs"),
    [
      `import { fixedAssetValid } from ${specifier(BODIES)};`,
      `import { ${names} } from ${specifier(from)};${also}`,
      `const ok = ${check};`,
      'document.getElementById("result").textContent = JSON.stringify({ ok, ms: performance.now() });',
      'document.body.dataset.status = "done";',
      "",
    ].join("\n"),
  );
  return dir;
}

/** Vite's build of the page of `lib`: its directory and each file it ships under assets/ with raw and gzip sizes. */
async function build(lib) {
  const dir = writePage(lib);
  const dist = path.join(work, "pages", slug(lib));
  await h.viteBuild(dir, dist, { cwd: consumer, timeoutMs: 120_000 });
  const files = readdirSync(path.join(dist, "assets")).map((file) => {
    const buf = readFileSync(path.join(dist, "assets", file));
    return { file, raw: buf.length, gzip: gz(buf) };
  });
  const sum = (ext) => {
    const of = files.filter((f) => f.file.endsWith(ext));
    return { raw: of.reduce((s, f) => s + f.raw, 0), gzip: of.reduce((s, f) => s + f.gzip, 0) };
  };
  const js = sum(".js");
  const wasm = sum(".wasm");
  return { dist, files, js, wasm, total: { raw: js.raw + wasm.raw, gzip: js.gzip + wasm.gzip } };
}

/** Milliseconds from navigation to the page's first validation result, in a fresh browser context (no cache); `fetched` gets the assets it loaded. */
async function firstResult(browser, url, fetched = new Set()) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    page.on("response", (r) => fetched.add(path.basename(new URL(r.url()).pathname)));
    await page.goto(url, { timeout: 20_000 });
    await page.waitForSelector("body[data-status]", { timeout: 20_000 });
    const { ok, ms } = JSON.parse(await page.textContent("#result"));
    if (ok !== true) throw new Error(`${url}: the valid body did not pass`);
    return ms;
  } finally {
    await context.close();
  }
}

/** Both pages built and sized, then `runs` loads of each, in turns, after one load of each not counted. */
export async function measureValidatePage(runs) {
  ensureChromium();
  const libs = Object.keys(PAGES);
  const builds = {};
  for (const lib of libs) builds[lib] = await build(lib);
  const servers = {};
  for (const lib of libs) servers[lib] = await h.serveStatic(builds[lib].dist);
  const url = (lib) => `http://127.0.0.1:${servers[lib].address().port}/index.html`;
  const browser = await launchChromium(path.join(work, "chromium"));
  const times = Object.fromEntries(libs.map((lib) => [lib, []]));
  try {
    const loaded = Object.fromEntries(libs.map((lib) => [lib, new Set()]));
    for (const lib of libs) await firstResult(browser, url(lib), loaded[lib]);
    for (let i = 0; i < runs; i++) {
      for (const lib of i % 2 ? [...libs].reverse() : libs) times[lib].push(await firstResult(browser, url(lib)));
    }
    // What a page loads: the files Vite ships that the first load fetched (a page importing both entries ships both wasms, loads one).
    const sizes = Object.fromEntries(libs.map((lib) => {
      const { dist, ...size } = builds[lib];
      const files = size.files.filter((f) => loaded[lib].has(f.file));
      return [lib, { ...size, loaded: { files: files.map((f) => f.file), gzip: files.reduce((n, f) => n + f.gzip, 0), raw: files.reduce((n, f) => n + f.raw, 0) } }];
    }));
    return { runs, chromium: browser.version(), sizes, times };
  } finally {
    await browser.close();
    await Promise.all(Object.values(servers).map(h.closeServer));
  }
}

const SDK = "svc-sdk/validate";

/** BENCHMARKS.md's row of the page's time to a first result against its target (its size is a row of issue 26's table). */
export function validatePageTimeRow(P, targets, verdict) {
  const ratio = median(P.times[SDK]) / median(P.times.zod);
  return `| the page that only validates in headless Chromium: navigation to the first validation result (median of ${P.runs} loads) | ${ms(median(P.times[SDK]))} | the page with zod: ${ms(median(P.times.zod))} | ${x(ratio)} zod | ≤ ${x(targets.validatePageVsZod)} zod | ${verdict(ratio <= targets.validatePageVsZod)} |`;
}

/** BENCHMARKS.md's section on the page: how it is built and measured, what it ships, each load's time. */
export function validatePageSection(P) {
  const L = ["## A page that only validates (svc-sdk/validate)", ""];
  L.push("`bench/validate-page.mjs` writes a page that imports only `svc-sdk/validate` from the installed package and validates the");
  L.push("valid createFixedAsset body once, and the same page with zod 4 (`bench/schemas/zod.mjs`); Vite builds both with its");
  L.push(`defaults. Each page is loaded ${P.runs} times in turns in headless Chromium ${P.chromium}, each load in a fresh browser context (no`);
  L.push("cache), from a loopback server; the time is the page's `performance.now()` when the first result is written (ms since");
  L.push("navigation started), after one load of each page that is not counted.", "");
  L.push("| page | file Vite ships | raw | gzip -9 | the page loads it |", "|---|---|---|---|---|");
  for (const [lib, size] of Object.entries(P.sizes)) {
    for (const f of size.files) L.push(`| ${lib} | \`assets/${f.file}\` | ${kb(f.raw)} | ${kb(f.gzip)} | ${size.loaded?.files.includes(f.file) ? "●" : ""} |`);
    L.push(`| **${lib}** | **what it loads** | **${kb(size.loaded?.raw ?? size.total.raw)}** | **${kb(size.loaded?.gzip ?? size.total.gzip)}** | ${size.loaded?.files.length ?? ""} files |`);
  }
  L.push("", "| page | first result (median) | each load |", "|---|---|---|");
  for (const [lib, times] of Object.entries(P.times)) L.push(`| ${lib} | ${ms(median(times))} | ${times.map((t) => t.toFixed(0)).join(", ")} ms |`);
  L.push("");
  return L;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  ensurePackage();
  ensureConsumer();
  const runs = Number(process.argv[2] ?? 9);
  log(`bench: the validate-only page, ${runs} loads of each page`);
  const r = await measureValidatePage(runs);
  log(`bench: ${SDK} page ${kb(r.sizes[SDK].total.gzip)} gzip, first result ${ms(median(r.times[SDK]))}; zod ${ms(median(r.times.zod))}`);
  console.log(JSON.stringify(r));
}
