// The demo app: five views on one page, switched by the URL hash. The browser never holds a token:
// the Client talks to the edge proxy (createProxy) that the app's own server mounts at /api on the
// same origin, and the proxy adds the token and the organization. The static build (`--mode static`)
// talks instead to a sandbox running in the page (static.ts), so it needs no server at all.
import { Client } from "svc-sdk";
import "./style.css";
import { mountSignup } from "./signup.ts";
import { mountAsset } from "./asset.ts";
import { mountChannel } from "./channel.ts";
import { mountList } from "./list.ts";
import { mountConnect } from "./connect.ts";

const STATIC = import.meta.env.MODE === "static";
const { client, apiDomain } = STATIC ? await (await import("./static.ts")).sandboxClient() : proxyClient(`${location.origin}/api`);

function proxyClient(apiDomain: string) {
  return { client: new Client({ apiDomain, viaProxy: true }), apiDomain };
}

type View = { show(): void };
const mounts: Record<string, (root: HTMLElement, client: Client) => View> = {
  signup: mountSignup,
  asset: mountAsset,
  channel: mountChannel,
  list: mountList,
  connect: mountConnect,
};
const views = new Map<string, View>();

function route(): void {
  const name = location.hash.slice(1) in mounts ? location.hash.slice(1) : "signup";
  for (const section of document.querySelectorAll<HTMLElement>("section.view")) {
    section.hidden = section.dataset.view !== name;
  }
  for (const link of document.querySelectorAll<HTMLAnchorElement>("nav a")) {
    if (link.dataset.view === name) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  let view = views.get(name);
  if (!view) {
    view = mounts[name](document.getElementById(`view-${name}`)!, client);
    views.set(name, view);
  }
  view.show();
  document.title = `${document.querySelector(`#view-${name} h1`)?.textContent ?? "svc-sdk"} · svc-sdk demo`;
}

document.getElementById("api-info")!.textContent = STATIC
  ? `API: ${apiDomain} (a sandbox in this page; nothing leaves the browser)`
  : `API: ${apiDomain} (the app's proxy; no token in the browser)`;
window.addEventListener("hashchange", route);
route();
document.body.dataset.ready = "true";
