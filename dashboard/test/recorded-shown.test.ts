import { describe, expect, it } from "vitest";
import { telemetry, variantStats } from "../src/shape/cell";
import { sleepBound, userJmh } from "./fixtures";

// Issue #19: everything recorded is shown where a reader looks for it.
describe("what the cell view shows beside the median", () => {
  it("the whole JVM's time beside the workload's own", () => {
    const cell = sleepBound();
    const stats = variantStats(cell, "wallMs");
    for (const [i, s] of stats.entries()) {
      const process = cell.measurements[i].samples.map((x) => x["processMs"] as number).sort((a, b) => a - b);
      expect(s.processMs).toBe(cell.measurements[i].processSummary?.median ?? process[1]);
      expect(s.processMs!).toBeGreaterThan(s.median!);
    }
  });

  it("a JMH score with JMH's error", () => {
    const cell = userJmh();
    const stats = variantStats(cell, "score");
    expect(stats.every((s) => typeof s.scoreError === "number" && s.scoreError > 0)).toBe(true);
  });

  it("where virtual threads were pinned, and for how long", () => {
    const m = structuredClone(sleepBound().measurements[0]);
    m.samples = m.samples.map((s, i) => ({ ...s, pinnedMs: 700 + i, pinnedAt: i < 2 ? "Work.hold(Work.java:12)" : "Other.x(Other.java:3)" }));
    const t = telemetry(m);
    expect(t.pinnedMs).toBe(701);
    expect(t.pinnedAt).toBe("Work.hold(Work.java:12)");
  });
});

describe("labels that say what is so", () => {
  it("a fixed parallelism 1 is not the scheduler's defaults", async () => {
    const { schedulerLabel } = await import("../src/shape/matrix");
    const c = { ...sleepBound().coordinates, parallelism: "1" };
    expect(schedulerLabel(c, [])).toBe("parallelism 1");
    expect(schedulerLabel(sleepBound().coordinates, [])).toBe("scheduler defaults");
  });

  it("a skipped cell is not a failure", async () => {
    const { failures, skipped } = await import("../src/shape/run");
    const cells = [
      { ...sleepBound(), status: "skipped" as const, reason: "no openj9 JDK 21 on this host" },
      { ...sleepBound(), cellId: "x", status: "failed" as const, reason: "exit 137" },
    ];
    expect(failures(cells).map((f) => f.cellId)).toEqual(["x"]);
    expect(skipped(cells).map((f) => f.reason)).toEqual(["no openj9 JDK 21 on this host"]);
  });
});
