import { describe, expect, it } from "vitest";
import type { CellRecord } from "../src/data/types";
import { loadRows } from "../src/shape/load";
import { cutSentence, leadSentences, modelSentences } from "../src/shape/underload";
import { underLoad } from "../src/views/underload";
import { golden } from "../e2e/fixtures";

// Issue #51, "Tail latency is never a conclusion": the cell view's "Under load" section says what its numbers mean
// before them, the load model the cell ran, the requests the window's end cut, and no empty bound column. Built
// from the runner's golden service cell (examples/spring-service on JDK 25, 1 CPU, closed model of 100 users, two
// repetitions: virtual threads against Tomcat's pool of 20, each request waiting 300 ms downstream).
const record = (): CellRecord => golden("cell-spring-service.json");

type Raw = Record<string, number>;
const samplesOf = (cell: CellRecord, variant: string) => cell.measurements.find((m) => m.variant === variant)!.samples as unknown as Raw[];
/** The median of two repetitions, from the record's raw samples (the golden cell has two a variant). */
const median2 = (cell: CellRecord, variant: string, key: string) => {
  const [a, b] = samplesOf(cell, variant).map((s) => s[key]);
  return (a + b) / 2;
};
/** The numbers a sentence says, in order ("4,686 req/s" → 4686, "4.91×" → 4.91), not those in names ("tomcat-20"). */
const numbersIn = (text: string) => [...text.matchAll(/(?<![\w-])\d[\d,]*(?:\.\d+)?/g)].map((m) => Number(m[0].replaceAll(",", "")));

/** The section as a user reads it: the table's header and each row's cells by header. */
function rendered(cell: CellRecord) {
  const section = underLoad(cell);
  const headers = [...section.querySelectorAll("table.load-table th")].map((th) => th.textContent ?? "");
  const rows = [...section.querySelectorAll("table.load-table tbody tr")].map((tr) => {
    const cells = [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "");
    return Object.fromEntries(headers.map((h, k) => [h, cells[k]]));
  });
  return { section, headers, rows };
}

describe("the Under-load section's lead", () => {
  it("says who served the most and who had the lowest p99, with the record's medians", () => {
    const cell = record();
    const [lead] = leadSentences(loadRows(cell));
    expect(lead).toBe(
      "virtual served the most, 319 req/s, 4.91× tomcat-20's 65 req/s, and had the lowest p99, 381 ms, against 3,980 ms for tomcat-20 " +
        "(medians over 2 repetitions each).",
    );
    // each number is the record's own median, rounded as shown
    const [served, ratio, pool, p99, poolP99, repetitions] = numbersIn(lead);
    expect(served).toBe(Math.round(median2(cell, "virtual", "throughputPerSecond")));
    expect(pool).toBe(Math.round(median2(cell, "tomcat-20", "throughputPerSecond")));
    expect(ratio).toBeCloseTo(median2(cell, "virtual", "throughputPerSecond") / median2(cell, "tomcat-20", "throughputPerSecond"), 2);
    expect(p99).toBe(Math.round(median2(cell, "virtual", "latencyP99Ms")));
    expect(poolP99).toBe(Math.round(median2(cell, "tomcat-20", "latencyP99Ms")));
    expect(repetitions).toBe(2);
    // no class words: those are the conclusions' to say
    expect(lead).not.toMatch(/pays off|hurts|no difference|cannot tell|win|better/);
  });

  it("says the true order when one variant serves the most and another has the lowest p99", () => {
    // a third variant from the record's virtual repetitions: 20 % more served, a p99 half as long again
    const cell = record();
    const fast = structuredClone(cell.measurements.find((m) => m.variant === "virtual")!);
    fast.variant = "webflux";
    for (const s of fast.samples as unknown as Raw[]) {
      s.throughputPerSecond *= 1.2;
      s.latencyP99Ms *= 1.5;
    }
    cell.measurements.push(fast);
    const [lead] = leadSentences(loadRows(cell));
    expect(lead).toBe(
      "webflux served the most, 383 req/s, 1.2× virtual's 319 req/s, the next most; " +
        "virtual had the lowest p99, 381 ms, against 571 ms for webflux, the next lowest (medians over 2 repetitions each).",
    );
  });

  it("leaves out a variant whose numbers are not a result, and says so", () => {
    const cell = record();
    cell.measurements[1].error = "invalid: the load generator was saturated at users=100";
    const [lead] = leadSentences(loadRows(cell));
    expect(lead).toBe(
      "virtual is the only variant with a result: 319 req/s, p99 381 ms (medians over 2 repetitions each). " +
        "tomcat-20 is left out: its numbers are not a result (see the table).",
    );
  });
});

describe("the load model the cell ran", () => {
  it("explains the closed model of a users= level, and no coordinated-omission correction", () => {
    const rows = loadRows(record());
    expect(rows.map((r) => r.load)).toEqual(["users=100", "users=100"]);
    const words = modelSentences(rows).join(" ");
    expect(words).toMatch(/^The load was a closed model: 100 users, each sending its next request as soon as its last was answered\./);
    expect(words).toContain("latency runs from when it was sent");
    expect(words).toContain("no correction for coordinated omission applies");
    expect(words).not.toMatch(/open model|when it was due/);
    expect(rendered(record()).section.querySelector(".load-model")?.textContent).toBe(words);
  });

  it("explains an open model where the level is a rate, and leads with its p99", () => {
    const cell = record();
    for (const m of cell.measurements) m.benchmark!.params = { load: "rate=300/s" };
    const rows = loadRows(cell);
    const words = modelSentences(rows).join(" ");
    expect(words).toMatch(/^The load was an open model at 300 requests\/s: /);
    expect(words).toContain("from when it was due (coordinated omission corrected)");
    expect(words).not.toContain("closed");
    expect(leadSentences(rows)[0]).toMatch(/^virtual had the lowest p99, 381 ms, against 3,980 ms for tomcat-20, and served the most, 319 req\/s/);
  });

  it("leads each rate of an open model's curve with its own sentence", () => {
    const cell = record();
    const second = structuredClone(cell.measurements).map((m) => ({ ...m, benchmark: { ...m.benchmark!, params: { load: "rate=400/s" } } }));
    for (const m of cell.measurements) m.benchmark!.params = { load: "rate=200/s" };
    // at the higher rate the pool's p99 is the lower one
    for (const s of second.find((m) => m.variant === "virtual")!.samples as unknown as Raw[]) s.latencyP99Ms *= 20;
    cell.measurements.push(...second);
    const rows = loadRows(cell);
    expect(modelSentences(rows)[0]).toMatch(/^The load was an open model at 200 and 400 requests\/s: /);
    const leads = leadSentences(rows);
    expect(leads).toHaveLength(2);
    expect(leads[0]).toMatch(/^At 200 requests\/s: virtual had the lowest p99, 381 ms, against 3,980 ms for tomcat-20, and served the most/);
    expect(leads[1]).toMatch(/^At 400 requests\/s: tomcat-20 had the lowest p99, 3,980 ms, against 7,619 ms for virtual; virtual served the most/);
  });
});

describe("the requests cut at the window's end", () => {
  it("shows each variant's count and its share of the requests sent, the medians over the repetitions", () => {
    const cell = record();
    const { headers, rows } = rendered(cell);
    expect(headers).toContain("cut at the window's end");
    // 100 in flight at the end of each repetition (one a user); virtual sent 2,563 + 100 and 2,545 + 100
    const share = (variant: string) => {
      const [a, b] = samplesOf(cell, variant).map((s) => s.cutAtDeadline / (s.answered + s.errors + s.cutAtDeadline));
      return (a + b) / 2;
    };
    expect(share("virtual")).toBeCloseTo(0.0377, 4);
    expect(share("tomcat-20")).toBeCloseTo(0.1613, 4);
    expect(rows.map((r) => r["cut at the window's end"])).toEqual(["100 (3.8 %)", "100 (16 %)"]);
  });

  it("says so in a sentence where a share is 1 % or more, largest first", () => {
    const cell = record();
    expect(cutSentence(loadRows(cell))).toBe(
      "When a repetition's window closed, the requests still in flight were cut, at most one a user (medians over the repetitions): " +
        "100 of tomcat-20's requests (16 % of those it sent) and 100 of virtual's (3.8 %). The throughput counts answers and the " +
        "percentiles answered requests, so both leave them out; a longer window makes their share smaller.",
    );
    expect(rendered(cell).section.querySelector(".load-cut")?.textContent).toContain("100 of tomcat-20's requests (16 %");
    // one request cut of 2,564 sent (0.04 %) and of 521 (0.19 %): nothing material to say
    for (const m of cell.measurements) for (const s of m.samples as unknown as Raw[]) s.cutAtDeadline = 1;
    expect(cutSentence(loadRows(cell))).toBeUndefined();
    expect(rendered(cell).section.querySelector(".load-cut")).toBeNull();
  });
});

describe("the bound column", () => {
  it("is left out where no variant has a bound (a service of the user's own)", () => {
    const { section, headers, rows } = rendered(record());
    expect(headers).toEqual(["variant", "throughput", "p50", "p99", "p99.9", "max", "errors", "cut at the window's end", "load generator"]);
    expect(rows[0].throughput).toBe("319 req/s");
    expect(section.textContent).not.toContain("Little's law");
  });

  it("is shown, and explained, where one has (a built-in service's Little's-law bound)", () => {
    const cell = record();
    for (const s of samplesOf(cell, "tomcat-20")) {
      s.throughputBoundPerSecond = 20 / 0.3;
      s.throughputEfficiency = s.throughputPerSecond / s.throughputBoundPerSecond;
    }
    const { section, headers, rows } = rendered(cell);
    expect(headers[2]).toBe("its bound (share)");
    expect(rows.map((r) => r["its bound (share)"])).toEqual(["—", "66.7 req/s (97 %)"]);
    expect(section.querySelector(".load-method")?.textContent).toContain("Little's law");
  });
});
