// The day figure (issue 47): a sync job and people's calls against one organization's day, with and
// without lanes, side by side: interactive calls refused, background calls done, 429s seen.
import { copyFileSync } from "node:fs";
import path from "node:path";
import { consumer, nodeJson, root } from "./lib.mjs";

/** The day of `dailyQuota` calls, a sync job of `syncCalls` and `interactiveCalls` after it, without and with lanes. */
export function measureDay({ dailyQuota, syncCalls, interactiveCalls }) {
  copyFileSync(path.join(root, "bench/day-worker.mjs"), path.join(consumer, "day-worker.mjs"));
  const modes = {};
  for (const lanes of [false, true]) {
    const config = JSON.stringify({ dailyQuota, syncCalls, interactiveCalls, lanes });
    modes[lanes ? "lanes (sync in the background, reserve 0.1)" : "no lanes"] = nodeJson(path.join(consumer, "day-worker.mjs"), [config], { cwd: consumer });
  }
  return { dailyQuota, syncCalls, interactiveCalls, modes };
}

/** The side-by-side table of `measureDay`'s figures. */
export function daySection(d) {
  const L = ["### The day: a sync job and people's calls, with and without lanes", ""];
  if (!d) return [...L, "Not measured.", ""];
  if (d.error) return [...L, `Not measured: ${d.error.replace(/\s*\n\s*/g, " ")}`, ""];
  L.push(
    `One organization's day of ${d.dailyQuota} calls as svc-sdk/testing's sandbox states it on every answer; a sync job of ${d.syncCalls}`,
    `calls early in the day, then ${d.interactiveCalls} calls of people, one after another (the day simulated by the order of its calls).`,
    "",
    "| | background calls done | background refused | interactive done | interactive refused | 429s seen |",
    "|---|---|---|---|---|---|",
  );
  for (const [mode, m] of Object.entries(d.modes)) {
    L.push(`| ${mode} | ${m.background.done} | ${m.background.refused} | ${m.interactive.done} | ${m.interactive.refused} | ${m.status429} |`);
  }
  return [...L, ""];
}
