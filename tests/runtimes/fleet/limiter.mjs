// The worker that hosts the fleet's SvcLimiter objects (tests/js/fleet-workerd.test.mjs). The
// class bound is the package's SvcLimiter, with one thing added for the test: GET /peek answers
// what the object's storage holds and how often its alarm ran, without running a step (a step
// would sweep ended leases itself, so only a peek can show that the alarm did it).
import { SvcLimiter as Shipped } from "svc-sdk/cloudflare";

export class SvcLimiter extends Shipped {
  async fetch(request) {
    if (new URL(request.url).pathname !== "/peek") return super.fetch(request);
    const storage = this.ctx.storage;
    return Response.json({
      fleet: (await storage.get("fleet")) ?? null,
      alarm: await storage.getAlarm(),
      alarms: (await storage.get("test-alarms")) ?? 0,
      now: Date.now(),
    });
  }

  async alarm() {
    await this.ctx.storage.put("test-alarms", ((await this.ctx.storage.get("test-alarms")) ?? 0) + 1);
    await super.alarm();
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname !== "/peek") return new Response("not found", { status: 404 });
    const key = url.searchParams.get("key") ?? "";
    return env.SVC_LIMITER.get(env.SVC_LIMITER.idFromName(key)).fetch("https://svc-limiter/peek");
  },
};
