import { describe, expect, it } from "vitest";
import { metricOf, points, seriesOf, shortBenchmark, unitOf, variantStats } from "../src/shape/cell";
import { defaultMetric, defaultVariant, shapeMatrix } from "../src/shape/matrix";
import { userJmh, variant } from "./fixtures";

// A user's JMH benchmark as the runner records it (golden cell-jmh-blocking.json, from a real container
// run of examples/jmh-blocking): the score in JMH's unit, one measurement per variant and benchmark, the
// speedups over the entry's baseline.

const cell = userJmh();

describe("a user workload's cell", () => {
  it("is judged by the JMH score, in JMH's unit", () => {
    expect(metricOf(cell)).toBe("score");
    expect(unitOf(cell)).toBe("ms/op");
  });

  it("names each series by variant and benchmark, with the shared @Param values and without the package", () => {
    expect(cell.measurements.map(seriesOf)).toEqual([
      "virtual · BlockingServiceBenchmark.threadsByParam(poolSize=50, requests=100)",
      "platform · BlockingServiceBenchmark.threadsByParam(poolSize=50, requests=100)",
    ]);
    expect(shortBenchmark("a.b.C.m")).toBe("C.m");
    expect(shortBenchmark("C.m")).toBe("C.m");
  });

  it("uses the runner's summary of the score, and a point per fresh JVM", () => {
    const stats = variantStats(cell, "score");
    expect(stats[0].median).toBe(cell.measurements[0].summary!.median);
    expect(stats[0].ci).toEqual(cell.measurements[0].summary!.ci95);
    expect(points(cell, "score")).toHaveLength(6);
  });

  it("colours the matrix by the chosen variant over the baseline", () => {
    const cells = [cell, variant(cell, { cpus: 2 })];
    const workload = cell.coordinates.workload;
    // the entry's headline (virtual over the baseline, as it declares none) is the default view ...
    expect(defaultMetric(cells, workload)).toBe("headline");
    const headline = shapeMatrix(cells, { workload, metric: "headline" }).tiles[0];
    expect([headline.subject, headline.against, headline.contrast]).toEqual(["virtual", "platform", "virtual vs the baseline platform"]);
    // ... and a record written before contrasts falls back to the speedup over the baseline
    expect(defaultMetric(cells.map((c) => ({ ...c, contrast: undefined })), workload)).toBe("speedup");
    expect(defaultVariant(cells, workload, "speedup")).toBe("virtual");
    const shape = shapeMatrix(cells, { workload, metric: "speedup", variant: "virtual" });
    const speedup = cell.speedups!.find((s) => s.variant === "platform" && s.over === "virtual")!;
    expect(shape.tiles[0].value).toBe(speedup.ratio);
    expect(shape.tiles[0].value).toBeGreaterThan(3);
    expect(headline.value).toBe(speedup.ratio);
  });
});
