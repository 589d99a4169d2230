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
// container on JDK 25, 1 CPU, 100 closed-model users, two repetitions per variant, latencies from an
// HdrHistogram of every answered request): virtual threads against Tomcat's pool of 20, each request waiting
// 300 ms downstream.
const cell = golden("cell-spring-service.json");

describe("a service cell", () => {
  it("is judged by its throughput and carries each repetition's latency distribution", () => {
    expect(isService(cell)).toBe(true);
    expect(metricOf(cell)).toBe("throughputPerSecond");
    expect(unitOf(cell)).toBe("req/s");
    const points = percentilePoints(cell);
    // from the median up, HdrHistogram's percentile distribution (5 ticks per half distance, so denser toward
    // the tail) with the named percentiles and the maximum, for each repetition and variant
    const percentiles = new Set(points.map((p) => p.percentile));
    for (const p of [50, 90, 99, 99.9, 100]) expect(percentiles).toContain(p);
    expect([...percentiles].every((p) => p >= 50 && p <= 100)).toBe(true);
    expect([...percentiles].filter((p) => p >= 99 && p < 100).length).toBeGreaterThanOrEqual(5);
    const virtual = points.filter((p) => p.series.startsWith("virtual"));
    expect(new Set(virtual.map((p) => p.repetition))).toEqual(new Set([1, 2]));
    expect(virtual.length).toBeGreaterThan(2 * 20);
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
