import { describe, expect, it } from "vitest";
import { contrastsOf, defaultMetric, describe as describeTile, headlineOf, headlineSentence, shapeMatrix, tileAgainst, tileText } from "../src/shape/matrix";
import type { CellRecord } from "../src/data/types";
import { golden } from "../e2e/fixtures";

// Issue #19: each workload's declared headline contrast, shown the same in every view. The cells are the
// runner's golden records from real runs: pinning in containers on JDK 21 and 25 (2 CPUs, 16 virtual threads
// sleeping 50 ms under a lock), seed 002 at its scale, http-server and fib-fanout from a quick run.

const pinning21 = (): CellRecord => golden("cell-pinning-21.json");
const pinning25 = (): CellRecord => golden("cell-pinning-25.json");

describe("the headline contrast", () => {
  it("is the default colouring wherever cells carry one", () => {
    expect(defaultMetric([pinning21(), pinning25()], "pinning")).toBe("headline");
    expect(defaultMetric([pinning21(), golden("cell-http-server.json")], "all")).toBe("headline");
  });

  it("shows the pinning penalty on JDK 21 as a loss against reentrant-lock, and none on JDK 25 (JEP 491)", () => {
    const [t21, t25] = shapeMatrix([pinning21(), pinning25()], { workload: "pinning", metric: "headline" }).tiles;
    expect(t21.subject).toBe("synchronized");
    expect(t21.against).toBe("reentrant-lock");
    expect(t21.reading).toBe("loss");
    // 403 ms against 51 ms: synchronized runs at 0.127× (90 % CI 0.127–0.128)
    expect(tileText(t21)).toBe("≤ 0.13× n3");
    expect(tileAgainst(t21)).toBe("vs reentrant-lock");
    expect(headlineSentence(t21)).toMatch(/^synchronized runs at 0\.127× the speed of reentrant-lock \(90 % interval 0\.127–0\.128\) over 3 forks: slower — at most 0\.128× at the 90 % level, so reentrant-lock is at least 7\.\d\d× faster\.$/);
    // JDK 25: 1.002× with 0.9996–1.004: the interval includes 1, so no verdict either way
    expect(t25.reading).toBe("unclear");
    expect(tileText(t25)).toBe("1.0×? n3");
    expect(headlineSentence(t25)).toContain("no win or loss the data can show (the interval includes 1×)");
  });

  it("never shows pinning as its efficiency, which reads 99 % for the pinned variant", () => {
    const t = shapeMatrix([pinning21()], { workload: "pinning", metric: "headline" }).tiles[0];
    expect(t.kind).toBe("speedup");
    expect(pinning21().measurements.find((m) => m.variant === "synchronized")!.efficiency).toBeGreaterThan(0.95);
  });

  it("compares with the declared comparator: the cell's fastest platform-thread variant, named on the tile", () => {
    const cell = golden("cell-sleep-bound-seed-scale.json");
    expect(cell.contrast!.reference).toBe("pool:1000");
    const t = headlineOf(cell)!;
    expect(t.against).toBe("pool:1000");
    // 9.6× against pool:1000 (3.1 s), not the 46× against pool:200 (15 s)
    expect(t.value).toBeCloseTo(9.62, 2);
    expect(tileText(t)).toBe("≥ 9.4× n3");
    expect(tileAgainst(t)).toBe("vs pool:1000");
    expect(describeTile(t)).toContain("virtual threads vs the fastest platform-thread variant");
  });

  it("is the same comparator in the cold start", () => {
    const t = headlineOf(golden("cell-sleep-bound-seed-scale.json"), "cold-start")!;
    expect(t.against).toBe("pool:1000");
    expect(t.value).toBeCloseTo(7.21, 2);
  });

  it("measures http-server against its Little's-law bound, not a pool capped by it", () => {
    const cell = golden("cell-http-server.json");
    const t = headlineOf(cell)!;
    expect(t.kind).toBe("efficiency");
    expect(t.reading).toBe("measure");
    // the median of its 3 forks' throughput over the bound (2,906 of 4,000 req/s was the first)
    const forks = cell.measurements.find((m) => m.variant === "virtual")!.samples.map((s) => s.throughputEfficiency as number);
    expect(t.value).toBe([...forks].sort()[1]);
    expect(tileText(t)).toBe("70%");
    expect(tileAgainst(t)).toBe("of its bound");
    expect(headlineSentence(t)).toMatch(/^virtual reaches 70 % of its bound over 3 forks/);
  });

  it("contrasts fib-fanout's caller-virtual with sequential, as declared", () => {
    const t = headlineOf(golden("cell-fib-fanout.json"))!;
    expect([t.subject, t.against]).toEqual(["caller-virtual", "sequential"]);
    expect(contrastsOf([golden("cell-fib-fanout.json"), pinning21()], ["fib-fanout", "pinning"]).map((c) => c.workload)).toEqual([
      "fib-fanout",
      "pinning",
    ]);
  });

  it("has no headline on a record written before contrasts, and the matrix falls back to a speedup", () => {
    const { contrast: _gone, ...old } = pinning21();
    expect(headlineOf(old as CellRecord)).toBeUndefined();
    expect(defaultMetric([old as CellRecord], "pinning")).not.toBe("headline");
  });
});
