import { describe, expect, it } from "vitest";
import {
  isService,
  loadRows,
  percentilePoints,
  percentileX,
} from "../src/shape/load";
import { metricOf, unitOf } from "../src/shape/cell";
import { golden } from "../e2e/fixtures";

// A service cell as the runner records it (golden cell-spring-service.json: examples/spring-service in a
// container on JDK 25, 1 CPU, 100 closed-model users, two repetitions per variant): virtual threads against
// Tomcat's pool of 20, each request waiting 300 ms downstream.
const cell = golden("cell-spring-service.json");

describe("a service cell", () => {
  it("is judged by its throughput and carries each repetition's latency distribution", () => {
    expect(isService(cell)).toBe(true);
    expect(metricOf(cell)).toBe("throughputPerSecond");
    expect(unitOf(cell)).toBe("req/s");
    const points = percentilePoints(cell);
    // from the median up: p50 … p99.99 and the maximum, per repetition and variant
    expect(new Set(points.map((p) => p.percentile))).toEqual(
      new Set([50, 75, 90, 95, 99, 99.9, 99.99, 100]),
    );
    expect(points.filter((p) => p.series.startsWith("virtual")).length).toBe(
      2 * 8,
    );
    expect(percentileX(99)).toBeCloseTo(100);
    expect(percentileX(99.9)).toBeCloseTo(1000);
  });

  it("reads the table from the samples: medians, errors summed, the generator's CPU share", () => {
    const rows = loadRows(cell);
    expect(rows.map((r) => r.series)).toEqual([
      "virtual · GET /work(load=users=100)",
      "tomcat-20 · GET /work(load=users=100)",
    ]);
    const [virtual, pool] = rows;
    const medianOf = (variant: string, key: string) => {
      const m = cell.measurements.find((x) => x.variant === variant)!;
      const v = m.samples
        .map((s) => (s as Record<string, number>)[key])
        .sort((a, b) => a - b);
      return (v[0] + v[1]) / 2;
    };
    expect(virtual.throughput).toBeCloseTo(
      medianOf("virtual", "throughputPerSecond"),
    );
    expect(pool.p99).toBeCloseTo(medianOf("tomcat-20", "latencyP99Ms"));
    // a pool of 20 holding each request 300 ms: at most 66.7/s (Little's law); 100 users wait in its queue
    expect(pool.throughput!).toBeLessThanOrEqual(20 / 0.3);
    expect(pool.p99!).toBeGreaterThan(1000);
    expect(virtual.throughput!).toBeGreaterThan(4 * pool.throughput!);
    expect(virtual.errors).toEqual({});
    // a service of the user's own: no bound is known for it, so none is shown
    expect(pool.bound).toBeUndefined();
    // oha on its own CPU, barely busy: far from the saturation that would invalidate the cell
    expect(virtual.generatorCpus).toBe(1);
    expect(virtual.generatorCpuShare!).toBeGreaterThan(0);
    expect(virtual.generatorCpuShare!).toBeLessThan(0.5);
  });
});
