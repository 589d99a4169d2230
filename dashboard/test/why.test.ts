import { describe, expect, it } from "vitest";
import { cpuDifferential, cpuShares, whyRows } from "../src/shape/cell";
import { golden } from "../e2e/fixtures";

// Issue #20: the why panel's shaping on the runner's golden records of real profiled cells — pinning with JFR on
// JDK 21 and 25 (2 CPUs, 16 virtual threads sleeping 50 ms under a lock) and fib-fanout with flame graphs on 25.

describe("the why panel", () => {
  it("puts each variant's profiling run side by side: JDK 21's synchronized pinned 64 times at Pinning.sleep", () => {
    const { variants, rows } = whyRows(golden("cell-pinning-21-profiled.json"));
    expect(variants).toEqual(["synchronized", "reentrant-lock"]);
    const row = (label: string) => rows.find((r) => r.label.startsWith(label))!.values;
    expect(row("virtual threads pinned")[0]).toMatch(/^64 times, 3,\d{3} ms in all$/);
    expect(row("virtual threads pinned")[1]).toBe("never");
    expect(row("pinned at")[0]).toMatch(/^Pinning\.sleep:\d+ ×64/);
    expect(whyRows(golden("cell-pinning-25-profiled.json")).rows[0].values).toEqual(["never", "never"]);
  });

  it("says how async-profiler sampled and where the CPU went, with the engine in words", () => {
    const { rows } = whyRows(golden("cell-fib-fanout-flame.json"));
    const flame = rows.find((r) => r.label.startsWith("flame graphs"))!.values;
    expect(flame[0]).toMatch(/^\d+ CPU samples \(ctimer: a timer, as the cell may not open perf events\), \d+ wall-clock samples$/);
  });

  it("never says a share of a handful of samples as a percentage, and counts with thousands separators (#31)", () => {
    expect(cpuShares(6, [{ frame: "a.B", count: 4 }, { frame: "c.D", count: 2 }])).toBe("6 samples: a.B ×4; c.D ×2 — too few for shares");
    expect(cpuShares(633, [{ frame: "a.B", count: 234 }])).toBe("633 samples: a.B 37 % (234)");
    const pinned = whyRows(golden("cell-pinning-21-profiled.json")).rows.find((r) => r.label.startsWith("virtual threads pinned"))!;
    expect(pinned.label).toBe("virtual threads pinned (JFR)");
  });

  it("contrasts the headline's two variants method by method, the largest differences first", () => {
    const cell = golden("cell-fib-fanout-flame.json");
    const d = cpuDifferential(cell)!;
    // fib-fanout's headline: caller-virtual against sequential
    expect([d.subject, d.reference]).toEqual(["caller-virtual", "sequential"]);
    expect(Math.min(...d.samples)).toBeGreaterThan(50);
    const fib = d.rows.find((r) => r.frame.startsWith("FibFanout.fibonacci"))!;
    expect(fib.subject).toBeGreaterThan(0.4);
    expect(fib.reference).toBeGreaterThan(0.4);
    const diffs = d.rows.map((r) => Math.abs(r.difference));
    expect(diffs).toEqual([...diffs].sort((a, b) => b - a));
    // a share is of its own variant's samples: the listed ones of a side sum to at most 1
    expect(d.rows.reduce((n, r) => n + (r.subject ?? 0), 0)).toBeLessThanOrEqual(1);
  });

  it("has no differential without two profiled variants", () => {
    expect(cpuDifferential(golden("cell-sleep-bound.json"))).toBeUndefined();
  });
});
