// Relative links and their anchors, in a generated HTML site (typedoc's pages, navigation and search
// data) and in Markdown files. Each check returns how many links it followed and those that lead nowhere.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { inflateSync } from "node:zlib";

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

function filesUnder(dir) {
  return readdirSync(dir, { recursive: true }).map((f) => path.join(dir, f)).filter((f) => statSync(f).isFile());
}

/** A link's target and anchor are checked; `anchorsOf(file)` gives the anchors a file has. */
function follow(from, href, base, anchorsOf) {
  const [target, anchor = ""] = href.split("?")[0].split("#");
  const file = target ? path.resolve(base, decodeURIComponent(target)) : from;
  if (!existsSync(file)) return `${href} (no such file)`;
  if (anchor && !anchorsOf(file)?.has(decodeURIComponent(anchor))) return `${href} (no such anchor)`;
  return null;
}

function check(links, anchorsOf) {
  const broken = [];
  let checked = 0;
  for (const { from, href, base } of links) {
    if (EXTERNAL.test(href) || href === "#") continue;
    checked += 1;
    const problem = follow(from, href, base, anchorsOf);
    if (problem) broken.push(`${from}: ${problem}`);
  }
  return { checked, broken };
}

function memo(read) {
  const cache = new Map();
  return (file) => {
    if (!cache.has(file)) cache.set(file, read(file));
    return cache.get(file);
  };
}

const unescape = (s) => s.replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#39;/g, "'");

const htmlIds = memo((file) =>
  /\.(html|svg)$/.test(file) ? new Set([...readFileSync(file, "utf8").matchAll(/\s(?:id|name)="([^"]*)"/g)].map((m) => unescape(m[1]))) : null,
);

/** typedoc's navigation and search data: zlib-deflated JSON, whose paths are relative to the site's root. */
function dataPaths(dir) {
  const paths = [];
  const walk = (node) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node && typeof node === "object") {
      for (const key of ["path", "url"]) if (typeof node[key] === "string") paths.push(node[key]);
      Object.values(node).forEach(walk);
    }
  };
  for (const name of ["navigation.js", "search.js"]) {
    const script = path.join(dir, "assets", name);
    const data = existsSync(script) && readFileSync(script, "utf8").match(/= "([A-Za-z0-9+/=]+)"/);
    if (data) walk(JSON.parse(inflateSync(Buffer.from(data[1], "base64"))));
  }
  return paths;
}

export function siteLinks(dir) {
  const links = [];
  for (const from of filesUnder(dir).filter((f) => f.endsWith(".html"))) {
    for (const m of readFileSync(from, "utf8").matchAll(/\s(?:href|src)="([^"]*)"/g)) {
      links.push({ from, href: unescape(m[1]), base: path.dirname(from) });
    }
  }
  for (const href of dataPaths(dir)) links.push({ from: path.join(dir, "assets"), href, base: dir });
  return check(links, htmlIds);
}

const withoutFences = (text) => text.replace(/^```[\s\S]*?^```/gm, "");

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export const headingAnchors = memo((file) => {
  if (!file.endsWith(".md")) return null;
  const seen = new Map();
  const anchors = new Set();
  for (const [, heading] of withoutFences(readFileSync(file, "utf8")).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n ? `${slug}-${n}` : slug);
  }
  return anchors;
});

export function markdownLinks(files) {
  const links = [];
  for (const from of files) {
    const text = withoutFences(readFileSync(from, "utf8")).replace(/`[^`\n]*`/g, "");
    for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|^\s*\[[^\]]+\]:\s*<?(\S+?)>?\s*$/gm)) {
      links.push({ from, href: m[1] ?? m[2], base: path.dirname(from) });
    }
  }
  return check(links, headingAnchors);
}
