import { describe, expect, it } from "vitest";
import { breakable, h } from "../src/ui/dom";
import { date, ms } from "../src/ui/format";
import { href, parseRoute } from "../src/ui/route";
import { cellWords } from "../src/views/runs";

const HOSTILE = `<img src=x onerror="window.__pwned=1">&amp;"'`;

describe("the DOM builder", () => {
  it("lets text wrap at its separators, never inside a number (issue #31)", () => {
    const wbrs = (text: string) => breakable(text).filter((c) => c instanceof HTMLElement && c.tagName === "WBR").length;
    expect(wbrs("1.02–1.09 (99.2 %)")).toBe(1); // after "(" only
    expect(wbrs("+5.6 % wallMs")).toBe(0);
    expect(wbrs("example.blocking.Bench.run(poolSize=50, requests=100)")).toBe(5);
    expect(breakable("1.02–1.09").join("")).toBe("1.02–1.09");
    // nor at a thousands separator (issue #54: "4," / "781 ms" at 800 px)
    expect(wbrs("4,781 ms (12,000 requests)")).toBe(1); // after "(" only
    expect(wbrs("pool:50, virtual")).toBe(1);
  });

  it("keeps strings from the data as text", () => {
    const el = h("p", { title: HOSTILE }, HOSTILE, h("span", {}, HOSTILE));
    expect(el.querySelector("img")).toBeNull();
    expect(el.textContent).toBe(HOSTILE + HOSTILE);
    expect(el.getAttribute("title")).toBe(HOSTILE);
  });

  it("refuses links that are not in-page routes or data files", () => {
    expect(() => h("a", { href: "javascript:alert(1)" })).toThrow(/refusing/);
    expect(() => h("a", { href: "https://example.com/" })).toThrow(/refusing/);
    expect(h("a", { href: "#/cell?run=1" }).getAttribute("href")).toBe("#/cell?run=1");
  });
});

describe("URL state", () => {
  it("round-trips every parameter, whatever characters it has", () => {
    const params = { run: "20261122T0101Z-ab12", cell: "t21.linux.cpus-1.par-auto.max-auto.minr-auto.x", jdk: HOSTILE };
    const route = parseRoute(href("cell", params));
    expect(route).toEqual({ view: "cell", params });
  });

  it("falls back to the matrix for an unknown or empty view", () => {
    expect(parseRoute("").view).toBe("matrix");
    expect(parseRoute("#/nonsense?x=1")).toEqual({ view: "matrix", params: { x: "1" } });
  });

  it("orders parameters so a link is stable", () => {
    expect(href("matrix", { workload: "w", run: "r", metric: undefined })).toBe("#/matrix?run=r&workload=w");
  });
});

describe("formatting", () => {
  it("says times to the minute and durations in their unit", () => {
    expect(date("2026-11-22T01:44:39.722135853Z")).toBe("2026-11-22 01:44 UTC");
    expect(ms(1234.5)).toBe("1,235 ms");
    expect(ms(65_000)).toBe("65 s");
  });
});

describe("a run's cells in words", () => {
  it("says how many were skipped or invalid instead of 10/44 ok", () => {
    expect(cellWords({ cells: 44, ok: 10, failed: 0, attested: 10 })).toBe("10 of 44 measured, 34 skipped or invalid; 10 attested");
    expect(cellWords({ cells: 5, ok: 4, failed: 1, attested: 4 })).toBe("4 of 5 measured, 1 failed; 4 attested");
  });
});

describe("a variant's colour", () => {
  it("is the same for the same name in every view, virtual and platform first", async () => {
    const { variantColour, variantScale } = await import("../src/ui/colours");
    expect(variantColour("virtual")).toBe("#4269d0");
    expect(variantColour("platform")).toBe("#efb118");
    expect(variantColour("pool:200")).toBe(variantColour("pool:200"));
    expect(["#4269d0", "#efb118"]).not.toContain(variantColour("pool:200"));
    // the order a view lists its variants in does not change their colours
    const a = variantScale(["virtual", "pool:200", "tomcat:800"]);
    const b = variantScale(["tomcat:800", "virtual", "pool:200"]);
    expect(b.range[b.domain.indexOf("pool:200")]).toBe(a.range[a.domain.indexOf("pool:200")]);
  });
});
