import { describe, expect, it } from "vitest";
import type { RunManifest } from "../src/data/types";
import { earlierAttempts, median, metricOf, points, reproduceCommand, shellWord, telemetry, variantStats } from "../src/shape/cell";
import { sleepBound } from "./fixtures";

const cell = sleepBound();

describe("a cell", () => {
  it("has one point per repetition and variant, from the samples", () => {
    const p = points(cell, "wallMs");
    expect(p).toHaveLength(cell.measurements.reduce((n, m) => n + m.samples.length, 0));
    expect(p[0]).toMatchObject({ variant: "virtual", repetition: 1, value: cell.measurements[0].samples[0].wallMs });
  });

  it("uses the runner's summary for wall time, and a plain median for other metrics", () => {
    const wall = variantStats(cell, "wallMs")[0];
    expect(wall.median).toBe(cell.measurements[0].summary!.median);
    expect(wall.ci).toEqual(cell.measurements[0].summary!.ci95);
    expect(wall.lowerBoundMs).toBe(50);
    const cpu = variantStats(cell, "cpuMs")[0];
    expect(cpu.ci).toBeUndefined();
    expect(cpu.median).toBe(median(cell.measurements[0].samples.map((s) => s.cpuMs as number)));
    expect(metricOf(cell)).toBe("wallMs");
  });

  it("reports carriers and GC as medians over repetitions", () => {
    const t = telemetry(cell.measurements[0]);
    expect(t.carriers).toBe(1);
    expect(t.gcCount).toBe(median(cell.measurements[0].samples.map((s) => s.gcCount as number)));
  });

  it("gives a reproduce command that a shell cannot misread, whatever the matrix path", () => {
    const manifest = {
      matrix: { file: "my matrices/it's.yaml; rm -rf ~", profile: "quick", sha256: "0" },
    } as RunManifest;
    const command = reproduceCommand(manifest, cell);
    expect(command).toBe(
      `./loom-matrix run --matrix 'my matrices/it'\\''s.yaml; rm -rf ~' --profile quick --cell ${cell.cellId}`,
    );
    expect(shellWord("plain-word_1.yaml")).toBe("plain-word_1.yaml");
  });

  it("takes the median of an even count as the mean of the middle two", () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeUndefined();
  });

  it("says when a result needed more than one attempt, and why the earlier ones ended", () => {
    expect(earlierAttempts(cell)).toBeUndefined();
    const retried = structuredClone(cell);
    retried.execution.earlierAttempts = [
      { status: "failed", reason: "Docker engine error: database not open", startedAt: "a", finishedAt: "b" },
      { status: "timeout", startedAt: "c", finishedAt: "d" },
    ];
    expect(earlierAttempts(retried)).toBe(
      "2 before this one: failed — Docker engine error: database not open; timeout",
    );
  });
});
