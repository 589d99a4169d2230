import { describe, expect, it } from "vitest";
import { betterFactor, betterInterval, change, compareSentence, counts, inconclusiveKind, ordered } from "../src/shape/compare";
import { compareReport } from "./fixtures";

describe("compare", () => {
  const report = compareReport();

  it("counts the runner's verdicts without recomputing them", () => {
    expect(counts(report)).toEqual({ regression: 1, improvement: 0, inconclusive: 0, unchanged: 1 });
  });

  it("puts regressions first and filters by verdict", () => {
    expect(ordered(report).map((c) => c.verdict)).toEqual(["regression", "unchanged"]);
    expect(ordered(report, "unchanged")).toHaveLength(1);
  });

  it("leads with a sentence of the verdicts", () => {
    expect(compareSentence(report)).toBe("Against its baseline, 1 comparison got worse and 0 better beyond ±10 %; 1 is unchanged.");
  });

  it("tells an inconclusive interval beyond the threshold from one within it and one across it", () => {
    const base = ordered(report)[0];
    const at = (lo: number, hi: number) => ({ ...base, verdict: "inconclusive" as const, ci95: [lo, hi] as [number, number] });
    // the echo-server pool:50 case: 1.12–1.33 at ±10 % is beyond, not "no change found"
    expect(inconclusiveKind(at(1.12, 1.33), 0.1)).toBe("beyond");
    expect(inconclusiveKind(at(0.7, 0.85), 0.1)).toBe("beyond");
    expect(inconclusiveKind(at(0.97, 1.02), 0.1)).toBe("within");
    expect(inconclusiveKind(at(0.95, 1.2), 0.1)).toBe("across");
    const mixed = { ...report, comparisons: [at(1.12, 1.33), at(0.97, 1.02), at(0.95, 1.2), at(0.9, 1.3)] };
    expect(compareSentence(mixed)).toBe(
      "Against its baseline, 0 comparisons got worse and 0 better beyond ±10 %; 0 are unchanged. Of the 4 inconclusive ones," +
        " 1 lie wholly beyond ±10 % but are not confirmed at these repetitions, 1 lie wholly within ±10 %, 2 cannot tell either way.",
    );
  });

  it("says the change in percent of the metric", () => {
    expect(change(ordered(report)[0])).toBe("+41.5 % wall time (worse)");
  });

  it("orients a change so that right is better, whichever way the metric points (#54)", () => {
    const time = ordered(report)[0];
    const throughput = { ...time, metric: "throughputPerSecond", higherIsBetter: true, ratio: 0.92, ci95: [0.9, 0.94] as [number, number] };
    expect(change(throughput)).toBe("−8.0 % throughput (worse)");
    const faster = { ...time, ratio: 0.56, ci95: [0.5, 0.62] as [number, number] };
    expect(change(faster)).toBe("−44.0 % wall time (better)");
    // worse lies left of 1 in both, better right
    expect(betterFactor(throughput)).toBeLessThan(1);
    expect(betterFactor(time)).toBeLessThan(1);
    expect(betterFactor(faster)).toBeCloseTo(1 / 0.56, 12);
    expect(betterInterval(faster)[0]).toBeCloseTo(1 / 0.62, 12);
    expect(betterInterval(faster)[1]).toBeCloseTo(2, 12);
    expect(betterInterval(throughput)).toEqual([0.9, 0.94]);
  });
});
