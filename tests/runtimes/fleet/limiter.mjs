// The worker that hosts the fleet's SvcLimiter objects (tests/js/fleet-workerd.test.mjs). The
// class bound is the package's SvcLimiter, with two things added for the test: GET /peek answers
// what the object's storage holds and how often its alarm ran, without running a step (a step
// would sweep ended leases itself, so only a peek can show that the alarm did it); and the object
// keeps the record of every step it ran (the request and its reply: the time, the figures, the
// outcome) in its storage, which GET /steps answers, so that a test judges the fleet from the
// limiter's own records (what it refused and why) rather than from counts per time. Bundled with a
// scaled clock (tests/support/scaled-clock.mjs), the object's alarm is set at the machine's time of
// the scaled time it asks for, and read back scaled.
import { SvcLimiter as Shipped } from "svc-sdk/cloudflare";

/** The storage the object sees on a scaled clock: its alarm's times mapped to and from the machine's. */
function scaledStorage(storage, clock) {
  return {
    get: (...args) => storage.get(...args),
    put: (...args) => storage.put(...args),
    setAlarm: (at, options) => storage.setAlarm(clock.real(at), options),
    getAlarm: async (options) => {
      const at = await storage.getAlarm(options);
      return at === null ? null : clock.at(at);
    },
  };
}

export class SvcLimiter extends Shipped {
  constructor(ctx, env) {
    super(ctx, env);
    const clock = globalThis[Symbol.for("svc-test.clock")];
    // The shipped class reads nothing of ctx but its storage.
    if (clock) this.ctx = { storage: scaledStorage(ctx.storage, clock) };
    this.records = ctx.storage;
    this.recorded = 0;
  }

  async fetch(request) {
    const path = new URL(request.url).pathname;
    if (path === "/steps") return Response.json([...(await this.records.list({ prefix: "test-step-" })).values()]);
    if (path !== "/peek") return this.recordedStep(request);
    const storage = this.ctx.storage;
    return Response.json({
      fleet: (await storage.get("fleet")) ?? null,
      alarm: await storage.getAlarm(),
      alarms: (await storage.get("test-alarms")) ?? 0,
      now: Date.now(),
    });
  }

  /** The shipped step, its request and reply kept under a key of their own (an id per instance, so a new one never overwrites). */
  async recordedStep(request) {
    const step = await request.text();
    const answer = await super.fetch({ text: async () => step });
    const reply = await answer.text();
    if (answer.ok) {
      this.instance ??= crypto.randomUUID();
      await this.records.put(`test-step-${this.instance}-${this.recorded++}`, { request: JSON.parse(step), reply: JSON.parse(reply) });
    }
    return new Response(reply, { status: answer.status, headers: answer.headers });
  }

  async alarm() {
    await this.ctx.storage.put("test-alarms", ((await this.ctx.storage.get("test-alarms")) ?? 0) + 1);
    await super.alarm();
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname !== "/peek" && url.pathname !== "/steps") return new Response("not found", { status: 404 });
    const key = url.searchParams.get("key") ?? "";
    return env.SVC_LIMITER.get(env.SVC_LIMITER.idFromName(key)).fetch(`https://svc-limiter${url.pathname}`);
  },
};
