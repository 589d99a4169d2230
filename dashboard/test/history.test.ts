import { describe, expect, it } from "vitest";
import type { IndexEntry, Trends } from "../src/data/types";
import { historyWorkloads, lastPoints, panelDomain, panelY, shapeHeadlines, shapeHistory } from "../src/shape/history";
import { cellIdTitle } from "../src/shape/cell";

const entry = (runId: string, day: number, trigger: string, branch = "main"): IndexEntry => ({
  runId,
  startedAt: `2026-11-${String(day).padStart(2, "0")}T02:00:00Z`,
  status: "finished",
  git: { commit: `c${day}`, branch, dirty: false },
  profile: "full",
  trigger,
  jdks: ["t21"],
  workloads: ["sleep-bound"],
  cells: 2,
  ok: 2,
  failed: 0,
  attested: 2,
});

const index = [entry("r1", 1, "schedule"), entry("r2", 2, "pull_request", "<b>evil</b>"), entry("r3", 3, "schedule")];
const trends: Trends = {
  schemaVersion: 1,
  method: "PELT",
  series: [
    {
      cellId: "t21.linux.cpus-1.par-auto.max-auto.minr-auto.sleep-bound",
      workload: "sleep-bound",
      variant: "virtual",
      metric: "wallMs",
      points: index.map((e, i) => ({ runId: e.runId, startedAt: e.startedAt, median: 100 + i * 50 })),
      changePoints: ["r3"],
    },
    {
      cellId: "t21.linux.cpus-2.par-auto.max-auto.minr-auto.sleep-bound",
      workload: "sleep-bound",
      variant: "virtual",
      metric: "wallMs",
      points: [{ runId: "r3", startedAt: index[2].startedAt, median: 90 }],
      changePoints: [],
    },
  ],
  annotations: [
    { runId: "r3", cellId: "t21.linux.cpus-1.par-auto.max-auto.minr-auto.sleep-bound", kind: "jdk build", from: "21.0.1", to: "21.0.2" },
    { runId: "r2", kind: "runner", from: "a", to: "b" },
  ],
};

describe("history", () => {
  it("joins every point with its run's commit, branch and trigger", () => {
    const shape = shapeHistory(trends, index, {});
    expect(shape.points).toHaveLength(4);
    const pr = shape.points.find((p) => p.runId === "r2")!;
    expect(pr).toMatchObject({ pullRequest: true, branch: "<b>evil</b>", commit: "c2" });
    expect(shape.changes.map((p) => p.runId)).toEqual(["r3"]);
    expect(shape.metric).toBe("wall time");
  });

  it("separates pull-request runs from scheduled ones", () => {
    expect(shapeHistory(trends, index, { trigger: "pull_request" }).points.map((p) => p.runId)).toEqual(["r2"]);
    expect(shapeHistory(trends, index, { trigger: "scheduled" }).points.every((p) => !p.pullRequest)).toBe(true);
  });

  it("draws a runner change in the panel of each cell its run measured, and a JDK build change only in its cell's", () => {
    const shape = shapeHistory(trends, index, {});
    // the runner changed at r2, which measured the 1-CPU cell only: the 2-CPU cell (first run r3) never ran there
    expect(shape.annotations.filter((a) => a.kind === "runner").map((a) => a.cellId)).toEqual([trends.series[0].cellId]);
    expect(shape.annotations.filter((a) => a.kind === "runner").every((a) => a.everyCell)).toBe(true);
    expect(shape.annotations.filter((a) => a.kind === "jdk build")).toHaveLength(1);
    expect(shape.annotations.filter((a) => a.kind === "jdk build").every((a) => !a.everyCell)).toBe(true);
    expect(shapeHistory(trends, index, { cell: trends.series[1].cellId }).annotations).toEqual([]);
    expect(shapeHistory(trends, index, { cell: trends.series[0].cellId }).annotations.map((a) => a.kind).sort()).toEqual(["jdk build", "runner"]);
  });

  it("draws a panel on a log scale where its variants lie more than 20× apart, linear otherwise (#54)", () => {
    const at = (variant: string, median: number, day: number) => ({ ...shapeHistory(trends, index, {}).points[0], variant, median, date: new Date(Date.UTC(2026, 10, day)) });
    const queued = [at("pool:10", 15_000, 1), at("virtual", 30, 1), at("virtual", 200, 2)];
    const y = panelY(queued);
    expect(y.type).toBe("log");
    expect(y.domain[0]).toBeLessThan(30);
    expect(y.domain[0]).toBeGreaterThan(20);
    expect(y.domain[1]).toBeGreaterThan(15_000);
    expect(panelY([at("virtual", 30, 1), at("virtual", 200, 2)]).type).toBe("linear");
    // each series' newest point carries its name
    expect(lastPoints(queued).map((p) => [p.variant, p.median])).toEqual([["pool:10", 15_000], ["virtual", 200]]);
  });

  it("lists the workloads of the whole history", () => {
    expect(historyWorkloads([{ ...index[0], workloads: ["b", "a"] }, index[1]])).toEqual(["a", "b", "sleep-bound"]);
  });
});

describe("a history panel's scale", () => {
  const point = (median: number, ci?: [number, number]) =>
    ({ cellId: "c", variant: "virtual", runId: "r", date: new Date(0), median, ci, commit: "", branch: "", trigger: "schedule", pullRequest: false, changePoint: false });

  it("covers its points and intervals with room on both sides, so no point sits on an axis", () => {
    const [lo, hi] = panelDomain([point(100, [90, 110]), point(120, [115, 140])]);
    // range 90–140 padded by a tenth (5) each side
    expect(lo).toBeCloseTo(85, 10);
    expect(hi).toBeCloseTo(145, 10);
  });

  it("is each panel's own: a fast cell is not flattened by a slow one", () => {
    expect(panelDomain([point(5), point(6)])).toEqual([4.9, 6.1]);
    expect(panelDomain([point(15_000), point(15_100)])[0]).toBeGreaterThan(14_000);
  });

  it("gives a lone run a band around it, and never goes below zero for a non-negative metric", () => {
    const [lo, hi] = panelDomain([point(0.5)]);
    expect(lo).toBeLessThan(0.5);
    expect(hi).toBeGreaterThan(0.5);
    expect(panelDomain([point(0.1, [0, 1])])[0]).toBe(0);
  });
});

describe("the headline over the runs and cells in words (issue #54)", () => {
  it("names a cell id in words, a fractional CPU limit and a cpuset included, and leaves another id as it is", () => {
    expect(cellIdTitle("debian-25.linux.cpus-1.par-auto.max-auto.minr-auto.pool-4")).toBe("pool-4 — debian-25, Linux, 1 CPU, default scheduler");
    expect(cellIdTitle("t21.windows.cpus-1.5.cpuset-0_2-3.par-4.max-auto.minr-2.sleep-bound", false)).toBe(
      "t21, Windows, 1.5 CPUs (cpuset 0,2-3), scheduler parallelism 4, minRunnable 2",
    );
    expect(cellIdTitle("not-a-cell-id")).toBe("not-a-cell-id");
  });

  it("draws each cell's headline as a line named by the cell, its interval kept, a pull request filtered like a variant's", () => {
    const cell = "t21.linux.cpus-2.par-auto.max-auto.minr-auto.sleep-bound";
    const withHeadline: Trends = {
      ...trends,
      headlineSeries: [
        {
          cellId: cell,
          workload: "sleep-bound",
          words: "virtual threads vs the fastest platform-thread variant",
          kind: "speedup",
          points: index.map((e, i) => ({ runId: e.runId, startedAt: e.startedAt, median: 9 - i, ci95: [8.5 - i, 9.5 - i] as [number, number] })),
          changePoints: [],
        },
      ],
    };
    const all = shapeHeadlines(withHeadline, index, {});
    expect(all.kind).toBe("speedup");
    expect(all.points.map((p) => [p.variant, p.median, p.ci])).toEqual([
      ["t21, Linux, 2 CPUs, default scheduler", 9, [8.5, 9.5]],
      ["t21, Linux, 2 CPUs, default scheduler", 8, [7.5, 8.5]],
      ["t21, Linux, 2 CPUs, default scheduler", 7, [6.5, 7.5]],
    ]);
    expect(shapeHeadlines(withHeadline, index, { trigger: "scheduled" }).points.map((p) => p.runId)).toEqual(["r1", "r3"]);
    expect(shapeHeadlines(withHeadline, index, { cell: "another" }).points).toEqual([]);
    expect(shapeHeadlines(trends, index, {}).points).toEqual([]);
  });
});
