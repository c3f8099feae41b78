// Debian's Chromium for the browser tests, driven by playwright-core: headless, and able to reach
// nothing but the loopback addresses.
import path from "node:path";
import { pathToFileURL } from "node:url";

const h = await import(pathToFileURL(path.join(process.env.SVC_ROOT, "tests/runtimes/harness.mjs")));
const { chromium } = await import(pathToFileURL(path.join(h.root, "node_modules/playwright-core/index.mjs")));

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // No host name resolves: nothing but the loopback addresses can be reached.
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
];

/** Chromium, its settings and caches inside `stateDir` (not in the user's home). */
export function launchChromium(stateDir) {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ARGS,
    timeout: 30_000,
    env: h.toolEnv({ XDG_CONFIG_HOME: h.ensureDir(path.join(stateDir, "config")), XDG_CACHE_HOME: h.ensureDir(path.join(stateDir, "cache")) }),
  });
}
