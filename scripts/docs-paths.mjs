// Docs that cannot rot: every repository path and command quoted in a tracked Markdown file resolves.
// `node scripts/docs-paths.mjs` prints each failure as `file:line: <what> does not exist` and exits 1.
//
// What is checked, and how a quote is told from text that is not the repository's:
// - Markdown files: `git ls-files '*.md'`, less vendored and generated folders (node_modules, target, pkg,
//   test-output, .tmp, dist, docs/api).
// - Paths are read from inline code spans (each word of one) and from relative link targets. A word is a
//   repository path when its first segment is a top-level entry of the repository (`crates/...`, `scripts/...`,
//   `budgets.json`, ...), read from `git ls-files`; so `src/worker.js` of a user's app, `node_modules/...`,
//   `pkg/...` (built, not tracked), URLs and HTTP routes (`/invoices`) are not. It resolves when a tracked file
//   is that path or lies under it (a trailing `/` asks for a folder; a new file counts once `git add`ed). A path
//   that .gitignore covers (`docs/api/`, `www/dist-static`) is output, not checked. `path:12`, `path:12-30` and
//   `path#anchor` are the path (an anchor into a Markdown file is checked against its headings); `*`, `**` and
//   `<placeholder>` are globs that must match at least one tracked path.
// - A Rust file named without its folders (`send/grant.rs`, `server.rs`) is a path too: some tracked `.rs` file
//   must end with it. (Only `.rs`: a bare `server.mjs` or `src/index.js` may be a user's file.)
// - A Rust path (`svc_core::validate::tests::support`, `validate::tests::support`, `catalog::tests::recipe`) whose
//   first segment is a workspace crate or one of its modules resolves module by module (`x.rs`, `x/mod.rs`, or the
//   file of a `#[path = "..."] mod x;`); the first segment that is not a module, and those after it, must be words
//   of the last module's file (or of a module it re-exports whole). A path whose first segment is none of ours
//   (`serde_json::Value`, `core::fmt`) is left alone.
// - A code span that is one name of our code resolves: `.builder(..)` a `fn` of the crates (a camelCase
//   `.method()` one of their JS glue), `name!` a `macro_rules!`, and a snake_case name of four words or more (a
//   test, a function, a field) or a SCREAMING_CASE one of two or more (a constant) a word of the tracked sources.
// - Links: a relative target resolves from the Markdown file's folder (and its anchor, if it has one, against
//   the target's headings); a link into this repository's own GitHub tree (`.../blob/main/<path>`) as a path.
// - Commands, in code spans and in fenced `sh`/`bash`/`console` blocks (or blocks without a language), each
//   step of `a && b` taken alone and `cd DIR` followed: `npm test`, `npm start`, `npm run X` need the script in
//   the package.json of that folder; `node X` needs X under the rule for paths (resolved from that folder);
//   `cargo <cmd> -p X` a workspace crate X, `--features F` a feature of it, `--example E` an example of it
//   (of exactly one crate when no `-p` is given), with its `required-features` given; the flags after `--` of an
//   example or a bin, and a bin's first argument (`cargo run -p xtask -- operations`), must be string literals
//   of its source; `cargo fuzz run|build|tmin T` a target of the fuzz crate it runs in: `--fuzz-dir D`'s, else
//   that of the folder it runs from (`cd crates/svc-json` runs crates/svc-json/fuzz/), else at the root
//   crates/svc-sdk/fuzz/Cargo.toml.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { headingAnchors } from "./links.mjs";
import { root as repoRoot } from "./lib.mjs";

/** Folders whose Markdown is vendored or generated. */
const SKIPPED = /(^|\/)(node_modules|target|pkg|test-output|\.tmp|dist)\/|^docs\/api\//;
/** Fenced blocks whose lines are commands. */
const SHELL = new Set(["", "sh", "bash", "shell", "console", "zsh"]);

const git = (root, args) => spawnSync("git", args, { cwd: root, encoding: "utf8", maxBuffer: 64 << 20 });

/** A crate's manifest, read as far as the checks need: its name, lib name, features, examples and bins. */
function readCrate(root, dir, files) {
  const text = readFileSync(path.join(root, dir, "Cargo.toml"), "utf8");
  const section = (name) => text.split(/^\[/m).find((s) => s.startsWith(`${name}]`)) ?? "";
  const name = /^name\s*=\s*"([^"]+)"/m.exec(section("package"))?.[1];
  const lib = /^name\s*=\s*"([^"]+)"/m.exec(section("lib"))?.[1] ?? name.replace(/-/g, "_");
  const features = new Set([...section("features").matchAll(/^([\w-]+)\s*=/gm)].map((m) => m[1]));
  for (const m of text.matchAll(/^([\w-]+)\s*=\s*\{[^}\n]*optional\s*=\s*true/gm)) features.add(m[1]);
  const targets = (kind, folder) => {
    const found = new Map();
    for (const f of files) {
      const m = f.startsWith(`${dir}/${folder}/`) && /^(\w+)\.rs$/.exec(f.slice(dir.length + folder.length + 2));
      if (m) found.set(m[1], { path: f, required: [] });
    }
    for (const block of text.split(/^\[\[/m).filter((s) => s.startsWith(`${kind}]]`))) {
      const n = /^name\s*=\s*"([^"]+)"/m.exec(block)?.[1];
      const p = /^path\s*=\s*"([^"]+)"/m.exec(block)?.[1];
      const required = (/^required-features\s*=\s*\[([^\]]*)\]/m.exec(block)?.[1] ?? "").match(/[\w-]+/g) ?? [];
      found.set(n, { path: p ? `${dir}/${p}` : found.get(n)?.path ?? `${dir}/${folder}/${n}.rs`, required });
    }
    return found;
  };
  return { name, lib, dir, features, examples: targets("example", "examples"), bins: targets("bin", "src/bin") };
}

/** What the checks read of a repository: its tracked files and folders, crates, package.json scripts. */
export function repository(root = repoRoot) {
  const listed = git(root, ["ls-files", "-z"]);
  if (listed.status !== 0) throw new Error(`git ls-files failed in ${root}: ${listed.stderr}`);
  const files = new Set(listed.stdout.split("\0").filter(Boolean));
  const dirs = new Set();
  for (const f of files) for (let i = f.indexOf("/"); i !== -1; i = f.indexOf("/", i + 1)) dirs.add(f.slice(0, i));
  const top = new Set([...files].map((f) => f.split("/")[0]));
  const crates = [...files].filter((f) => /^crates\/[^/]+\/Cargo\.toml$/.test(f)).map((f) => readCrate(root, path.dirname(f), files));
  // The cargo-fuzz crates, by folder (`crates/svc-sdk/fuzz`, `crates/svc-json/fuzz`).
  const fuzz = new Map(
    [...files].filter((f) => /^crates\/[^/]+\/fuzz\/Cargo\.toml$/.test(f)).map((f) => [path.dirname(f), readCrate(root, path.dirname(f), files)]),
  );
  const texts = new Map();
  const text = (f) => {
    if (!texts.has(f)) texts.set(f, files.has(f) ? readFileSync(path.join(root, f), "utf8") : "");
    return texts.get(f);
  };
  const scripts = (dir) => {
    const f = dir ? `${dir}/package.json` : "package.json";
    return files.has(f) ? new Set(Object.keys(JSON.parse(text(f)).scripts ?? {})) : null;
  };
  const ignored = (p) => git(root, ["check-ignore", "-q", "--no-index", p]).status === 0;
  const repoUrl = /github\.com[/:]([^/]+\/[^/.]+)/.exec(JSON.parse(text("package.json") || "{}").repository?.url ?? "")?.[1];
  return { root, files, dirs, top, crates, fuzz, text, scripts, ignored, repoUrl, checked: 0 };
}

const escape = (s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&");

/** A glob (`*`, `**`, `<placeholder>`) as a regular expression over repository paths. */
function globRegex(p) {
  const parts = p.split(/(\*\*|\*|<[^>/]+>)/);
  const body = parts.map((s) => (s === "**" ? ".*" : s === "*" ? "[^/]*" : /^<[^>/]+>$/.test(s) ? "[^/]+" : escape(s))).join("");
  return new RegExp(`^${body}$`);
}

const isGlob = (p) => /\*|<[^>/]+>/.test(p);

/** Whether a repository path (no leading `./`) names a tracked file or folder; `dir` asks for a folder. */
function resolves(repo, p, dir = false) {
  if (p === "" || p === ".") return true;
  if (isGlob(p)) {
    const re = globRegex(p);
    return [...repo.dirs].some((d) => re.test(d)) || (!dir && [...repo.files].some((f) => re.test(f)));
  }
  return repo.dirs.has(p) || (!dir && repo.files.has(p));
}

/** `path:12`, `path:12-30`, `path#anchor`, `path?query` as the path and its anchor. */
function splitTarget(word) {
  const [rest, anchor] = word.split("#");
  return { p: rest.split("?")[0].replace(/:\d+(?::\d+)?(?:-\d+)?$/, ""), anchor };
}

/** Normalises a path against a folder of the repository; null when it leaves the repository. */
function within(dir, p) {
  const joined = path.posix.normalize(path.posix.join(dir, p));
  return joined.startsWith("../") || joined === ".." ? null : joined.replace(/\/$/, "") || ".";
}

/** The problem with a repository path, or null. */
function checkPath(repo, p, anchor) {
  repo.checked += 1;
  const dir = p.endsWith("/");
  const clean = p.replace(/\/+$/, "");
  if (resolves(repo, clean, dir)) {
    if (anchor && clean.endsWith(".md") && !isGlob(clean) && !headingAnchors(path.join(repo.root, clean))?.has(decodeURIComponent(anchor))) {
      return `${clean}#${anchor} does not exist (no such heading)`;
    }
    return null;
  }
  if (repo.ignored(clean)) return null;
  return `${p} does not exist`;
}

/** A word of a code span that may be a path: quotes, brackets and sentence punctuation taken off. */
const trimWord = (w) => w.replace(/^[("'[{]+/, "").replace(/[)"'\]},;.]+$/, "").replace(/^\.\//, "");

/** The problem with a word of a code span read as a repository path, or null (also when it is not one). */
function checkWord(repo, word) {
  if (/:\/\/|^\/|^\$|^~/.test(word)) return null;
  const { p, anchor } = splitTarget(trimWord(word));
  if (!p) return null;
  const first = p.split("/")[0];
  if (repo.top.has(first) && (p.includes("/") || anchor)) return checkPath(repo, p, anchor);
  if (/^[\w./<>*-]+\.rs$/.test(p) && !repo.top.has(first)) {
    repo.checked += 1;
    const re = isGlob(p) ? globRegex(`**/${p}`) : null;
    const found = [...repo.files].some((f) => (re ? re.test(f) : f === p || f.endsWith(`/${p}`)));
    return found ? null : `${p} does not exist (no tracked file ends with it)`;
  }
  return null;
}

/** Every workspace module file by module name: `send` -> ["crates/svc-sdk/src/send/mod.rs"]. */
function moduleFiles(repo) {
  if (repo.modules) return repo.modules;
  repo.modules = new Map();
  for (const f of repo.files) {
    const m = /^crates\/[^/]+\/src\/(?:.*\/)?(\w+)\/mod\.rs$/.exec(f) ?? /^crates\/[^/]+\/src\/(?:.*\/)?(\w+)\.rs$/.exec(f);
    if (m && !["lib", "main", "mod"].includes(m[1])) {
      if (!repo.modules.has(m[1])) repo.modules.set(m[1], []);
      repo.modules.get(m[1]).push(f);
    }
  }
  return repo.modules;
}

/** Resolves the segments after a module file; true when every one is a module or a word of the last file. */
function resolveFrom(repo, file, segments) {
  let at = file;
  for (let i = 0; i < segments.length; i++) {
    const base = /(^|\/)(lib|main|mod)\.rs$/.test(at) ? path.posix.dirname(at) : at.slice(0, -3);
    const declared = new RegExp(`#\\[path\\s*=\\s*"([^"]+)"\\]\\s*(?:#\\[[^\\]]*\\]\\s*)*(?:pub(?:\\([^)]*\\))?\\s+)?mod\\s+${segments[i]}\\s*;`).exec(repo.text(at));
    const moved = declared && path.posix.normalize(path.posix.join(path.posix.dirname(at), declared[1]));
    const next = [moved, `${base}/${segments[i]}.rs`, `${base}/${segments[i]}/mod.rs`].find((f) => f && repo.files.has(f));
    if (next) {
      at = next;
      continue;
    }
    return items(repo, at, segments.slice(i));
  }
  return true;
}

/** Whether the items (`Reader`, `value`; `DEMO_*` a prefix) are words of a module file, or of a module it
 * re-exports whole (`pub use engine::*;`). */
function items(repo, file, names, depth = 0) {
  const text = repo.text(file);
  const word = (s) => new RegExp(s.endsWith("*") ? `\\b${escape(s.slice(0, -1))}` : `\\b${escape(s)}\\b`);
  if (names.every((s) => word(s).test(text))) return true;
  if (depth > 3) return false;
  const crateSrc = /^crates\/[^/]+\/src/.exec(file)[0];
  return [...text.matchAll(/^\s*pub use ((?:crate::)?[\w:]+)::\*;/gm)].some(([, used]) => {
    const [from, segs] = used.startsWith("crate::") ? [`${crateSrc}/lib.rs`, used.slice(7).split("::")] : [file, used.split("::")];
    let at = from;
    for (const s of segs) {
      const b = /(^|\/)(lib|main|mod)\.rs$/.test(at) ? path.posix.dirname(at) : at.slice(0, -3);
      at = [`${b}/${s}.rs`, `${b}/${s}/mod.rs`].find((f) => repo.files.has(f));
      if (!at) return false;
    }
    return items(repo, at, names, depth + 1);
  });
}

/** The problem with a Rust path of a code span, or null (also when it is not one of ours). */
function checkRustPath(repo, word) {
  const m = /^((?:[a-z_]\w*::)+)([A-Za-z_]\w*\*?)?/.exec(word);
  if (!m) return null;
  const segments = [...m[1].split("::").filter(Boolean), ...(m[2] ? [m[2]] : [])];
  const [first, ...rest] = segments;
  if (["self", "super", "std", "core", "alloc"].includes(first)) return null;
  const crate = repo.crates.find((c) => c.lib === first);
  let starts;
  if (crate) starts = [`${crate.dir}/src/lib.rs`, `${crate.dir}/src/main.rs`].filter((f) => repo.files.has(f));
  else if (first === "crate") starts = repo.crates.flatMap((c) => [`${c.dir}/src/lib.rs`, `${c.dir}/src/main.rs`]).filter((f) => repo.files.has(f));
  else starts = moduleFiles(repo).get(first);
  if (!starts?.length) return null;
  repo.checked += 1;
  if (!rest.length || starts.some((f) => resolveFrom(repo, f, rest))) return null;
  return `${segments.join("::")} does not exist`;
}

/** The sources a method or macro of a code span is looked for in: the crates' Rust, and their JS glue. */
function sources(repo, ext) {
  const key = `sources${ext}`;
  repo[key] ??= [...repo.files].filter((f) => f.startsWith("crates/") && ext.test(f)).map((f) => repo.text(f)).join("\n");
  return repo[key];
}

/**
 * The problem with a code span that is a method call (`.params::<T>()`, `.withResponse()`) or a macro (`wire!`),
 * or null: a snake_case method must be a `fn` of the crates, a camelCase one a method of their JS glue, a macro a
 * `macro_rules!` of the crates.
 */
function checkCallable(repo, span) {
  const method = /^\.([A-Za-z_]\w*)(?:::<[^>]*>)?\(/.exec(span);
  if (method) {
    repo.checked += 1;
    const name = method[1];
    const found = /[A-Z]/.test(name)
      ? new RegExp(`\\b${name}\\s*\\(|\\b${name}\\s*[:=]`).test(sources(repo, /\.(m?js|ts)$/))
      : new RegExp(`\\bfn ${name}\\b`).test(sources(repo, /\.rs$/));
    return found ? null : `the method .${name}() does not exist`;
  }
  const macro = /^([a-z_]\w*)!(?:$|[({[ ])/.exec(span);
  if (macro) repo.checked += 1;
  if (macro) return new RegExp(`macro_rules!\\s*${macro[1]}\\b`).test(sources(repo, /\.rs$/)) ? null : `the macro ${macro[1]}! does not exist`;
  return undefined;
}

/** Every word of the tracked sources (code, manifests, generated rows; not Markdown, fuzz inputs or archives). */
function sourceWords(repo) {
  if (!repo.words) {
    repo.words = new Set();
    for (const f of repo.files) {
      if (!/\.(rs|m?js|cjs|jsx|ts|tsx|toml|ya?ml|txt|json)$/.test(f) || /(^|\/)(fuzz\/regressions|node_modules)\//.test(f)) continue;
      for (const w of repo.text(f).match(/\w+/g) ?? []) repo.words.add(w);
    }
  }
  return repo.words;
}

/**
 * The problem with a code span that is one name of our code, or undefined when it is not one: a snake_case
 * name of four words or more (a test, a function, a field) or a SCREAMING_CASE name of two or more (a
 * constant) must be a word of the tracked sources. Shorter names are too often a library's or the service's.
 */
function checkName(repo, span) {
  if (!/^[a-z][a-z0-9]*(_[a-z0-9]+){3,}$|^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/.test(span)) return undefined;
  repo.checked += 1;
  return sourceWords(repo).has(span) ? null : `${span} does not exist (no such name in the sources)`;
}

/** A command line in words: quotes kept together, comments dropped. */
function shellWords(line) {
  const words = [];
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) {
    if (m[3]?.startsWith("#")) break;
    words.push(m[1] ?? m[2] ?? m[3]);
  }
  return words;
}

/** The problems of a `cargo` command's words (after `cargo`), run from `cwd`. */
function checkCargo(repo, args, cwd) {
  const problems = [];
  const at = args[0]?.startsWith("+") ? 1 : 0;
  const sub = args[at];
  const rest = args.slice(at + 1);
  if (sub === "fuzz") {
    const at = rest.findIndex((a) => a === "--fuzz-dir" || a.startsWith("--fuzz-dir="));
    const given = at === -1 ? null : rest[at].includes("=") ? rest[at].slice("--fuzz-dir=".length) : rest[at + 1];
    const [action, target] = at === -1 ? rest : rest.filter((_, i) => i !== at && (rest[at].includes("=") || i !== at + 1));
    const dir = given ? path.posix.normalize(path.posix.join(cwd, given)) : repo.fuzz.has(`${cwd}/fuzz`) ? `${cwd}/fuzz` : "crates/svc-sdk/fuzz";
    if (["run", "build", "tmin", "cmin", "coverage"].includes(action) && target && !target.startsWith("-") && !/[<>]/.test(target)) {
      if (!repo.fuzz.get(dir)?.bins.has(target)) problems.push(`cargo fuzz target "${target}" (${dir}/Cargo.toml) does not exist`);
    }
    return problems;
  }
  if (!["run", "test", "build", "check", "clippy", "bench", "doc", "tree", "rustc"].includes(sub)) return problems;
  if (cwd !== ".") return problems;
  const dash = rest.indexOf("--");
  const own = dash === -1 ? rest : rest.slice(0, dash);
  const after = dash === -1 ? [] : rest.slice(dash + 1);
  const value = (flags) => own.flatMap((a, i) => (flags.includes(a) ? [own[i + 1]] : flags.flatMap((f) => (a.startsWith(`${f}=`) ? [a.slice(f.length + 1)] : []))));
  const packages = [];
  for (const name of value(["-p", "--package"])) {
    const crate = repo.crates.find((c) => c.name === name);
    if (crate) packages.push(crate);
    else problems.push(`cargo package "${name}" (a crate of the workspace) does not exist`);
  }
  const features = value(["--features", "-F"]).flatMap((f) => f.split(/[\s,]+/)).filter(Boolean);
  const all = own.includes("--all-features");
  for (const f of features) {
    const [owner, feature] = f.includes("/") ? f.split("/") : [null, f];
    const scope = owner ? repo.crates.filter((c) => c.name === owner) : packages.length ? packages : repo.crates;
    if (!scope.some((c) => c.features.has(feature))) problems.push(`cargo feature "${f}"${packages.length ? ` of ${packages.map((c) => c.name).join(", ")}` : ""} does not exist`);
  }
  const example = value(["--example"])[0];
  const bin = value(["--bin"])[0];
  let target = null;
  if (example) {
    const found = (packages.length ? packages : repo.crates).filter((c) => c.examples.has(example));
    if (found.length === 0) problems.push(`cargo example "${example}"${packages.length ? ` of ${packages[0].name}` : ""} does not exist`);
    else if (found.length > 1) problems.push(`cargo example "${example}" without -p does not exist (it is ambiguous: ${found.map((c) => c.name).join(", ")})`);
    else {
      target = found[0].examples.get(example);
      const missing = target.required.filter((r) => !all && !features.includes(r));
      if (missing.length) problems.push(`cargo example "${example}" without --features ${missing.join(",")} does not exist (its required-features)`);
      target = { files: [...repo.files].filter((f) => f.startsWith(path.posix.dirname(target.path) + "/") && f.endsWith(".rs")) };
    }
  } else if (sub === "run" && packages.length === 1) {
    const crate = packages[0];
    const named = bin ? crate.bins.get(bin) : null;
    if (bin && !named && !(bin === crate.name && repo.files.has(`${crate.dir}/src/main.rs`))) problems.push(`cargo bin "${bin}" of ${crate.name} does not exist`);
    target = { files: [...repo.files].filter((f) => f.startsWith(`${crate.dir}/src/`) && f.endsWith(".rs")), positional: true };
  }
  if (target && sub === "run") {
    const source = target.files.map((f) => repo.text(f)).join("\n");
    const literal = (s) => source.includes(`"${s}"`) || source.includes(`"${s}=`) || source.includes(`"${s} `);
    const positional = target.positional ? after.find((a) => !a.startsWith("-")) : undefined;
    for (const a of after) {
      const flag = a.startsWith("--") ? a.split("=")[0] : a === positional && after.indexOf(a) === 0 ? a : null;
      if (flag && !/[<>]/.test(flag) && !literal(flag)) problems.push(`"${flag}" of cargo run ${example ? `--example ${example}` : `-p ${packages[0].name}`} does not exist (no such literal in its source)`);
    }
  }
  return problems;
}

/** The problems of a command line (one step or several joined by `&&` or `;`), run from the repository's root, or
 * from `shell.cwd` where the line follows others of a shell block (a `cd` of it moves `shell.cwd` for the next). */
export function checkCommand(repo, line, shell = { cwd: "." }) {
  const problems = [];
  if (shell.cwd === null) return problems; // after a `cd` out of the tracked tree
  let cwd = shell.cwd;
  for (const step of line.split(/&&|\|\||;|\|/)) {
    const words = shellWords(step.trim().replace(/^\$\s+/, ""));
    while (words.length && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) words.shift();
    const [cmd, ...args] = words;
    if (cmd === "cd") {
      const to = args[0] && within(cwd, args[0]);
      cwd = to && repo.dirs.has(to) ? to : null;
      shell.cwd = cwd;
      if (cwd === null) return problems; // a folder outside the tracked tree: nothing after it is checked
    } else if (["npm", "node", "cargo"].includes(cmd)) {
      repo.checked += 1;
    }
    if (cmd === "npm") {
      const [sub, script] = args;
      const name = sub === "run" || sub === "run-script" ? script : ["test", "t", "start", "stop", "restart"].includes(sub) ? (sub === "t" ? "test" : sub) : null;
      if (!name || name.startsWith("-")) continue;
      const scripts = repo.scripts(cwd === "." ? "" : cwd);
      const where = cwd === "." ? "package.json" : `${cwd}/package.json`;
      if (!scripts?.has(name)) problems.push(`npm script "${name}" (${where}) does not exist`);
    } else if (cmd === "node") {
      const at = args.findIndex((a) => !a.startsWith("-"));
      if (at === -1 || args.slice(0, at).some((a) => ["-e", "--eval", "-p", "--print"].includes(a))) continue;
      const script = args[at];
      if (cwd === ".") {
        const problem = checkWord(repo, script);
        if (problem) problems.push(problem);
      } else if (!isGlob(script) && !/[A-Z]{3,}/.test(script)) {
        const p = within(cwd, script);
        if (p && !repo.files.has(p)) problems.push(`${p} does not exist`);
      }
    } else if (cmd === "cargo") {
      problems.push(...checkCargo(repo, args, cwd));
    }
  }
  return problems;
}

/** Whether a code span reads as a command (not a path that happens to start with a word). */
const isCommand = (span) => /^(\$\s+)?([A-Z_][A-Z0-9_]*=\S*\s+)*(cd|npm|node|cargo)\s/.test(span.trim());

/** Blanks the fenced blocks of a text (keeping its lines) and returns them with their language and first line. */
function fences(text) {
  const lines = text.split("\n");
  const blocks = [];
  let open = null;
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s*(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i]);
    if (!open && m) {
      open = { marker: m[1], lang: m[2].toLowerCase(), start: i + 1, lines: [] };
      lines[i] = "";
    } else if (open && m && lines[i].trim().startsWith(open.marker[0].repeat(open.marker.length)) && !m[2]) {
      blocks.push(open);
      open = null;
      lines[i] = "";
    } else if (open) {
      open.lines.push({ line: i + 1, text: lines[i] });
      lines[i] = "";
    }
  }
  return { prose: lines.join("\n"), blocks };
}

/** The line of an offset in a text. */
const lineAt = (text, offset) => text.slice(0, offset).split("\n").length;

/**
 * The problems of one Markdown text: `{ line, message }`, in the order of the text. `file` is its path relative
 * to the repository's root (its relative links resolve from its folder; absolute for a file outside it).
 */
export function checkMarkdown(text, { file, repo = repository() }) {
  const found = [];
  const add = (line, message) => {
    if (message !== null && message !== undefined) found.push({ line, message });
  };
  const { prose, blocks } = fences(text);
  const rel = path.isAbsolute(file) ? path.relative(repo.root, file) : file;
  const base = path.posix.dirname(rel.split(path.sep).join("/"));
  // Inline code spans: a command, or words that may be paths.
  for (const m of prose.matchAll(/(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g)) {
    const span = m[2].replace(/\s+/g, " ").trim().replace(/<[^<>]*>/g, (p) => p.replace(/ /g, "_"));
    const line = lineAt(prose, m.index);
    if (isCommand(span)) {
      for (const problem of checkCommand(repo, span)) add(line, problem);
      continue;
    }
    const name = checkName(repo, span);
    if (name !== undefined) {
      add(line, name);
      continue;
    }
    const callable = checkCallable(repo, span);
    if (callable !== undefined) {
      add(line, callable);
      continue;
    }
    for (const word of span.split(" ")) {
      if (word.includes("::")) add(line, checkRustPath(repo, trimWord(word)));
      else add(line, checkWord(repo, word));
    }
  }
  // Links: relative ones from the file's folder, and those into this repository's GitHub tree.
  const withoutSpans = prose.replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, (s) => s.replace(/[^\n]/g, " "));
  for (const m of withoutSpans.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|^\s*\[[^\]]+\]:\s*<?(\S+?)>?\s*$/gm)) {
    const href = m[1] ?? m[2];
    const line = lineAt(withoutSpans, m.index);
    const own = repo.repoUrl && new RegExp(`^https://github\\.com/${escape(repo.repoUrl)}/(?:blob|tree)/[^/]+/(.+)$`).exec(href);
    if (own) {
      const { p, anchor } = splitTarget(own[1]);
      add(line, checkPath(repo, decodeURIComponent(p), anchor));
      continue;
    }
    if (/^(?:[a-z][a-z0-9+.-]*:|\/\/|\/)/i.test(href)) continue;
    const { p, anchor } = splitTarget(href);
    const target = p ? within(base, decodeURIComponent(p)) : rel;
    if (target === null) add(line, `${href} does not exist (outside the repository)`);
    else if (!p && anchor) {
      if (!path.isAbsolute(file) && !headingAnchors(path.join(repo.root, rel))?.has(decodeURIComponent(anchor))) add(line, `#${anchor} does not exist (no such heading)`);
    } else add(line, checkPath(repo, target + (p.endsWith("/") ? "/" : ""), anchor));
  }
  // Commands in fenced shell blocks, a `cd` holding for the lines after it.
  for (const block of blocks.filter((b) => SHELL.has(b.lang))) {
    const shell = { cwd: "." };
    for (const { line, text: l } of block.lines) if (isCommand(l)) for (const problem of checkCommand(repo, l, shell)) add(line, problem);
  }
  return found.sort((a, b) => a.line - b.line);
}

/** The tracked Markdown files that are the repository's own. */
export function markdownFiles(repo) {
  return [...repo.files].filter((f) => f.endsWith(".md") && !SKIPPED.test(f)).sort();
}

/** Every problem of a Markdown file (a path relative to the repository's root, or absolute), as `file:line: message`. */
export function checkFile(file, repo = repository()) {
  const abs = path.isAbsolute(file) ? file : path.join(repo.root, file);
  return checkMarkdown(readFileSync(abs, "utf8"), { file, repo }).map(({ line, message }) => `${file}:${line}: ${message}`);
}

/** Every problem of every tracked Markdown file. */
export function checkDocs(repo = repository()) {
  return markdownFiles(repo).flatMap((f) => checkFile(f, repo));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const repo = repository();
  const problems = checkDocs(repo);
  for (const p of problems) console.error(p);
  console.log(`docs-paths: ${repo.checked} paths and commands quoted in ${markdownFiles(repo).length} Markdown files, ${problems.length} problem(s)`);
  process.exit(problems.length === 0 ? 0 : 1);
}
