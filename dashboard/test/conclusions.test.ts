import { describe, expect, it } from "vitest";
import type { Conclusions } from "../src/data/results.schema";
import {
  changeWords,
  classesMeaning,
  confidenceWords,
  otherWords,
  ruleWords,
  sinceLead,
  stepWords,
  tileConclusion,
  tileConclusions,
  tileLines,
} from "../src/shape/conclusions";
import { conclusionsBlock } from "../src/views/conclusions";
import { classedTitle, CLASS_STYLE } from "../src/views/tiles";
import { href } from "../src/ui/route";

// Issue #51: what a run concludes (the document publish writes beside cells.json) in the reader's words, each
// condition linked to its cell and each cause to the cell's why panel; and the tiles classed by it.

const coords = (jdk: string, cpus: number, workload: string) => ({
  jdk,
  vm: "hotspot" as const,
  version: jdk.endsWith("21") ? 21 : 25,
  os: "linux" as const,
  cpus,
  parallelism: "auto",
  maxPoolSize: "auto",
  minRunnable: "auto",
  workload,
});
const contrast = (subject: string, reference: string, ratio: number, low: number, high: number, level: number, conclusion: Conclusions["conclusions"][0]["findings"][0]["conclusion"]) => ({
  subject,
  reference,
  metric: "wall time",
  ratio,
  low,
  high,
  level,
  conclusion,
});

const DOC: Conclusions = {
  schemaVersion: 1,
  runId: "r1",
  thresholdPercent: 10,
  conclusions: [
    {
      workload: "pinning",
      contrast: "synchronized against reentrant-lock",
      rules: [
        { where: [{ axis: "jdk", values: ["debian-21"] }], conclusion: "hurts", cells: ["p21"], lowestRatio: 0.128, highestRatio: 0.128 },
        { where: [{ axis: "jdk", values: ["debian-25"] }], conclusion: "no-difference", cells: ["p25"], lowestRatio: 1.01, highestRatio: 1.01 },
      ],
      findings: [
        {
          cellId: "p21",
          coordinates: coords("debian-21", 2, "pinning"),
          conclusion: "hurts",
          headline: contrast("synchronized", "reentrant-lock", 0.128, 0.12, 0.14, 0.9, "hurts"),
          causes: [{ kind: "pinning", variant: "synchronized", evidence: "jfr", words: "virtual threads parked pinned to their carrier 64 times" }],
        },
        { cellId: "p25", coordinates: coords("debian-25", 2, "pinning"), conclusion: "no-difference", headline: contrast("synchronized", "reentrant-lock", 1.0105, 1.0048, 1.028, 0.9, "no-difference") },
      ],
      steps: [
        {
          axis: "jdk",
          variant: "synchronized",
          from: "debian-21",
          to: "debian-25",
          at: { cpus: "2" },
          fromCell: "p21",
          toCell: "p25",
          contrast: contrast("synchronized on debian-25", "synchronized on debian-21", 7.8, 7.1, 8.6, 0.9, "pays-off"),
        },
      ],
    },
    {
      workload: "sleep-bound",
      rules: [
        { where: [], conclusion: "pays-off", cells: ["s1"], lowestRatio: 5.75, highestRatio: 5.75 },
        { where: [{ axis: "cpus", values: ["4"] }], conclusion: "cannot-tell", cells: ["s4"] },
        { where: [{ axis: "cpus", values: ["1"] }], conclusion: "not-valid", cells: ["sx"] },
      ],
      findings: [
        {
          cellId: "s1",
          coordinates: coords("debian-25", 2, "sleep-bound"),
          conclusion: "pays-off",
          headline: contrast("virtual", "platform", 40, 30, 50, 0.9, "pays-off"),
          overBest: contrast("virtual", "pool:100", 5.75, 4.4, 6.1, 0.9, "pays-off"),
        },
        {
          cellId: "s4",
          coordinates: coords("debian-25", 4, "sleep-bound"),
          conclusion: "cannot-tell",
          headline: contrast("virtual", "pool:100", 1.3, 0.8, 84, 0.667, "cannot-tell"),
          why: "more repetitions would decide",
        },
        { cellId: "sx", coordinates: coords("debian-25", 1, "sleep-bound"), conclusion: "not-valid", why: "disturbed: measured beside 0.71 CPUs of other work" },
      ],
    },
  ],
};

describe("what a run concludes, in words", () => {
  it("says what the classes mean before any number: the band and the best alternative", () => {
    expect(classesMeaning(10)).toMatch(/^Each condition is judged against the best alternative it measured/);
    expect(classesMeaning(10)).toContain("within ±10 %");
  });

  it("words a rule as the report does: the class, where, and the range over the best other", () => {
    const sleep = DOC.conclusions[1];
    expect(ruleWords(sleep.rules[0], sleep.findings)).toBe("pays off in every valid condition measured (1 cell): virtual against the best other (pool:100): 5.75×");
    const pinning = DOC.conclusions[0];
    expect(ruleWords(pinning.rules[0], pinning.findings)).toBe("hurts on debian-21 (1 cell): synchronized against the best other (reentrant-lock): 0.128×");
    // a cell that measured one other variant says so: "best" of one is no choice
    const onlyOne = pinning.findings.map((f) => ({ ...f, alternatives: 1 }));
    expect(ruleWords(pinning.rules[0], onlyOne)).toBe("hurts on debian-21 (1 cell): synchronized against the one other variant measured (reentrant-lock): 0.128×");
  });

  it("says how sure in words, and says so when few repetitions leave the coverage below 90 %", () => {
    expect(confidenceWords({ low: 4.4, high: 6.1, level: 0.9 })).toBe("90 % interval 4.4–6.1×");
    expect(confidenceWords({ low: 0.8, high: 84, level: 0.667 })).toBe("only 66.7 % coverage (few repetitions): 0.8–84×");
  });

  it("words a step along an axis with its own interval and class", () => {
    expect(stepWords(DOC.conclusions[0].steps![0])).toBe(
      "synchronized on debian-25 against debian-21 (at 2 CPUs): 7.8× (90 % interval 7.1–8.6×), pays off",
    );
  });

  it("renders the block: each condition links to its cell, each cause to the cell's why, not-valid cells with why", () => {
    const block = conclusionsBlock("r1", DOC);
    const text = block.textContent!;
    expect(block.querySelector("h2")!.textContent).toBe("What this run concludes");
    expect(text).toContain("hurts on debian-21");
    expect(text).toContain("no difference on debian-25");
    expect(text).toContain("why, debian-21, 2 CPUs: synchronized: virtual threads parked pinned to their carrier 64 times");
    expect(text).toContain("Not valid (not counted as evidence): debian-25, 1 CPU — disturbed: measured beside 0.71 CPUs of other work");
    expect(text).toContain("The same variant across JDKs");
    const links = [...block.querySelectorAll("a")].map((a) => a.getAttribute("href"));
    expect(links).toContain(href("cell", { run: "r1", cell: "p21" }));
    expect(links).toContain(href("cell", { run: "r1", cell: "p21", focus: "why" }));
    expect(links).toContain(href("cell", { run: "r1", cell: "sx" }));
    expect(links).toContain(href("cell", { run: "r1", cell: "p25" }));
    expect(block.querySelector("details.method summary")!.textContent).toBe("How this is computed");
    // the cannot-tell condition says what would decide
    expect(text).toContain("more repetitions would decide");
  });

  it("says so in a sentence when the run was published before conclusions existed", () => {
    expect(conclusionsBlock("old", undefined).textContent).toContain("published before loom-matrix wrote its conclusions");
  });
});

describe("what changed since the run before, other variants, JDKs not run", () => {
  const change = {
    cellId: "p25",
    coordinates: coords("debian-25", 2, "pinning"),
    from: "no-difference" as const,
    to: "hurts" as const,
    before: contrast("synchronized", "reentrant-lock", 1.0105, 1.0048, 1.028, 0.9, "no-difference"),
    after: contrast("synchronized", "object-wait", 0.127, 0.12, 0.13, 0.9, "hurts"),
  };
  const withHistory: Conclusions = {
    ...DOC,
    notRun: [{ jdk: "openj9-21", cells: 3, why: "no such image on this host" }],
    since: {
      runId: "r0",
      startedAt: "2026-11-27T02:00:00Z",
      commits: "1111111..2222222",
      alike: 2,
      changed: [{ change, alongside: ["the JDK build 25.0.1 → 25.0.2"], changePoint: true }],
    },
  };

  it("words a changed condition with both contrasts, and leads with how many changed of how many", () => {
    expect(changeWords(change)).toBe("no difference (synchronized against reentrant-lock, 1.01×) → hurts (synchronized against object-wait, 0.127×)");
    expect(sinceLead(withHistory.since!)).toBe("The answer changed in 1 of the 3 conditions both runs concluded on:");
    expect(sinceLead({ ...withHistory.since!, changed: [] })).toBe("Each of the 2 conditions both runs concluded on concludes alike.");
  });

  it("renders the change since the run before with what else changed, linked to the cell and the earlier run", () => {
    const block = conclusionsBlock("r1", withHistory);
    const text = block.textContent!;
    expect(text).toContain("Since the run before: 2026-11-27 02:00 (commits 1111111..2222222). The answer changed in 1 of the 3");
    expect(text).toContain("pinning · debian-25, 2 CPUs: no difference (synchronized against reentrant-lock, 1.01×) → hurts");
    expect(text).toContain("; with it, the JDK build 25.0.1 → 25.0.2; its history starts a new level here");
    expect(text).toContain("Not run on this host, so concluded nowhere below: openj9-21 (3 cells: no such image on this host).");
    const links = [...block.querySelectorAll(".since a")].map((a) => a.getAttribute("href"));
    expect(links).toEqual([href("matrix", { run: "r0" }), href("cell", { run: "r1", cell: "p25" })]);
    // the block without a history says none of it
    expect(conclusionsBlock("r1", DOC).querySelector(".since")).toBeNull();
  });

  it("says a variant far from the subject under its rule: class-init where synchronized no longer pins", () => {
    const other = contrast("class-init", "synchronized", 0.251, 0.25, 0.252, 0.9, "hurts");
    expect(otherWords(other)).toBe("class-init against synchronized: 0.251× (90 % interval 0.25–0.252×), worse");
    const doc: Conclusions = structuredClone(DOC);
    doc.conclusions[0].findings[1].others = [other];
    expect(conclusionsBlock("r1", doc).textContent).toContain("also measured, debian-25, 2 CPUs: class-init against synchronized: 0.251×");
  });
});

describe("the tiles, classed by their cell's conclusion", () => {
  const tiles = tileConclusions(DOC);

  it("never colours a win inside the band: a 1.01× tile is no difference, neutral", () => {
    expect(tiles.get("p25")!.conclusion).toBe("no-difference");
    expect(CLASS_STYLE["no-difference"].fill).not.toBe(CLASS_STYLE["pays-off"].fill);
    expect(tileLines(tiles.get("p25")!, "reentrant-lock")).toEqual(["no difference", "1.01× · 90 % 1.005–1.028×", "over reentrant-lock"]);
  });

  it("says the contrast over the best other where the class rests on it, not the headline's weak reference", () => {
    const s1 = tiles.get("s1")!;
    expect(tileLines(s1, "platform")).toEqual(["pays off", "5.75× · 90 % 4.4–6.1×", "over best: pool:100"]);
    expect(classedTitle({ cellId: "s1", marks: [], kind: "speedup", status: "ok" } as never, s1)).toMatch(/^s1: pays off — 5\.75× over pool:100, 90 % interval 4\.4–6\.1× \(the class rests on the contrast over the best other, pool:100\)/);
  });

  it("says a thin interval's coverage on the tile, and a not-valid tile's reason", () => {
    expect(tileLines(tiles.get("s4")!, "pool:100")[1]).toBe("1.3× · only 66.7 %: 0.8–84×");
    expect(tileConclusion(DOC.conclusions[1].findings[2]).words).toBe("not valid");
    expect(tileLines(tiles.get("sx")!, undefined)).toEqual(["not valid", "disturbed: measured…"]);
  });
});

describe("a capacity ratio that is only a bound (issue #52)", () => {
  const finding = (bound: "at least" | "at most" | "unknown", conclusion: "pays-off" | "cannot-tell") => ({
    cellId: "cap",
    coordinates: coords("temurin-25", 1, "slow-endpoint-capacity"),
    conclusion,
    headline: { ...contrast("virtual", "tomcat-20", 4, 4, 4, 0.67, conclusion), metric: "capacityPerSecond", bound },
    causes: [],
  });

  it("says a floor where the subject met the objective at the top of the range searched", () => {
    const t = tileConclusion(finding("at least", "pays-off") as never);
    expect(t.detail).toMatch(/^at least 4× over tomcat-20/);
    expect(t.short).toMatch(/^≥ 4× · /);
  });

  it("says a ratio of two floors is no number to go by", () => {
    const t = tileConclusion(finding("unknown", "cannot-tell") as never);
    expect(t.detail).toMatch(/^4× \(both only lower bounds\) over tomcat-20/);
  });
});
