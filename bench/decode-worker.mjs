// The decode benchmark, in a process of its own: `node bench/decode-worker.mjs <sdk entry URL> <list.json> <rounds> <ms>`.
// A Client whose custom fetch answers the list text from memory, against JSON.parse of the same
// text, plus the parts of the SDK's path measured apart. Prints one JSON line.
import { readFileSync } from "node:fs";

const [entry, file, roundsArg = "7", msArg = "300"] = process.argv.slice(2);
const { Client } = await import(entry);
const text = readFileSync(file, "utf8");
const headers = { "content-type": "application/json;charset=UTF-8" };
const answer = (body) => async () => new Response(body, { status: 200, headers });
const client = (body) => new Client({ accessToken: "bench-token", organizationId: "10234695", apiDomain: "http://127.0.0.1:9", rateLimit: false, maxRetries: 0, fetch: answer(body) });

const full = client(text);
const emptyText = JSON.stringify({ code: 0, message: "success", packagea: [], page_context: { page: 1, per_page: 200, has_more_page: false } });
const empty = client(emptyText);

// What the SDK hands JSON.parse after its scan: the same document with every id a string.
const page = await full.listPackages({ per_page: 200 });
const rewritten = JSON.stringify({ items: page.items, page_context: page.page_context });

// Lossless: every id beyond 2^53 in the text, as JSON.parse and as the SDK give it.
const big = [...text.matchAll(/"(\w*_id)":(\d{16,})/g)].map((m) => ({ key: m[1], digits: m[2] })).filter((b) => BigInt(b.digits) > 2n ** 53n);
const parsed = JSON.parse(text);
const parsedIds = [];
const sdkIds = [];
for (const [i, p] of parsed.packagea.entries()) {
  parsedIds.push(String(p.package_id), ...p.line_items.map((l) => String(l.line_item_id)));
  const s = page.items[i];
  sdkIds.push(s.package_id, ...s.line_items.map((l) => l.line_item_id));
}
const digits = big.map((b) => b.digits);
const lost = digits.filter((d, i) => parsedIds[i] !== d).length;
const sdkExact = digits.filter((d, i) => sdkIds[i] === d).length;
const example = digits.map((d, i) => [d, parsedIds[i]]).find(([d, p]) => d !== p);

// What-if, not the SDK: the ids made strings by a regex in JS, then JSON.parse. Sound on valid JSON:
// a `"` followed by a word character always opens a string, and a `"` right after one (`_id"`) always
// closes it, so `"…_id":123` cannot match inside a string value. Arrays of ids (`"ids":[1,2]`) need a
// second pattern; this list has none.
const ID_NUMBER = /("(?:id|ids|\w+_id|\w+_ids|contact_persons)"\s*:\s*)(-?\d+)(?![\d.eE])/g;
const regexRewrite = (t) => JSON.parse(t.replace(ID_NUMBER, '$1"$2"'));
const viaRegex = regexRewrite(text).packagea;
const regexIds = viaRegex.flatMap((p) => [p.package_id, ...p.line_items.map((l) => l.line_item_id)]);
const jsRegexExact = regexIds.length === sdkIds.length && regexIds.every((v, i) => v === sdkIds[i]);

const variants = {
  sdk: () => full.listPackages({ per_page: 200 }),
  jsonParse: () => JSON.parse(text),
  responseJson: () => new Response(text, { headers }).json(),
  // the parts
  sdkEmptyList: () => empty.listPackages({ per_page: 200 }),
  responseBytes: async () => new Uint8Array(await new Response(text, { headers }).arrayBuffer()),
  parseRewritten: () => JSON.parse(rewritten),
  jsRegexRewrite: () => regexRewrite(text),
};

let sink = 0;
async function timePerCall(fn, ms) {
  let n = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < 8; i++) {
      const r = await fn();
      sink += r ? 1 : 0;
    }
    n += 8;
    elapsed = performance.now() - start;
  }
  return (elapsed / n) * 1000; // µs
}

for (const fn of Object.values(variants)) await timePerCall(fn, Number(msArg) / 2); // warm-up
const rounds = {};
for (const k of Object.keys(variants)) rounds[k] = [];
for (let r = 0; r < Number(roundsArg); r++) {
  for (const [k, fn] of Object.entries(variants)) rounds[k].push(await timePerCall(fn, Number(msArg)));
}

console.log(
  JSON.stringify({
    bytes: Buffer.byteLength(text),
    rewrittenBytes: Buffer.byteLength(rewritten),
    items: page.items.length,
    bigIds: digits.length,
    lostByJsonParse: lost,
    exactBySdk: sdkExact,
    example,
    jsRegexExact,
    rounds,
    sink,
  }),
);
