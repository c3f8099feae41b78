// The items of a wasm file by size: each function body (named from its name section, when it has one)
// and each data segment, read from the binary itself; what the budgets name as an entry's largest items.
import { readFileSync } from "node:fs";

/** Reads unsigned LEB128 numbers and names from `bytes`. */
function reader(bytes) {
  let at = 0;
  const r = {
    get at() {
      return at;
    },
    skip: (n) => (at += n),
    u32() {
      let result = 0;
      let shift = 0;
      for (;;) {
        const b = bytes[at++];
        result += (b & 0x7f) * 2 ** shift;
        if (b < 0x80) return result;
        shift += 7;
      }
    },
    name() {
      const n = r.u32();
      const s = new TextDecoder().decode(bytes.subarray(at, at + n));
      at += n;
      return s;
    },
  };
  return r;
}

/** How many functions `imports` (the import section's contents) brings in: they come first in the index space. */
function importedFunctions(bytes, start, end) {
  const r = reader(bytes.subarray(start, end));
  let functions = 0;
  for (let n = r.u32(), i = 0; i < n; i++) {
    r.name();
    r.name();
    const kind = bytes[start + r.at];
    r.skip(1);
    if (kind === 0) functions++, r.u32();
    else if (kind === 1) r.skip(1), bytes[start + r.at] & 1 ? (r.skip(1), r.u32(), r.u32()) : (r.skip(1), r.u32());
    else if (kind === 2) bytes[start + r.at] & 1 ? (r.skip(1), r.u32(), r.u32()) : (r.skip(1), r.u32());
    else if (kind === 3) r.skip(2);
    else r.skip(1), r.u32();
  }
  return functions;
}

/** A Rust symbol as a path (`svc_sdk::wasm::options::read_as`), its hash left out; other names as they are. */
export function demangle(name) {
  if (!name.startsWith("_ZN")) return name;
  const parts = [];
  for (let at = 3; name[at] !== "E" && at < name.length; ) {
    const digits = /^\d+/.exec(name.slice(at))[0];
    at += digits.length;
    parts.push(name.slice(at, at + Number(digits)));
    at += Number(digits);
  }
  if (/^h[0-9a-f]{16}$/.test(parts.at(-1))) parts.pop();
  const codes = { LT: "<", GT: ">", RF: "&", BP: "*", C: ",", SP: "@", u20: " ", u27: "'", u5b: "[", u5d: "]", u7b: "{", u7d: "}", u7e: "~" };
  return parts.join("::").replace(/\$([A-Za-z0-9]+)\$/g, (m, c) => codes[c] ?? m).replaceAll("..", "::").replaceAll("_{{", "{{");
}

/** The function bodies and data segments of the wasm at `file`, largest first: `[name, bytes]`. */
export function wasmItems(file) {
  const bytes = new Uint8Array(readFileSync(file));
  const r = reader(bytes);
  r.skip(8);
  const sections = [];
  while (r.at < bytes.length) {
    const id = bytes[r.at];
    r.skip(1);
    const size = r.u32();
    sections.push({ id, start: r.at, end: r.at + size });
    r.skip(size);
  }
  const names = new Map();
  for (const s of sections.filter((s) => s.id === 0)) {
    const c = reader(bytes.subarray(s.start, s.end));
    if (c.name() !== "name") continue;
    while (c.at < s.end - s.start) {
      const kind = bytes[s.start + c.at];
      c.skip(1);
      const size = c.u32();
      const next = c.at + size;
      if (kind === 1) for (let n = c.u32(), i = 0; i < n; i++) names.set(c.u32(), c.name());
      c.skip(next - c.at);
    }
  }
  const imports = sections.find((s) => s.id === 2);
  const first = imports ? importedFunctions(bytes, imports.start, imports.end) : 0;
  const items = [];
  for (const s of sections.filter((s) => s.id === 10)) {
    const c = reader(bytes.subarray(s.start, s.end));
    for (let n = c.u32(), i = 0; i < n; i++) {
      const size = c.u32();
      items.push([demangle(names.get(first + i) ?? `function ${first + i}`), size]);
      c.skip(size);
    }
  }
  for (const s of sections.filter((s) => s.id === 11)) {
    const c = reader(bytes.subarray(s.start, s.end));
    for (let n = c.u32(), i = 0; i < n; i++) {
      const flags = c.u32();
      if (flags === 2) c.u32();
      // An active segment's offset: i32.const or global.get and its operand, then end.
      if (flags !== 1) c.skip(1), c.u32(), c.skip(1);
      const size = c.u32();
      items.push([`data segment ${i}`, size]);
      c.skip(size);
    }
  }
  // Monomorphs share a name: the second and later are told apart by their rank in the file.
  const seen = new Map();
  for (const item of items) {
    const n = (seen.get(item[0]) ?? 0) + 1;
    seen.set(item[0], n);
    if (n > 1) item[0] = `${item[0]} #${n}`;
  }
  return items.sort((a, b) => b[1] - a[1]);
}
