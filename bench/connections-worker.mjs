// The process of the connections bench (bench/connections.mjs), run with --expose-gc against the release
// sandbox: the cost of a call through a connection (a client made per call, or kept) beside a plain
// `oauth` Client and a raw fetch with the token, and the memory of `known` connections known to this
// process (each connected, and called once). Prints one JSON line.
import { Client, createConnections, memoryConnectionStore } from "svc-sdk";

const c = JSON.parse(process.argv[2]);
const now = () => performance.now();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The consent page's form, approved for a new user `email`: the redirect a browser follows. */
async function consent(authorizeUrl, email) {
  const url = new URL(authorizeUrl);
  const form = new URLSearchParams(url.searchParams);
  for (const [k, v] of Object.entries({ user: "", email, location: "us", decision: "approve" })) form.set(k, v);
  const answer = await fetch(`${url.origin}${url.pathname}`, { method: "POST", body: form, redirect: "manual" });
  return answer.headers.get("location");
}

/** Each of `calls` timings of `call`, after a warm-up. */
async function timed(call) {
  for (let i = 0; i < 20; i++) await call();
  const t = [];
  for (let i = 0; i < c.calls; i++) {
    const s = now();
    await call();
    t.push(now() - s);
  }
  return median(t);
}

const connections = createConnections({
  clientId: c.oauth.clientId,
  clientSecret: c.oauth.clientSecret,
  redirectUri: "https://app.example.com/svc/callback",
  scopes: ["SvcBooks.settings.READ"],
  store: memoryConnectionStore(),
  accountsServers: { us: c.url },
  rateLimit: false,
});
const connect = async (id) => connections.handleRedirect(await consent(await connections.authorizeUrl(id), `${id}@bench.example`));
await connect("bench");
const [org] = await connections.organizations("bench");
const plain = new Client({ oauth: { ...c.oauth, accountsUrl: c.url }, organizationId: org.organization_id, rateLimit: false });
const kept = connections.client("bench", { organizationId: org.organization_id });
const rawUrl = `${c.url}/books/v3/settings/currencies?organization_id=${org.organization_id}`;
let rawToken;
await new Client({
  oauth: { ...c.oauth, accountsUrl: c.url },
  organizationId: org.organization_id,
  rateLimit: false,
  fetch: (input, init) => ((rawToken ??= new Headers(init?.headers).get("authorization")), fetch(input, init)),
}).listCurrencies();
const call = {
  raw: await timed(() => fetch(rawUrl, { headers: { authorization: rawToken } }).then((r) => r.text())),
  oauth: await timed(() => plain.listCurrencies()),
  connectionKept: await timed(() => kept.listCurrencies()),
  connectionPerCall: await timed(() => connections.client("bench", { organizationId: org.organization_id }).listCurrencies()),
};

globalThis.gc();
const before = process.memoryUsage();
const started = now();
for (let i = 0; i < c.known; i++) {
  const id = `known-${i}`;
  await connect(id);
  await connections.client(id).listOrganizations();
}
const connectMs = now() - started;
globalThis.gc();
const after = process.memoryUsage();
const delta = (k) => after[k] - before[k];
process.stdout.write(
  JSON.stringify({
    call,
    known: c.known,
    connectMs,
    memory: { heapUsed: delta("heapUsed"), arrayBuffers: delta("arrayBuffers"), rss: delta("rss"), external: delta("external") },
  }) + "\n",
);
