// Package size: raw and gzip -9 of what a runtime loads, the largest items of the wasm (twiggy), and
// what each crate costs. Names come from a copy of the package built from the same release wasm with
// `wasm-opt -Oz -g` (names kept, same code), since the shipped wasm has its name section stripped.
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { spawnSync } from "node:child_process";
import { log, pkgDir, root, run, work } from "./lib.mjs";
import { output } from "../scripts/lib.mjs";

const releaseWasm = path.join(root, "target/wasm32-unknown-unknown/release/svc_sdk.wasm");
const wasmOpt = path.join(root, "node_modules/.bin/wasm-opt");
/** The features scripts/build.mjs enables for wasm-opt. */
const FEATURES = ["--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-sign-ext", "--enable-mutable-globals", "--enable-reference-types", "--enable-multivalue"];
export const named = path.join(work, "named");

const gz = (buf) => gzipSync(buf, { level: 9 }).length;

function files(dir, rel = "") {
  const out = [];
  for (const name of readdirSync(path.join(dir, rel))) {
    const r = path.join(rel, name);
    if (statSync(path.join(dir, r)).isDirectory()) out.push(...files(dir, r));
    else out.push(r);
  }
  return out;
}

/** Raw and gzip sizes of every file of svc-sdk in pkg/ that a runtime loads (not the .d.ts; pkg/validate/ is bench/validate-page.mjs's). */
export function packageSizes() {
  const rows = files(pkgDir)
    .filter((f) => (f.endsWith(".js") || f.endsWith(".wasm")) && !f.startsWith(`validate${path.sep}`))
    .map((f) => {
      const buf = readFileSync(path.join(pkgDir, f));
      return { file: f.split(path.sep).join("/"), raw: buf.length, gzip: gz(buf) };
    })
    .sort((a, b) => b.raw - a.raw);
  const entries = new Set(["deno.js", "node.js", "web.js", "workerd.js"]);
  // What Node loads: the wasm, svc_sdk.js (the glue and every snippet, bundled) and its one entry.
  const loaded = rows.filter((r) => !entries.has(r.file) || r.file === "node.js");
  const sum = (k, rs) => rs.reduce((s, r) => s + r[k], 0);
  const wasm = rows.find((r) => r.file === "svc_sdk_bg.wasm");
  const glue = loaded.filter((r) => r !== wasm);
  return {
    rows,
    wasm,
    glue: { raw: sum("raw", glue), gzip: sum("gzip", glue), files: glue.map((r) => r.file) },
    total: { raw: sum("raw", loaded), gzip: sum("gzip", loaded) },
  };
}

/**
 * A copy of the package whose wasm keeps its names: wasm-bindgen on the release wasm, then wasm-opt
 * -Oz -g. When pkg/'s wasm is older than the release wasm, pkg/ is rebuilt first (its svc_sdk.js
 * bundles the glue with the snippets, so it is not compared with wasm-bindgen's).
 */
export function namedVariant() {
  const bindgen = () => {
    rmSync(named, { recursive: true, force: true });
    mkdirSync(named, { recursive: true });
    run("wasm-bindgen", ["--target", "web", "--out-dir", named, releaseWasm]);
  };
  if (!existsSync(releaseWasm)) run(process.execPath, [path.join(root, "scripts/build.mjs")]);
  bindgen();
  const sameGlue = () => statSync(path.join(pkgDir, "svc_sdk_bg.wasm")).mtimeMs >= statSync(releaseWasm).mtimeMs;
  let rebuilt = false;
  if (!sameGlue()) {
    log("bench: pkg/ was not built from the current release wasm; rebuilding it (scripts/build.mjs)");
    run(process.execPath, [path.join(root, "scripts/build.mjs")]);
    bindgen();
    rebuilt = true;
  }
  const glueMatches = sameGlue();
  const before = statSync(path.join(named, "svc_sdk_bg.wasm")).size;
  const namedWasm = path.join(named, "named.wasm");
  run(wasmOpt, ["-Oz", "-g", ...FEATURES, "--strip-producers", path.join(named, "svc_sdk_bg.wasm"), "-o", namedWasm]);
  // The JS files of pkg/ beside it, so that named/node.js is the whole package with a named wasm;
  // svc_sdk.js as scripts/build.mjs bundled it before minifying, so that profiles name its functions.
  const unminified = path.join(root, "target/svc_sdk.unminified.js");
  for (const f of files(pkgDir)) {
    if (!f.endsWith(".js")) continue;
    mkdirSync(path.dirname(path.join(named, f)), { recursive: true });
    copyFileSync(f === "svc_sdk.js" && existsSync(unminified) ? unminified : path.join(pkgDir, f), path.join(named, f));
  }
  copyFileSync(namedWasm, path.join(named, "svc_sdk_bg.wasm"));
  return { bindgenBytes: before, namedBytes: statSync(namedWasm).size, rebuilt, sameGlue: glueMatches };
}

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
export function wasmBreakdown(top = 15) {
  ensureTwiggy();
  const namedWasm = path.join(named, "named.wasm");
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

/** Sizes of zod and valibot with the two benchmark schemas, bundled and minified (esbuild), for scale. */
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
