// svc-sdk/testing's entry glue. The platform makes this JS: a standard fetch takes and gives Request and
// Response objects, and a slow fault holds its call (in flight, not yet applied) on the runtime's own
// setTimeout (so fake timers drive it), which the request's signal cuts short as a fetch's would;
// the sandbox's handling is the Rust's. The platform's fetch also posts callbacks through a user's
// callbackFetch, within the binary's delivery timeout, and the Rust reports what each post got.
// `svc-sdk sandbox` (the package's bin) makes one of the binary's flags under CLI and serves it.
import { Sandbox as Inner } from "./svc_sdk.js";
// The body a channel's notify_url receives, written by the sandbox's own Rust.
export { notification } from "./svc_sdk.js";
const CLI = Symbol.for("svc-sdk.cli");

const wait = (ms, signal) =>
  new Promise((resolve, reject) => {
    const stop = () => (clearTimeout(timer), reject(signal.reason));
    const timer = setTimeout(() => (signal?.removeEventListener("abort", stop), resolve()), ms);
    signal?.addEventListener("abort", stop, { once: true });
  });

export class Sandbox {
  #inner;
  #callbackFetch;

  constructor(options = {}) {
    this.#inner = options?.[CLI] ? Inner.__fromArgs(options[CLI]) : new Inner(options);
    this.#callbackFetch = options?.callbackFetch;
    this.fetch = this.fetch.bind(this);
  }

  get organizationId() {
    return this.#inner.organizationId;
  }

  /** The bin's hold on the Rust half: `__serving()`, `__serveAt(origin)`. */
  get [CLI]() {
    return this.#inner;
  }

  get url() {
    return this.#inner.url;
  }

  async fetch(input, init) {
    const request = new Request(input, init);
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    const body = new Uint8Array(await request.arrayBuffer());
    signal?.throwIfAborted();
    let answer = this.#inner.handle(request.method, request.url, [...request.headers].flat(), body);
    if (answer.delayMs > 0) {
      try {
        await wait(answer.delayMs, signal);
      } finally {
        answer = this.#inner.resume(answer.ticket);
      }
    }
    if (answer.dropped) throw new TypeError("fetch failed: the sandbox dropped the connection");
    const headers = new Headers();
    for (let i = 0; i < answer.headers.length; i += 2) headers.append(answer.headers[i], answer.headers[i + 1]);
    const settled = answer.posts && this.#callbackFetch ? await this.#post(answer.posts, answer.body) : answer.body;
    return new Response(settled ?? null, { status: answer.status, headers });
  }

  async #post(posts, body) {
    const outcomes = [];
    for (const post of JSON.parse(posts)) {
      const controller = new AbortController();
      const late = () => Promise.reject(new DOMException(`no answer within ${post.timeoutMs} ms`, "TimeoutError"));
      const expired = wait(post.timeoutMs, controller.signal).then(late);
      expired.catch(() => {});
      const sent = (async () => this.#callbackFetch(post.url, { method: "POST", headers: post.headers, body: post.body, signal: controller.signal }))();
      const status = (r) => (r?.body?.cancel?.().catch(() => {}), typeof r?.status === "number" ? r.status : null);
      outcomes.push(await Promise.race([sent, expired]).then(status).catch((e) => String(e?.message ?? e)));
      controller.abort(new DOMException("the delivery is over", "AbortError"));
    }
    return this.#inner.settle(body, posts, JSON.stringify(outcomes));
  }

  consent(authorizeUrl, options) {
    return this.#inner.consent(String(authorizeUrl), options ?? null);
  }

  approveDevice(userCode, options) {
    this.#inner.approveDevice(String(userCode), options ?? null);
  }

  seed(operationId, ...args) {
    return this.#inner.seed(operationId, args);
  }

  reset() {
    this.#inner.reset();
  }

  snapshot() {
    return this.#inner.snapshot();
  }

  restore(snapshot) {
    this.#inner.restore(snapshot);
  }

  requests() {
    return this.#inner.requests();
  }

  callbacks() {
    return this.#inner.callbacks();
  }
}
