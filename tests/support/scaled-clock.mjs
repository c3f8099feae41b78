// A scaled clock for one process or isolate of a fleet test: from `epoch` (ms of the machine's
// clock, the same everywhere in the fleet) Date.now and performance.now run `scale` times as fast,
// and setTimeout and setInterval wait a `scale`th of what they are asked, so a Client's minute (the
// SDK's own 60 000 ms, unchanged) passes in 60/scale s. `at(ms)` maps another reading of the
// machine's clock (a fleet store's) the same way and `real(ms)` maps back, rounded up (an alarm's
// time), so every clock the fleet reads agrees with the others and with a sandbox started with
// `--minute-ms 60000/scale`. The clock is also at globalThis[Symbol.for("svc-test.clock")].
export function scaleClock({ epoch, scale }) {
  if (!(Number.isFinite(epoch) && Number.isFinite(scale) && scale >= 1)) throw new Error(`scaleClock: bad clock ${JSON.stringify({ epoch, scale })}`);
  const realNow = Date.now.bind(Date);
  const realPerf = performance.now.bind(performance);
  const perfEpoch = realPerf();
  const at = (ms) => epoch + (ms - epoch) * scale;
  const real = (ms) => Math.ceil(epoch + (ms - epoch) / scale);
  const shorter = (ms) => Math.max(0, Number(ms) || 0) / scale;
  const { setTimeout: realSetTimeout, setInterval: realSetInterval } = globalThis;
  Date.now = () => at(realNow());
  performance.now = () => perfEpoch + (realPerf() - perfEpoch) * scale;
  globalThis.setTimeout = (fn, ms, ...args) => realSetTimeout(fn, shorter(ms), ...args);
  globalThis.setInterval = (fn, ms, ...args) => realSetInterval(fn, shorter(ms), ...args);
  const clock = { epoch, scale, at, real };
  globalThis[Symbol.for("svc-test.clock")] = clock;
  return clock;
}
