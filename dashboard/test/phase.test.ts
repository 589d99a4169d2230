import { describe, expect, it } from "vitest";
import { seriesOf } from "../src/shape/cell";
import { shapeHistory } from "../src/shape/history";
import { shapeMatrix } from "../src/shape/matrix";
import { basis, coldOnly, efficiencyIn, iterationPoints, speedupsIn } from "../src/shape/phase";
import type { Trends } from "../src/data/types";
import { golden } from "../e2e/fixtures";
import { sleepBound } from "./fixtures";

// Issue #18: cold start and steady state. The iterated cell is the runner's golden file, built from a real
// container cell whose 3 forks each ran sleep-bound 2 warmup + 5 measured times.
const iteratedCell = () => golden("cell-sleep-bound-iterated.json");

describe("cold start and steady state", () => {
  const it7 = iteratedCell();
  const once = sleepBound(); // debian-21: its forks ran once

  it("shows the steady-state speedup by default and the cold start's when asked", () => {
    const steady = shapeMatrix([it7], { workload: "sleep-bound", metric: "speedup", variant: "pool:100" }).tiles[0];
    const cold = shapeMatrix([it7], { workload: "sleep-bound", metric: "speedup", variant: "pool:100", phase: "cold-start" }).tiles[0];
    const recorded = (metric: string) => it7.speedups!.find((s) => s.metric === metric)!.ratio;
    expect(steady.value).toBe(recorded("wallMs"));
    expect(cold.value).toBe(recorded("coldStartMs"));
    // the real cell: the pool's head start in creating threads matters less when both are cold
    expect(cold.value!).toBeLessThan(steady.value!);
  });

  it("takes a single cold run as the cold start, and marks it in the steady view only beside iterated cells", () => {
    expect(coldOnly(once)).toBe(true);
    expect(coldOnly(it7)).toBe(false);
    expect(speedupsIn(once, "cold-start")).toEqual(once.speedups);
    expect(speedupsIn(it7, "steady").map((s) => s.metric)).toEqual(["wallMs"]);
    const mixed = shapeMatrix([it7, once], { workload: "sleep-bound", metric: "speedup", variant: "pool:100" });
    expect(mixed.allColdOnly).toBe(false);
    expect(mixed.tiles.find((t) => t.cellId === once.cellId)!.marks).toContain("coldOnly");
    expect(mixed.tiles.find((t) => t.cellId === it7.cellId)!.marks).not.toContain("coldOnly");
    const onlyCold = shapeMatrix([once], { workload: "sleep-bound", metric: "speedup", variant: "pool:100" });
    expect(onlyCold.allColdOnly).toBe(true);
    expect(onlyCold.tiles[0].marks).not.toContain("coldOnly"); // said once, above the matrix
  });

  it("marks a cell whose fork still trended, in the steady view", () => {
    const trending = structuredClone(it7);
    trending.measurements[0].samples[1]["steady"] = false;
    const tile = (phase: "steady" | "cold-start") =>
      shapeMatrix([trending], { workload: "sleep-bound", metric: "speedup", variant: "pool:100", phase }).tiles[0];
    expect(tile("steady").marks).toContain("notSteady");
    expect(tile("cold-start").marks).not.toContain("notSteady");
  });

  it("draws every iteration of every fork with its role", () => {
    const points = iterationPoints(it7, seriesOf);
    expect(points).toHaveLength(2 * 3 * 7);
    const firstFork = points.filter((p) => p.variant === "virtual" && p.fork === 1);
    expect(firstFork.map((p) => p.role)).toEqual(["cold start", "warmup", "measured", "measured", "measured", "measured", "measured"]);
    const virtual = it7.measurements.find((m) => m.variant === "virtual")!;
    expect(firstFork[0].value).toBe(virtual.samples[0]["coldStartMs"]);
    expect(basis(virtual)).toBe("3 forks × 5 iterations (+2 warmup)");
    expect(basis(once.measurements[0])).toBe("3 forks");
  });

  it("gives the cold start its own efficiency against the same bound", () => {
    const virtual = it7.measurements.find((m) => m.variant === "virtual")!;
    expect(efficiencyIn(virtual, "steady")).toBe(virtual.efficiency);
    expect(efficiencyIn(virtual, "cold-start")).toBeCloseTo(virtual.lowerBoundMs! / virtual.coldStart!.median, 12);
  });

  it("history shows the cold-start series or the steady ones, and names the forks' design where it changed", () => {
    const point = (runId: string, median: number) => ({ runId, startedAt: `2026-11-0${runId.slice(1)}T02:00:00Z`, median });
    const base = { cellId: "c", workload: "sleep-bound", variant: "virtual", changePoints: [], unit: "ms" };
    const trends: Trends = {
      schemaVersion: 1,
      method: "PELT",
      annotations: [],
      series: [
        { ...base, metric: "wallMs", points: [point("r1", 500)] },
        { ...base, metric: "wallMs", iterations: "2+5", points: [point("r2", 300)] },
        { ...base, metric: "coldStartMs", points: [point("r1", 500), point("r2", 505)] },
      ],
    };
    const steady = shapeHistory(trends, [], { phase: "steady" });
    expect(steady.points.map((p) => p.variant).sort()).toEqual(["virtual [2 warmup + 5 iterations]", "virtual [one cold run]"]);
    const cold = shapeHistory(trends, [], { phase: "cold-start" });
    expect(cold.points.map((p) => p.median)).toEqual([500, 505]);
    expect(cold.points.every((p) => p.variant === "virtual")).toBe(true);
  });
});
