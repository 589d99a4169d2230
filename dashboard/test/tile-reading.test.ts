import { describe, expect, it } from "vitest";
import { describe as describeTile, readingOf, shapeMatrix, SPEEDUP_DOMAIN, tileText } from "../src/shape/matrix";
import type { CellRecord } from "../src/data/types";
import { golden } from "../e2e/fixtures";
import { massStart, sleepBound } from "./fixtures";

// Issue #19: a reader cannot read a win or a loss into a tile whose data do not show one.

/** The iterated golden cell (attested, stable, steady) with its pool:100 speedup's interval replaced. */
function withInterval(ci: [number, number], ratio: number): CellRecord {
  const cell = golden("cell-sleep-bound-iterated.json");
  cell.speedups = cell.speedups!.map((s) => (s.metric === "wallMs" ? { ...s, ratio, ci95: ci } : s));
  return cell;
}

const tileOf = (cell: CellRecord) =>
  shapeMatrix([cell], { workload: "sleep-bound", metric: "speedup", variant: "pool:100" }).tiles[0];

describe("what a tile may claim", () => {
  it("is neutral when its interval includes 1: echo-server's 0.85× with 0.62–1.09 is no loss", () => {
    const t = tileOf(withInterval([0.62, 1.09], 0.85));
    expect(t.reading).toBe("unclear");
    expect(tileText(t)).toBe("0.85×? n3");
  });

  it("says the conservative end of a win or a loss, and n", () => {
    const win = tileOf(withInterval([1.4, 2.2], 1.8));
    expect(win.reading).toBe("win");
    expect(tileText(win)).toBe("≥ 1.4× n3");
    const loss = tileOf(withInterval([0.5, 0.8], 0.6));
    expect(loss.reading).toBe("loss");
    expect(tileText(loss)).toBe("≤ 0.80× n3");
    // the real recorded interval of this cell: virtual 9.4× pool:100, 9.21–9.55 at 90 %
    expect(tileText(tileOf(golden("cell-sleep-bound-iterated.json")))).toBe("≥ 9.2× n3");
  });

  it("reads a whole interval on one side of 1 as a win or a loss whatever marks the cell carries, and keeps the marks (#31)", () => {
    // the golden sleep-bound cell's virtual variant varies by 14 % (unstable): its interval still clears 1
    const unstable = shapeMatrix([sleepBound()], { workload: "sleep-bound", metric: "speedup", variant: "pool:100" }).tiles[0];
    expect(unstable.marks).toContain("unstable");
    expect(unstable.ci![0]).toBeGreaterThan(1);
    expect(unstable.reading).toBe("win");
    expect(tileText(unstable)).toMatch(/^≥ /);
    expect(describeTile(unstable)).toContain("unstable (a variant's forks vary by more than 10 %)");
    expect(describeTile(unstable)).toMatch(/a win: at least [\d.]+× at the [\d.]+ % level/);
    expect(readingOf("speedup", 3, [2, 4]).reading).toBe("win");
    expect(readingOf("speedup", 0.17, [0.077, 0.255]).reading).toBe("loss");
    expect(readingOf("speedup", 3, undefined).reading).toBe("unclear");
    expect(readingOf("efficiency", 0.9, undefined).reading).toBe("measure");
  });

  it("keeps one colour scale per metric in every view", () => {
    const cells = [golden("cell-sleep-bound-iterated.json"), massStart()];
    const all = shapeMatrix(cells, { workload: "all", metric: "speedup" });
    const one = shapeMatrix(cells, { workload: "sleep-bound", metric: "speedup", variant: "pool:100" });
    expect(all.domain).toEqual(one.domain);
    expect(one.domain).toEqual(SPEEDUP_DOMAIN);
    expect(shapeMatrix(cells, { workload: "all", metric: "efficiency" }).domain).toEqual([0, 1]);
  });
});
