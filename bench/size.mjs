// Package size: raw and gzip -9 of what a runtime loads, the largest items of the wasm (twiggy), and
// what each crate costs. Names come from a copy of the package built from the same release wasm with
// `wasm-opt -Oz -g` (names kept, same code), since the shipped wasm has its name section stripped.
import { copyFileSync, cpSync, existsSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { spawnSync } from "node:child_process";
import { filesUnder, log, pkgDir, root, run, work } from "./lib.mjs";
import { output } from "../scripts/lib.mjs";

const wasmTarget = path.join(root, "target/wasm32-unknown-unknown");
const wasmOpt = path.join(root, "node_modules/.bin/wasm-opt");
/** The features scripts/build.mjs enables for wasm-opt. */
const FEATURES = ["--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-sign-ext", "--enable-mutable-globals", "--enable-reference-types", "--enable-multivalue"];
export const named = path.join(work, "named");

const gz = (buf) => gzipSync(buf, { level: 9 }).length;
const slash = (f) => f.split(path.sep).join("/");

/** Relative module specifiers of static imports and re-exports (`import … from "./x"`, `import "./x"`, `export … from "./x"`, minified or not). */
const IMPORT = /(?:\bfrom|\bimport)\s*["'](\.{1,2}\/[^"']+)["']/g;
/** Relative paths of wasm files named in the code (`new URL("./x.wasm", import.meta.url)` and the like). */
const WASM = /["'](\.{0,2}\/?[^"'\s]+\.wasm)["']/g;

/**
 * What the Node entry loads: pkg/node.js and, followed from it, every module it imports statically
 * and every wasm file its code names, as paths relative to pkg/. Works for wasm-bindgen's layout
 * (glue, snippets, api.js) and for one bundled module per entry alike.
 */
export function loadedFiles(entry = "node.js", dir = pkgDir) {
  const seen = new Set();
  const visit = (rel) => {
    const file = path.join(dir, rel);
    if (seen.has(rel) || !existsSync(file)) return;
    seen.add(rel);
    if (!rel.endsWith(".js") && !rel.endsWith(".mjs")) return;
    const text = readFileSync(file, "utf8");
    const here = path.dirname(rel);
    for (const m of text.matchAll(IMPORT)) visit(slash(path.normalize(path.join(here, m[1]))));
    for (const m of text.matchAll(WASM)) visit(slash(path.normalize(path.join(here, m[1]))));
  };
  visit(entry);
  return [...seen];
}

/** Raw and gzip sizes of every file in pkg/ that a runtime loads (not the .d.ts; pkg/validate/ is bench/validate-page.mjs's), and the sum of what the Node entry loads. */
export function packageSizes() {
  const loaded = new Set(loadedFiles());
  const rows = filesUnder(pkgDir)
    .map(slash)
    .filter((f) => (f.endsWith(".js") || f.endsWith(".wasm")) && !f.startsWith("validate/"))
    .map((f) => {
      const buf = readFileSync(path.join(pkgDir, f));
      return { file: f, raw: buf.length, gzip: gz(buf), loaded: loaded.has(f) };
    })
    .sort((a, b) => b.raw - a.raw);
  const sum = (rs) => ({ raw: rs.reduce((s, r) => s + r.raw, 0), gzip: rs.reduce((s, r) => s + r.gzip, 0), files: rs.map((r) => r.file) });
  const inNode = rows.filter((r) => r.loaded);
  return { rows, wasm: sum(inNode.filter((r) => r.file.endsWith(".wasm"))), glue: sum(inNode.filter((r) => !r.file.endsWith(".wasm"))), total: sum(inNode) };
}

/** Export names and import names of a wasm module, to tell whether two builds bind to the same JS. */
function signature(buf) {
  const m = new WebAssembly.Module(buf);
  return { exports: WebAssembly.Module.exports(m).map((e) => e.name).sort().join(","), imports: new Set(WebAssembly.Module.imports(m).map((i) => i.name)) };
}

/** The wasm files cargo built for wasm32 (every profile but debug), newest first. */
function builtWasms() {
  if (!existsSync(wasmTarget)) return [];
  return readdirSync(wasmTarget)
    .filter((profile) => profile !== "debug")
    .flatMap((profile) => {
      const dir = path.join(wasmTarget, profile);
      return statSync(dir).isDirectory() ? readdirSync(dir).filter((f) => f.endsWith(".wasm")).map((f) => path.join(dir, f)) : [];
    })
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
}

/**
 * The wasm that `entry` of pkg/ loads, built again with its names into `out`: the cargo output whose
 * wasm-bindgen output has the shipped wasm's exports and imports (so pkg/'s JS binds to it), through
 * `wasm-opt -Oz -g` (names kept, same code). `{ missing }` with the reason when no cargo output matches.
 */
function namedWasm(entry, out) {
  const shippedFile = loadedFiles(entry).filter((f) => f.endsWith(".wasm")).sort((a, b) => statSync(path.join(pkgDir, b)).size - statSync(path.join(pkgDir, a)).size)[0];
  if (!shippedFile) return { missing: `pkg/${entry} loads no wasm file that the bench could find` };
  const shipped = signature(readFileSync(path.join(pkgDir, shippedFile)));
  const scratch = path.join(work, "named-bindgen");
  try {
    for (const input of builtWasms()) {
      for (const flags of [["--experimental-reset-state-function"], []]) {
        rmSync(scratch, { recursive: true, force: true });
        const r = spawnSync("wasm-bindgen", ["--target", "web", ...flags, "--out-dir", scratch, input], { encoding: "utf8" });
        if (r.status !== 0) continue;
        const bound = path.join(scratch, readdirSync(scratch).find((f) => f.endsWith(".wasm")));
        const sig = signature(readFileSync(bound));
        if (sig.exports !== shipped.exports || ![...shipped.imports].every((i) => sig.imports.has(i))) continue;
        run(wasmOpt, ["-Oz", "-g", ...FEATURES, "--strip-producers", bound, "-o", out]);
        return { input: path.relative(root, input), wasmFile: shippedFile, bindgenBytes: statSync(bound).size, namedBytes: statSync(out).size, namedWasm: out };
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return { missing: `no wasm under target/wasm32-unknown-unknown binds like pkg/${shippedFile}` };
}

/**
 * A copy of the package whose wasm keeps its names, for twiggy and the profiles: pkg/ copied whole
 * into target/bench/named with the wasm of the Node entry replaced by namedWasm's. When no cargo
 * output matches, pkg/ is rebuilt once (it may be older than the cargo output); `{ missing }` when
 * still none does (then no names: no twiggy, no profiles).
 */
export function namedVariant() {
  const out = path.join(work, "named.wasm");
  let rebuilt = false;
  let n = namedWasm("node.js", out);
  if (n.missing && n.missing.startsWith("no wasm")) {
    log("bench: no cargo output binds like pkg/'s wasm; rebuilding pkg/ (scripts/build.mjs)");
    run(process.execPath, [path.join(root, "scripts/build.mjs")]);
    rebuilt = true;
    n = namedWasm("node.js", out);
  }
  if (n.missing) return { ...n, rebuilt };
  rmSync(named, { recursive: true, force: true });
  cpSync(pkgDir, named, { recursive: true });
  copyFileSync(out, path.join(named, n.wasmFile));
  return { ...n, rebuilt };
}

/** The wasm of svc-sdk/validate (what pkg/validate/node.js loads) with its names, for its twiggy breakdown. */
export const namedValidateWasm = () => namedWasm("validate/node.js", path.join(work, "named-validate.wasm"));

function twiggy(args) {
  const r = spawnSync("twiggy", args, { encoding: "utf8", maxBuffer: 256 << 20 });
  if (r.status !== 0) throw new Error(`twiggy ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

/** Installs twiggy with cargo when it is missing. */
export function ensureTwiggy() {
  if (output("twiggy", ["--version"])) return;
  log("bench: cargo install twiggy");
  run("cargo", ["install", "twiggy"]);
}

const NAME_SECTIONS = /^"(function|data|local|global|type|table|memory|elem|label|module) names" subsection$|^custom section 'name'/;

/** Strips the rustc hashes from a symbol: `core[c5930c85a12de822]::fmt` -> `core::fmt`, `::h0123abcd…` gone. */
const clean = (name) => name.replace(/\[[0-9a-f]{16}\]/g, "").replace(/::h[0-9a-f]{16}$/, "");

/** The crate an item's code belongs to, from its symbol. */
function crateOf(item) {
  const n = clean(item);
  if (n.startsWith("data segment")) return "data segments (strings, tables)";
  if (/externref shim|multivalue shim/.test(n)) return "svc_sdk::wasm exports (wasm-bindgen shims, bodies inlined)";
  if (n.includes("future_to_promise")) return "svc_sdk::wasm async calls (inlined into js_sys::future_to_promise)";
  if (/^(code|elem|table|type|import|export|global|memory)\[/.test(n) || /^"/.test(n) || /^(import|export) /.test(n) || n.startsWith("custom section") || n.startsWith("wasm magic") || n.startsWith("elem") || n.startsWith("type[")) return "wasm structure (types, imports, exports, table)";
  // `<A as B>::f`: A's crate when A is a path, else B's; `drop_in_place<X>` belongs to X.
  let m = n.match(/^core::ptr::drop_in_place<([^>]+)>/);
  if (m) return crateOf(m[1].replace(/^&(mut )?/, ""));
  m = n.match(/^<(?:&(?:mut )?)?([A-Za-z_][\w]*)::[^ ]* as ([A-Za-z_][\w]*)::/);
  if (m) return m[1];
  m = n.match(/^<(?:&(?:mut )?)?[^ ]+ as ([A-Za-z_][\w]*)::/);
  if (m) return m[1];
  m = n.match(/^<?([A-Za-z_][\w]*)::/);
  if (m) return m[1];
  return "other (unnamed or runtime helpers)";
}

/** Top items and per-crate sums of the named wasm, the name sections left out (the shipped wasm has none). */
export function wasmBreakdown(namedWasm, top = 15) {
  ensureTwiggy();
  const items = JSON.parse(twiggy(["top", "-f", "json", namedWasm]));
  const code = items.filter((i) => !NAME_SECTIONS.test(i.name) && !/^Σ/.test(i.name));
  const names = items.filter((i) => NAME_SECTIONS.test(i.name)).reduce((s, i) => s + i.shallow_size, 0);
  const total = code.reduce((s, i) => s + i.shallow_size, 0);
  const byCrate = {};
  for (const i of code) {
    const c = crateOf(i.name);
    byCrate[c] ??= { bytes: 0, items: 0 };
    byCrate[c].bytes += i.shallow_size;
    byCrate[c].items += 1;
  }
  const crates = Object.entries(byCrate)
    .map(([crate, v]) => ({ crate, ...v }))
    .sort((a, b) => b.bytes - a.bytes);
  const segments = dataSegments(namedWasm);
  const topItems = code.slice(0, top).map((i) => ({ name: clean(i.name), bytes: i.shallow_size, preview: segments.get(i.name.match(/^data segment "(.*)"$/)?.[1]) }));
  const textTop = twiggy(["top", "-n", String(top + 4), namedWasm]);
  return { total, names, topItems, crates, textTop };
}

// ---- a minimal wasm reader, for what the largest data segments hold ----

function leb(buf, pos) {
  let result = 0, shift = 0, b;
  do {
    b = buf[pos++];
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  return [result, pos];
}

/** Data segment name -> a printable preview of its bytes. */
function dataSegments(file) {
  const buf = readFileSync(file);
  let pos = 8;
  const segs = [];
  const names = new Map();
  while (pos < buf.length) {
    const id = buf[pos++];
    let size;
    [size, pos] = leb(buf, pos);
    const end = pos + size;
    if (id === 11) {
      let p = pos, count;
      [count, p] = leb(buf, p);
      for (let i = 0; i < count; i++) {
        let flags;
        [flags, p] = leb(buf, p);
        if (flags === 2) [, p] = leb(buf, p);
        if (flags === 0 || flags === 2) {
          while (buf[p] !== 0x0b) p++;
          p++;
        }
        let len;
        [len, p] = leb(buf, p);
        segs.push(buf.subarray(p, p + len));
        p += len;
      }
    } else if (id === 0) {
      let p = pos, nlen;
      [nlen, p] = leb(buf, p);
      const secName = buf.subarray(p, p + nlen).toString();
      p += nlen;
      if (secName === "name") {
        while (p < end) {
          const sub = buf[p++];
          let slen;
          [slen, p] = leb(buf, p);
          const send = p + slen;
          if (sub === 9) {
            let q = p, count;
            [count, q] = leb(buf, q);
            for (let i = 0; i < count; i++) {
              let idx, l;
              [idx, q] = leb(buf, q);
              [l, q] = leb(buf, q);
              names.set(buf.subarray(q, q + l).toString(), idx);
              q += l;
            }
          }
          p = send;
        }
      }
    }
    pos = end;
  }
  const out = new Map();
  for (const [name, idx] of names) {
    const bytes = segs[idx];
    if (!bytes) continue;
    const printable = bytes.filter((b) => b >= 0x20 && b < 0x7f).length / Math.max(1, bytes.length);
    const text = Buffer.from(bytes.filter((b) => b >= 0x20 && b < 0x7f)).toString("latin1");
    out.set(name, printable > 0.6 ? `text: "${text.slice(0, 70)}…"` : `binary (${Math.round(printable * 100)}% printable)`);
  }
  return out;
}

/** Sizes of zod and valibot with the benchmark's schemas, bundled and minified (esbuild), for scale. */
export function alternativesSizes() {
  const esbuild = path.join(root, "node_modules/.bin/esbuild");
  if (!existsSync(esbuild)) return null;
  const out = {};
  for (const lib of ["zod", "valibot"]) {
    const file = path.join(work, `${lib}.bundle.js`);
    const r = spawnSync(esbuild, [path.join(root, `bench/schemas/${lib}.mjs`), "--bundle", "--minify", "--format=esm", "--platform=neutral", `--outfile=${file}`, "--log-level=error"], { encoding: "utf8" });
    if (r.status !== 0) return null;
    const buf = readFileSync(file);
    out[lib] = { raw: buf.length, gzip: gz(buf) };
  }
  return out;
}
