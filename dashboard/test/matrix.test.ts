import { describe, expect, it } from "vitest";
import { defaultMetric, defaultVariant, shapeMatrix, variantsOf } from "../src/shape/matrix";
import { disturbedFigure } from "../src/shape/cell";
import { massStart, sleepBound, variant } from "./fixtures";

const sb = sleepBound();
const ms = massStart();
const cells = [
  sb,
  variant(sb, { cpus: 2 }),
  variant(sb, { cpus: 2, parallelism: "1" }),
  variant(sb, { jdk: "debian-25", version: 25 }, { status: "failed", reason: "exit code 137 (SIGKILL)", measurements: [], environment: undefined, speedups: [] }),
  variant(sb, { jdk: "debian-25", version: 25, cpus: 2 }, { environment: { ...sb.environment!, attested: false } }),
  ms,
];

describe("the matrix", () => {
  const shape = shapeMatrix(cells, { workload: "sleep-bound", metric: "speedup", variant: "pool:100" });

  it("puts JDK × VM × OS in rows and CPU limit × scheduler in columns", () => {
    expect(shape.rows).toEqual(["debian-21 · hotspot 21 · linux", "debian-25 · hotspot 25 · linux"]);
    expect(shape.cpus).toEqual(["1 CPU", "2 CPUs"]);
    // only parallelism varies, so only parallelism labels the columns
    expect(shape.schedulers).toEqual(["parallelism 1", "parallelism auto"]);
    expect(shape.fixedScheduler).toEqual(["maxPoolSize auto", "minRunnable auto"]);
    expect(shape.tiles).toHaveLength(5);
  });

  it("colours a tile by the recorded speedup of virtual over the chosen variant", () => {
    const tile = shape.tiles.find((t) => t.cellId === sb.cellId)!;
    const recorded = sb.speedups!.find((s) => s.variant === "pool:100")!;
    expect(tile.value).toBe(recorded.ratio);
    expect(tile.ci).toEqual(recorded.ci95);
    expect(shape.domain[0]).toBeCloseTo(1 / shape.domain[1]);
    expect(shape.domain[1]).toBeGreaterThanOrEqual(recorded.ratio);
  });

  it("marks failed, unattested and unstable cells, and gives a failed cell no number", () => {
    const byJdk = (jdk: string, cpus: string) => shape.tiles.find((t) => t.row.startsWith(jdk) && t.cpus === cpus)!;
    const failed = byJdk("debian-25", "1 CPU");
    expect(failed.marks).toEqual(["failed"]);
    expect(failed.value).toBeUndefined();
    expect(failed.reason).toContain("SIGKILL");
    expect(byJdk("debian-25", "2 CPUs").marks).toContain("unattested");
    // the golden sleep-bound cell's virtual variant has a CV of 14 %: unstable
    expect(shape.tiles.find((t) => t.cellId === sb.cellId)!.marks).toEqual(["unstable"]);
  });

  it("colours by efficiency against the lower bound when asked", () => {
    const eff = shapeMatrix(cells, { workload: "sleep-bound", metric: "efficiency", variant: "virtual" });
    expect(eff.domain).toEqual([0, 1]);
    expect(eff.tiles.find((t) => t.cellId === sb.cellId)!.value).toBe(sb.measurements.find((m) => m.variant === "virtual")!.efficiency);
  });

  it("shows every workload at once, each against its own default variant", () => {
    const all = shapeMatrix(cells, { workload: "all", metric: "speedup" });
    expect(all.workloads).toEqual(["mass-start", "sleep-bound"]);
    const mass = all.tiles.find((t) => t.workload === "mass-start")!;
    expect(mass.value).toBe(ms.speedups!.find((s) => s.variant === "platform")!.ratio);
  });

  it("filters by JDK", () => {
    const tiles = shapeMatrix(cells, { workload: "all", metric: "speedup", jdk: "debian-25" }).tiles;
    expect(tiles).toHaveLength(cells.filter((c) => c.coordinates.jdk === "debian-25").length);
    expect(new Set(tiles.map((t) => t.row))).toEqual(new Set(["debian-25 · hotspot 25 · linux"]));
  });

  it("chooses sensible defaults: platform threads to compare with, virtual for the bound", () => {
    expect(variantsOf(cells, "mass-start")).toEqual(["virtual", "platform"]);
    expect(defaultMetric(cells, "sleep-bound")).toBe("headline");
    expect(defaultMetric(cells.map((c) => ({ ...c, contrast: undefined })), "sleep-bound")).toBe("speedup");
    expect(defaultVariant(cells, "mass-start", "speedup")).toBe("platform");
    expect(defaultVariant(cells, "sleep-bound", "speedup")).toBe("pool:100");
    expect(defaultVariant(cells, "sleep-bound", "efficiency")).toBe("virtual");
    const pinning = [variant(sb, { workload: "pinning" }, {
        measurements: [{ ...sb.measurements[0], variant: "synchronized" }],
        execution: { ...sb.execution, variantOrder: ["synchronized"] },
        contrast: undefined,
      }),
    ];
    expect(defaultMetric(pinning, "pinning")).toBe("efficiency");
  });
});

describe("a skipped cell", () => {
  // as runs before the fix wrote it: one sample of a few milliseconds, "2.05 CPUs of other work"
  const skipped = variant(
    sb,
    { jdk: "temurin-21", version: 21 },
    {
      status: "skipped",
      reason: "no hotspot JDK 21 on this host (found: hotspot 25)",
      measurements: [],
      environment: undefined,
      speedups: [],
      execution: {
        ...sb.execution,
        interference: {
          source: "the host's /proc/stat against the cell's process group",
          everyMs: 500,
          otherCpusMean: 2.05,
          otherCpusMax: 2.05,
          thresholdCpus: 0.25,
          series: [{ ms: 4, otherCpus: 2.05 }],
          disturbed: "measured beside 2.05 CPUs of other work (mean over the cell, at most 2.05; flagged from 0.25)",
        },
      },
    },
  );

  it("is marked skipped and never disturbed: it was not measured", () => {
    const tile = shapeMatrix([sb, skipped], { workload: "sleep-bound", metric: "speedup", variant: "pool:100" }).tiles.find(
      (t) => t.cellId === skipped.cellId,
    )!;
    expect(tile.marks).toEqual(["skipped"]);
    expect(disturbedFigure(skipped)).toBeUndefined();
  });

  it("does not hide the mark of a measured cell that was disturbed", () => {
    const loud = variant(sb, { cpus: 4 }, { execution: { ...sb.execution, interference: skipped.execution.interference } });
    expect(disturbedFigure(loud)).toContain("measured beside 2.05 CPUs");
    const tile = shapeMatrix([sb, loud], { workload: "sleep-bound", metric: "speedup", variant: "pool:100" }).tiles.find((t) => t.cellId === loud.cellId)!;
    expect(tile.marks).toContain("disturbed");
  });
});
