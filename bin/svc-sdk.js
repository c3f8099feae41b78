#!/usr/bin/env node
// The package's bin, `npx svc-sdk <command>`. The platform makes this JS: Node's argv (read by util.parseArgs),
// environment and .env file, stdio and TTY, SIGINT and its HTTP server are reached from here. Each command's
// options, help, words and exit status, the credentials read, validation, requests, the send loop, JSON out
// (a call's result from its answer's text, every number as the service spelled it),
// the accounts grants and the sandbox are the core's (crates/svc-sdk/src/cli.rs, src/wasm/cli.rs), in the bin's own
// wasm (pkg/cli/: the client's with the feature `cli`), which no entry of the package loads.
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { Client, cli as core, toNodeHandler } from "../pkg/cli/node.js";

const CLI = Symbol.for("svc-sdk.cli");
const paint = process.stderr.isTTY && !process.env.NO_COLOR;
const style = (v) => (v.json || !process.stdout.isTTY ? 0 : process.env.NO_COLOR ? 1 : 2);
const say = (text) => process.stderr.write(text);
const out = (text) => process.stdout.write(text);
// A .env file in the working directory: Node's own reader (20.12 on), else the core's; the environment wins.
if (existsSync(".env") && process.loadEnvFile) process.loadEnvFile(".env");
else if (existsSync(".env")) for (const [k, v] of Object.entries(core.__cliDotenv(readFileSync(".env", "utf8")))) process.env[k] ??= v;

/** The call's signal, aborted by Ctrl-C: the call ends as an `aborted` error, nothing half-printed. */
function interrupted() {
  const ac = new AbortController();
  process.once("SIGINT", () => ac.abort());
  return ac.signal;
}

const client = (v, dry = false, fetch = undefined) => new Client({ ...core.__cliClient(process.env, v.org, dry), fetch });
const text = (data) => (data === "-" ? readFileSync(0, "utf8") : data?.startsWith("@") ? readFileSync(data.slice(1), "utf8") : data);
const usage = (message) => Object.assign(new Error(message), { kind: "usage" });

/** The grant's refresh token: the one line on stdout that holds a secret, as `login` and `token` exist to print it. */
function granted(v, grant) {
  if (grant.apiDomain) say(`its API domain: ${grant.apiDomain} (SVC_API_DOMAIN)\n`);
  out(v.json ? core.__cliJson(grant, 0) : `SVC_REFRESH_TOKEN=${grant.refreshToken}\n`);
}

const commands = {
  async login(v) {
    const shown = await core.__cliDeviceLogin(process.env, v.region, v.operations?.split(","));
    say(`Open ${shown.verificationUrl} and enter the code ${shown.userCode} (it expires at ${new Date(shown.expiresAt).toISOString()}); waiting...\n`);
    granted(v, await shown.done);
  },
  async token(v, [code]) {
    if (code === undefined) throw usage("token needs the grant code: svc-sdk token <grant-code>");
    granted(v, await core.__cliExchange(process.env, code, v.region, v["redirect-uri"]));
  },
  async call(v, [id, ...path]) {
    if (id === undefined) throw usage("call needs an operation id: svc-sdk call <operationId> (svc-sdk ops lists them)");
    const args = core.__cliArgs(id, path, text(v.data));
    if (v["dry-run"]) return out(core.__cliJson(await client(v, true).prepare(id, ...args), style(v)));
    // The answer's text as it came (each page's): the core prints the result from it, every number as spelled.
    let body;
    const seen = (...a) => fetch(...a).then((r) => ((body = r.clone().text()), r));
    let answer = await client(v, false, seen)[id](...args, { signal: interrupted() });
    if (answer instanceof Blob) return out(new Uint8Array(await answer.arrayBuffer())); // a file, as it came
    const texts = [await body];
    if (v.all) {
      if (typeof answer.hasNextPage !== "function") throw usage(`--all: ${id} is not a list`);
      let count = answer.items.length;
      for (let page = 2; answer.hasNextPage(); page++) {
        say(`page ${page - 1}: ${count} items\n`);
        answer = await answer.getNextPage();
        texts.push(await body);
        count += answer.items.length;
      }
      say(`${count} items\n`);
    }
    out(core.__cliResult(id, texts, !!v.all, style(v)));
  },
  async ops(v, [filter]) {
    out(core.__cliOps(filter, style(v) === 0));
  },
  async quota(v) {
    const options = core.__cliClient(process.env, v.org, false);
    if (!options.organizationId) throw usage("quota needs the organization: --org ID or SVC_ORGANIZATION_ID");
    const c = new Client(options);
    await c.getOrganization(options.organizationId, undefined, { signal: interrupted() }); // the day is the organization's
    out(core.__cliJson(c.rateLimitState(), style(v)));
  },
  async notify(v, [url]) {
    if (url === undefined) throw usage("notify needs your receiver's URL: svc-sdk notify <url>");
    const notice = core.__cliNotice(url, v.event, v.token, v.id);
    const body = notice.body ?? (await import("svc-sdk/testing")).notification(notice.crm);
    const init = { method: "POST", headers: { "content-type": "application/json" }, body, signal: interrupted() };
    const answer = await fetch(notice.url ?? url, init).catch((e) => {
      throw Object.assign(new Error(`${new URL(url).origin}: ${e.cause?.code ?? e.message}`), { kind: e.name === "AbortError" ? "aborted" : "network" });
    });
    say(`${v.event ?? "Leads.edit"} posted: the receiver answered HTTP ${answer.status}\n`);
    if (!answer.ok) throw Object.assign(new Error(`the receiver answered HTTP ${answer.status}`), { kind: "api" });
    out(v.json || !process.stdout.isTTY ? `${body}\n` : core.__cliJson(JSON.parse(body), style(v)));
  },
};

async function sandbox(args) {
  const { Sandbox } = await import("svc-sdk/testing");
  const sb = new Sandbox({ [CLI]: args, callbackFetch: fetch }); // a flag refused as the binary refuses it: an Error, exit 2
  const [port, quiet, eof] = sb[CLI].__serving();
  const server = createServer(toNodeHandler(async (request) => {
    const answer = await sb.fetch(request);
    if (!quiet) say(`${request.method} ${new URL(request.url).pathname} ${answer.status}\n`);
    return answer;
  }));
  await new Promise((ok, no) => server.once("error", no).listen(port, "127.0.0.1", ok));
  const url = `http://127.0.0.1:${server.address().port}`;
  sb[CLI].__serveAt(url);
  out(`sandbox listening on ${url}\n`);
  say(`organization ${sb.organizationId}; token dev-token; accounts server ${url}/oauth/v2/token\n`);
  if (eof) process.stdin.on("end", () => process.exit(0)).resume();
  process.once("SIGINT", () => process.exit(0));
  return new Promise(() => {});
}

async function main([name, ...rest]) {
  if (name === undefined || name === "--help" || name === "-h") return out(core.__cliSpec().help);
  const spec = core.__cliSpec(name);
  if (rest.includes("--help") || rest.includes("-h")) return out(spec.help);
  if (name === "sandbox") return sandbox(rest);
  const { values, positionals } = parseArgs({ args: rest, options: spec.options, allowPositionals: true });
  await commands[name](values, positionals);
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (e) => {
    say(core.__cliError(e, paint));
    process.exit(core.__cliExit(e?.kind));
  },
);
