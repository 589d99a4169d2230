import { describe, expect, it } from "vitest";
import { change, counts, ordered } from "../src/shape/compare";
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

  it("says the change in percent of the metric", () => {
    expect(change(ordered(report)[0])).toBe("+41.5 % wallMs");
  });
});
