import { describe, expect, it } from "vitest";
import type { CellRecord } from "../src/data/types";
import { boundsOf, capacityLead, capacityVariants, curvePoints, isCapacity } from "../src/shape/capacity";
import { isService } from "../src/shape/load";
import { capacity } from "../src/views/capacity";
import { golden } from "../e2e/fixtures";

// Issue #52's dashboard: a capacity cell says what each variant carries within the objective before the numbers,
// draws each variant's latency against the rate asked with the objective's line, and lists every window with its
// verdict. Built from the runner's golden capacity cell (examples/spring-service's quick profile in containers on
// JDK 25, 1 CPU: a search from 50 to 200 requests/s to 50 % within p99 ≤ 500 ms, two repetitions; virtual threads
// passed at the top of the range, Tomcat's pool of 20 — 66.7 requests/s by Little's law — was bracketed between 50
// and 75).
const record = (): CellRecord => golden("cell-spring-capacity.json");

type Tried = { rate: number; validation: boolean; verdict: string; why: string; latencyP99Ms: number };
type Raw = { capacityPerSecond?: number; capacityOutcome: string; capacityTried: Tried[] };
const samplesOf = (cell: CellRecord, variant: string) =>
  cell.measurements.find((m) => m.variant === variant)!.samples as unknown as Raw[];

describe("a capacity cell", () => {
  it("is told from a fixed-load service cell by the windows its samples keep", () => {
    expect(isCapacity(record())).toBe(true);
    expect(isCapacity(golden("cell-spring-service.json"))).toBe(false);
    expect(isService(golden("cell-spring-service.json"))).toBe(true);
  });

  it("reads the objective's bounds from its words", () => {
    expect(boundsOf("p99 ≤ 500 ms, errors ≤ 0.1 %")).toEqual({ p99: 500 });
    expect(boundsOf("p50 ≤ 80 ms, p99.9 ≤ 1.5 s, max ≤ 2 s, errors ≤ 1 %")).toEqual({ p50: 80, "p99.9": 1500, max: 2000 });
  });

  it("leads with what each variant carries, a lower bound said as one, and the ratio that rests on it", () => {
    const cell = record();
    const [pool] = samplesOf(cell, "tomcat-20").map((s) => s.capacityPerSecond);
    const [virtual] = samplesOf(cell, "virtual").map((s) => s.capacityPerSecond);
    expect(samplesOf(cell, "virtual").every((s) => s.capacityOutcome === "lower bound")).toBe(true);
    expect(capacityLead(capacityVariants(cell), cell.contrast?.subject)).toBe(
      `Within p99 ≤ 500 ms, errors ≤ 0.1 %, virtual carries at least ${virtual} requests/s (it met the objective at the top ` +
        `of the range searched) and tomcat-20 carries ${pool} requests/s (medians over 2 repetitions each). ` +
        `virtual carries at least ${virtual! / pool!}× as much as tomcat-20.`,
    );
  });

  it("says a variant that found none, with why, and leaves it out of the ratio", () => {
    const cell = record();
    const m = cell.measurements.find((x) => x.variant === "tomcat-20")!;
    for (const s of m.samples as unknown as Record<string, unknown>[]) {
      delete s.capacityPerSecond;
      s.capacityOutcome = "failed";
      s.capacityWhy = "it did not meet the objective even at the lowest rate searched, rate=50/s: errors 100 % > 0.1 %";
    }
    m.summary = undefined;
    m.error = "run 1: the capacity search found none (failed)";
    const lead = capacityLead(capacityVariants(cell), "virtual");
    expect(lead).toContain(
      "tomcat-20 found none (failed): it did not meet the objective even at the lowest rate searched, rate=50/s: errors 100 % > 0.1 %.",
    );
    expect(lead).not.toContain("as much as");
  });

  it("draws each window's p50 and p99 against the rate asked, the objective's line and the capacity", () => {
    const cell = record();
    const section = capacity(cell);
    expect(section.querySelector("h2")?.textContent).toBe("Capacity within the objective");
    const figures = [...section.querySelectorAll("figure.capacity-curve")];
    expect(figures).toHaveLength(2);
    for (const f of figures) {
      expect(f.querySelector("svg")).not.toBeNull();
      expect(f.textContent).toContain("objective: p99 ≤ 500 ms");
    }
    const pool = capacityVariants(cell).find((v) => v.variant === "tomcat-20")!;
    const windows = samplesOf(cell, "tomcat-20").flatMap((s) => s.capacityTried);
    // two points a window (p50, p99), each with its verdict in its title
    expect(curvePoints(pool)).toHaveLength(2 * windows.length);
    const titles = [...figures[1].querySelectorAll("title")].map((t) => t.textContent ?? "");
    const failing = windows.find((w) => w.verdict === "fail")!;
    expect(titles).toContain(`repetition 1: ${failing.rate} requests/s asked, p99 ${Math.round(failing.latencyP99Ms).toLocaleString("en-US")} ms (fail)`);
  });

  it("lists every window with its verdict and why, each validation on its fresh server", () => {
    const cell = record();
    const section = capacity(cell);
    const tables = [...section.querySelectorAll("table.capacity-table")];
    const rows = (t: Element) => [...t.querySelectorAll("tbody tr")].map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? ""));
    const poolRows = rows(tables[1]);
    const windows = samplesOf(cell, "tomcat-20").flatMap((s) => s.capacityTried);
    expect(poolRows).toHaveLength(windows.length);
    windows.forEach((w, k) => {
      expect(poolRows[k][1]).toBe(w.validation ? "validation, fresh server" : "search");
      expect(poolRows[k][2]).toBe(`${w.rate}/s`);
      expect(poolRows[k][10]).toBe(w.verdict === "pass" ? "met the objective" : `fail: ${w.why}`);
    });
    expect(section.querySelectorAll("ul.capacity-outcomes li")[2].textContent).toBe(
      "repetition 1: bracketed — it met the objective at rate=50/s, again on a fresh server, and not at rate=75/s (p99 584 ms > 500 ms)",
    );
  });
});
