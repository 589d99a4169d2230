import { describe, expect, it } from "vitest";
import { abVerdict, detectableWords, endedWords, testWords, verdictWhy } from "../src/shape/ab";
import { differingParts } from "../src/shape/compare";
import { abVerdictWords } from "../src/views/runs";
import type { AbEntry } from "../src/data/types";
import { abJmhAa, abRegression } from "./fixtures";

describe("an A/B row says why its verdict is what it is (issue #54)", () => {
  it("says a real run's confirmed regressions, unchanged rows and inconclusive ones in words", () => {
    const report = abRegression();
    const why = report.comparisons.map((c) => verdictWhy(c, report.threshold, report.alpha));
    expect(why.filter((w) => w.startsWith("regression"))).toEqual([
      "regression, confirmed by 6 more pairs: a change beyond ±3 %, significant",
      "regression, confirmed by 6 more pairs: a change beyond ±3 %, significant",
    ]);
    expect(new Set(why.filter((w) => w.startsWith("unchanged")))).toEqual(new Set(["unchanged: its whole interval is within ±3 %"]));
    // 1.0001–1.1117 at ±3 %: wholly above 1 and reaching past 1.03, so neither side of the threshold
    expect(why[2]).toBe("inconclusive: its interval reaches both sides of ±3 %");
  });

  it("never lets a significant p beside unchanged read as a contradiction: the A/A row of the issue", () => {
    const row = { ...abJmhAa().comparisons[0], ratio: 1.05, ci95: [1.0101, 1.0993] as [number, number], pAdjusted: 0.019 };
    const unconfirmed = { ...row, confirmation: { extraPairs: 6, firstVerdict: "regression" as const, confirmed: false } };
    expect(verdictWhy(unconfirmed, 0.1, 0.05)).toBe(
      "unchanged: its whole interval is within ±10 %; the first pass flagged a regression, which 6 more pairs did not confirm",
    );
    expect(verdictWhy({ ...row, ci95: [1.01, 1.2] }, 0.1, 0.05)).toBe("unchanged: significant, but smaller than ±10 %");
    expect(verdictWhy({ ...row, ci95: [0.95, 1.2], pAdjusted: 0.4 }, 0.1, 0.05)).toBe("unchanged: not significant");
  });
});

describe("an A/B run says what it is (issue #31)", () => {
  it("leads with the regressions a real A/B run found, and what else it could and could not tell", () => {
    const report = abRegression();
    expect(abVerdict(report)).toEqual({ text: "2 regressions (0 improvements, 3 unchanged, 9 inconclusive)", tone: "bad" });
    expect(endedWords(report)).toBe("the budget ran out after look 3 of 6 (8.9 min of its 10 min budget): what was undecided then is inconclusive");
  });

  it("says an A/A run that decided everything found no regression", () => {
    const report = abJmhAa();
    expect(abVerdict(report)).toEqual({ text: "No regression: 0 improvements, 2 unchanged, 0 inconclusive", tone: "neutral" });
    expect(endedWords(report)).toBe("every comparison was decided at look 1 of 6 (53 s of its 10 min budget)");
  });

  it("never calls no verdict no regression", () => {
    const report = abJmhAa();
    report.comparisons = report.comparisons.map((c) => ({ ...c, verdict: "inconclusive" }));
    expect(abVerdict(report)).toEqual({ text: "No verdict: 2 of 2 comparisons inconclusive", tone: "warn" });
    report.comparisons[0].verdict = "unchanged";
    report.ab!.sequential!.notMeasured = { "debian-25.linux.cpus-2.spring-boot": "its first pass does not fit" };
    expect(abVerdict(report).text).toBe(
      "No regression among the 1 decided; no verdict on 1 of 2 (inconclusive); 1 cell not measured within the budget — 0 improvements, 1 unchanged, 1 inconclusive",
    );
    expect(abVerdict(report).tone).toBe("warn");
  });

  it("says the cells this host did not run, without calling that a warning", () => {
    const report = abJmhAa();
    report.ab!.sequential!.notRun = {
      "jdk-23.linux.cpus-2.sleep-bound": "no hotspot JDK 23 on this host",
      "jdk-23.linux.cpus-2.fib-fanout": "no hotspot JDK 23 on this host",
    };
    expect(abVerdict(report)).toEqual({
      text: "No regression: 0 improvements, 2 unchanged, 0 inconclusive; 2 cells not run on this host",
      tone: "neutral",
    });
  });

  it("says when measuring stopped because nothing undecided could be decided in the pairs left", () => {
    const report = abRegression();
    report.ab!.sequential!.ended = "futile";
    report.ab!.sequential!.looksTaken = 2;
    expect(endedWords(report)).toBe(
      "after look 2 of 6 (8.9 min of its 10 min budget) no undecided comparison could have been decided in the pairs left: they are inconclusive",
    );
  });

  it("names each row's test and what it could have caught", () => {
    const [first] = abJmhAa().comparisons;
    expect(testWords(first)).toBe("paired t on 6 pairs of forks' means (the fork the unit, 5 iterations a fork)");
    expect(detectableWords(first)).toBe("±3 %");
    expect(detectableWords({ ...first, detectable: undefined })).toBe("nothing: too few pairs");
    expect(testWords({ ...first, test: "signed-rank", pairs: 14 })).toBe("Wilcoxon signed-rank on 14 block pairs");
    expect(testWords({ ...first, test: undefined })).toBe("Mann-Whitney U on the two groups (not paired)");
  });

  it("lists an A/B run in the runs view by its verdict", () => {
    const entry: AbEntry = {
      runId: "ab-1", startedAt: "2026-11-26T08:00:00Z", git: { commit: "abc", branch: "main", dirty: false }, trigger: "pull_request",
      baselineLabel: "main", candidateLabel: "pr", differences: [], aToA: true,
      comparisons: 24, regressions: 0, improvements: 0, inconclusive: 24, unchanged: 0, notMeasured: 1,
    };
    expect(abVerdictWords(entry)).toBe("no verdict: 24 of 24 inconclusive, 1 cell not measured");
    expect(abVerdictWords({ ...entry, regressions: 2, inconclusive: 20, unchanged: 2, notMeasured: 0 })).toBe(
      "2 regressions (0 improvements, 2 unchanged, 20 inconclusive)",
    );
    expect(abVerdictWords({ ...entry, notRun: 4 })).toBe("no verdict: 24 of 24 inconclusive, 1 cell not measured, 4 cells not run on this host");
  });

  it("names cells by the parts of their ids that differ", () => {
    expect(
      differingParts(["debian-25.linux.cpus-2.par-auto.sleep-bound", "debian-25.linux.cpus-2.par-auto.fib-fanout", "debian-21.linux.cpus-2.par-auto.fib-fanout"]),
    ).toEqual(["debian-25 · sleep-bound", "debian-25 · fib-fanout", "debian-21 · fib-fanout"]);
    expect(differingParts(["a.b", "a.b"])).toEqual(["", ""]);
    // an id with one more axis lines up with the others by its parts' keys
    expect(
      differingParts(["debian-25.linux.cpus-1.par-auto.sleep-bound", "debian-25.linux.cpus-1.cpuset-0.par-auto.sleep-bound", "debian-25.linux.cpus-2.par-auto.sleep-bound"]),
    ).toEqual(["cpus-1", "cpus-1 · cpuset-0", "cpus-2"]);
  });
});
