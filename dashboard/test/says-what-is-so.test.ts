import { describe, expect, it } from "vitest";
import { shapeMatrix } from "../src/shape/matrix";
import { basis, coldOnly, forkRun, phaseNote, speedupsIn } from "../src/shape/phase";
import { ratioTicks, rowLabels } from "../src/shape/compare";
import { comparedWords } from "../src/shape/run";
import { ratioInterval, thresholdMarks } from "../src/ui/format";
import { utcTicks } from "../src/ui/format";
import type { Comparison } from "../src/data/types";
import { golden } from "../e2e/fixtures";
import { sleepBound } from "./fixtures";

// Issue #31: the dashboard read with JMH suites, inconclusive verdicts and long names says what the data say.

describe("what each kind of fork ran", () => {
  const jmh = golden("cell-jmh-blocking.json"); // a real container cell: JMH's 3 measurement iterations a fork
  const service = golden("cell-spring-service.json");
  const iterated = golden("cell-sleep-bound-iterated.json");
  const once = sleepBound();

  it("never calls a JMH score a cold start", () => {
    expect(jmh.measurements.map(forkRun)).toEqual(["jmh", "jmh"]);
    expect(coldOnly(jmh)).toBe(false);
    expect(phaseNote([jmh], "steady")).toContain("JMH's score over its measurement iterations after its warmup iterations");
    expect(phaseNote([jmh], "steady")).not.toContain("cold start");
    expect(basis(jmh.measurements[0])).toMatch(/^3 forks × \d+ JMH iterations$/);
    // the cold-start view has nothing of a JMH cell to show, rather than its steady-state numbers again
    expect(speedupsIn(jmh, "cold-start")).toEqual([]);
    expect(shapeMatrix([jmh], { workload: jmh.coordinates.workload, metric: "speedup", phase: "cold-start" }).tiles[0].value).toBeUndefined();
    expect(phaseNote([jmh, iterated], "cold-start")).toContain("JMH benchmarks measured no cold start apart");
  });

  it("tells services, built-in iterations and single runs apart", () => {
    expect(service.measurements.every((m) => forkRun(m) === "service")).toBe(true);
    expect(iterated.measurements.every((m) => forkRun(m) === "iterated")).toBe(true);
    expect(once.measurements.every((m) => forkRun(m) === "once")).toBe(true);
    expect(phaseNote([once], "steady")).toMatch(/^Every JVM of this run ran its workload once/);
    expect(speedupsIn(once, "cold-start").length).toBeGreaterThan(0); // its one run is its cold start
  });
});

describe("numbers that keep their meaning", () => {
  it("gives an interval the digits that tell it from 1", () => {
    expect(ratioInterval(1.003, 1.0089)).toBe("1.003–1.009");
    expect(ratioInterval(0.95, 1.2)).toBe("0.95–1.2");
    expect(ratioInterval(0.9991, 0.99995)).toBe("0.9991–0.99995");
    // an end just inside the threshold never reads as the threshold (issue #54's A/A row: 1.0993 as "1.1")
    expect(ratioInterval(1.0101, 1.0993, thresholdMarks(0.1))).toBe("1.01–1.099");
    expect(ratioInterval(1.0101, 1.0993)).toBe("1.01–1.1");
  });

  it("leads a run's comparison with the verdict reached", () => {
    expect(comparedWords({ baseline: "r1", regressions: 0, improvements: 0, inconclusive: 24 })).toBe(
      "no verdict: 24 inconclusive (0 regressions, 0 improvements)",
    );
    expect(comparedWords({ baseline: "r1", regressions: 1, improvements: 0, inconclusive: 2 })).toBe("1 regression, 0 improvements; no verdict on 2 (inconclusive)");
    expect(comparedWords({ baseline: "r1", regressions: 0, improvements: 2, inconclusive: 0 })).toBe("0 regressions, 2 improvements");
  });

  it("labels the compare plot's rows by what tells them apart, and its axis beyond 1", () => {
    const row = (cellId: string, variant: string, benchmark?: string) => ({ cellId, variant, benchmark }) as Comparison;
    const rows = [
      row("debian-25.linux.cpus-2.par-auto.max-auto.minr-auto.sleep-bound", "virtual"),
      row("debian-25.linux.cpus-2.par-auto.max-auto.minr-auto.primes-io", "pool:cpus"),
      row("debian-21.linux.cpus-2.par-auto.max-auto.minr-auto.primes-io", "virtual", "example.blocking.BlockingServiceBenchmark.threadsByParam(poolSize=50)"),
    ];
    const labels = rowLabels(rows, (b) => b.split(".").slice(-2).join("."));
    expect(labels.get(rows[0])).toBe("virtual · debian-25 · sleep-bound");
    expect(labels.get(rows[2])).toBe("virtual · BlockingServiceBenchmark.threadsByParam(poolSize=50) · debian-21 · primes-io");
    const ticks = ratioTicks(0.9, 1.3, 0.03, 900);
    expect(ticks).toContain(1);
    // the threshold's band on the log scale: 1 ÷ 1.03 below, 1.03 above (the verdict's rule)
    expect(ticks).toContain(1 / 1.03);
    expect(ticks).toContain(1.03);
    expect(ticks.length).toBeGreaterThan(3);
    // a narrow plot: the threshold's ticks would sit on "1 (no change)"; the axis label names the band instead
    expect(ratioTicks(0.72, 1.54, 0.03, 480)).toEqual([0.72, 1, 1.54]);
  });

  it("reads the history's time on a 24-hour clock", () => {
    const at = new Date(Date.UTC(2026, 10, 25, 20, 11));
    expect(utcTicks(3600_000)(at)).toBe("20:11");
    // runs minutes apart: ticks a few seconds apart must not all read the same minute
    expect(utcTicks(5 * 60_000)(new Date(Date.UTC(2026, 10, 25, 10, 58, 15)))).toBe("10:58:15");
    expect(utcTicks(5 * 60_000)(new Date(Date.UTC(2026, 10, 25, 10, 58, 30)))).toBe("10:58:30");
    expect(utcTicks(10 * 86_400_000)(at)).toBe("Nov 25 20:11");
    expect(utcTicks(10 * 86_400_000)(new Date(Date.UTC(2026, 10, 25)))).toBe("Nov 25");
  });
});
