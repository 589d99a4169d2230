import { mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { CellRecord, Coordinates, IndexEntry, SiteIndex, Trends } from "../src/data/types";
import { launch, ready } from "./browser";
import { cellId, golden, writeRun } from "./fixtures";
import { publish } from "./publish";
import { type Host, serve } from "./serve";

// The first-paint budgets (issue #19: a 1,000-cell matrix drawn within 1 s in Chromium here, the busiest
// history view within 2 s) on a year of nightly history. One 1,000-cell run — five JDKs × five CPU quotas ×
// four parallelism values × two pool sizes × five workloads, each workload a golden record of a real cell —
// is published by the real runner; its index entry, run directory and trend points are then replicated to
// 365 nightly runs (run directories share the one cells.json by symlink: the dashboard reads only the
// newest run's at first paint). The figures are measured, written to LOOM_ARTIFACTS/first-paint.json and
// printed; they are recorded in benchmarks/results, not asserted (a timing assertion on a shared 2-CPU
// machine would fail for reasons that are not the dashboard's).

const ARTIFACTS = process.env.LOOM_ARTIFACTS ?? join(tmpdir(), "loom-dashboard-e2e");
const NIGHTS = 365;
const JDK_IDS = ["t21", "t23", "t25", "s21", "s25"];
const GOLDEN_OF: Record<string, string> = {
  "sleep-bound": "cell-sleep-bound-iterated.json",
  "mass-start": "cell-mass-start.json",
  pinning: "cell-pinning-25.json",
  "http-server": "cell-http-server.json",
  "fib-fanout": "cell-fib-fanout.json",
};
/** The history view a reader would open first on the busiest workload: one JDK's 40 cells (the view asks for a narrower choice beyond 40 panels). */
const BUSIEST_HISTORY = "#/history?workload=pinning&jdk=t21";
let host: Host;
let site: string;
let newestRun: string;

function yearOfCells(): CellRecord[] {
  const cells: CellRecord[] = [];
  for (const [workload, file] of Object.entries(GOLDEN_OF)) {
    const base = golden(file);
    for (const id of JDK_IDS) {
      for (const cpus of [1, 2, 4, 8, 16]) {
        for (const parallelism of ["auto", "1", "2", "4"]) {
          for (const maxPoolSize of ["auto", "512"]) {
            const coordinates: Coordinates = {
              ...base.coordinates,
              jdk: id,
              vm: id.startsWith("s") ? "openj9" : "hotspot",
              version: Number(id.slice(1)),
              cpus,
              parallelism,
              maxPoolSize,
              workload,
            };
            cells.push({ ...structuredClone(base), coordinates, cellId: cellId(coordinates) });
          }
        }
      }
    }
  }
  return cells;
}

beforeAll(async () => {
  const work = mkdtempSync(join(tmpdir(), "loom-year-"));
  site = join(work, "site");
  const spec = { runId: "20261122T020000Z-year", startedAt: "2026-11-22T02:00:00Z", trigger: "schedule", branch: "main", virtualScale: 1, jdkBuild: "21.0.9+10" };
  newestRun = spec.runId;
  const cells = yearOfCells();
  expect(cells).toHaveLength(1000);
  publish(writeRun(join(work, "runs"), spec, cells), site);

  const index: SiteIndex = JSON.parse(readFileSync(join(site, "data/index.json"), "utf8"));
  const newest = index.runs[0];
  const entries: IndexEntry[] = [];
  for (let night = NIGHTS - 1; night >= 1; night--) {
    const started = new Date(Date.parse(newest.startedAt) - night * 86_400_000).toISOString().replace(/\.\d+Z$/, "Z");
    const runId = `${started.replace(/[-:]/g, "")}-n${String(night).padStart(3, "0")}`;
    const dir = join(site, "data/runs", runId);
    mkdirSync(dir, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(site, "data/runs", newest.runId, "run.json"), "utf8"));
    writeFileSync(join(dir, "run.json"), JSON.stringify({ ...manifest, runId, startedAt: started }));
    symlinkSync(join(site, "data/runs", newest.runId, "cells.json"), join(dir, "cells.json"));
    entries.push({ ...newest, runId, startedAt: started, trigger: night % 7 === 3 ? "pull_request" : "schedule", compared: undefined });
  }
  entries.push(newest);
  writeFileSync(join(site, "data/index.json"), JSON.stringify({ schemaVersion: 1, runs: entries }));
  for (const workload of Object.keys(GOLDEN_OF)) {
    for (const jdk of JDK_IDS) {
      const file = join(site, "data/trends", workload, `${jdk}.json`);
      const trends: Trends = JSON.parse(readFileSync(file, "utf8"));
      for (const s of trends.series) {
        const level = s.points[0].median;
        const half = s.points[0].ci95 ? (s.points[0].ci95[1] - s.points[0].ci95[0]) / 2 : undefined;
        s.points = entries.map((e, i) => {
          const median = level * (i > 200 ? 1.12 : 1) * (1 + Math.sin(i * 1.3) * 0.01);
          return { runId: e.runId, startedAt: e.startedAt, median, ...(half === undefined ? {} : { ci95: [median - half, median + half] as [number, number], n: 3 }) };
        });
        s.changePoints = [entries[201].runId];
      }
      // each cell's headline over the same year (issue #54), as the variants' series
      for (const s of trends.headlineSeries ?? []) {
        const level = s.points[0].median;
        s.points = entries.map((e, i) => ({ runId: e.runId, startedAt: e.startedAt, median: level * (i > 200 ? 0.9 : 1) * (1 + Math.sin(i * 1.3) * 0.01) }));
        s.changePoints = [entries[201].runId];
      }
      // compact, as publish writes it
      writeFileSync(file, JSON.stringify(trends));
    }
  }
  host = await serve(site, "/loom-matrix/");
}, 600_000);

afterAll(async () => {
  await host?.close();
});

it(`measures first paint with ${NIGHTS} nightly runs of a 1,000-cell matrix, and the busiest history view`, async () => {
  const browser = await launch();
  const samples: { firstContentfulPaint: number; indexShown: number; matrixShown: number }[] = [];
  const history: { historyShown: number; trendsLoaded: number; shaped: number; panels: number }[] = [];
  try {
    for (let i = 0; i < 7; i++) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
      const page = await context.newPage();
      await page.goto(host.url());
      await ready(page, "matrix");
      samples.push(
        await page.evaluate(() => {
          const paint = performance.getEntriesByName("first-contentful-paint")[0];
          const mark = (name: string) => performance.getEntriesByName(name)[0]?.startTime ?? NaN;
          return { firstContentfulPaint: paint?.startTime ?? NaN, indexShown: mark("loom:index"), matrixShown: mark("loom:view:matrix") };
        }),
      );
      expect(await page.locator("rect[data-cell-id]").count()).toBe(1000);
      if (i === 0) await page.screenshot({ path: join(ARTIFACTS, "year-matrix.png"), fullPage: true });
      await context.close();

      // the busiest history view, loaded fresh: from navigation to its panels drawn
      const fresh = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
      const h = await fresh.newPage();
      await h.goto(host.url(BUSIEST_HISTORY));
      await ready(h, "history");
      history.push({
        ...(await h.evaluate(() => {
          const mark = (name: string) => performance.getEntriesByName(name)[0]?.startTime ?? NaN;
          return { historyShown: mark("loom:view:history"), trendsLoaded: mark("loom:history:loaded"), shaped: mark("loom:history:shaped") };
        })),
        panels: await h.locator(".history-panel").count(),
      });
      if (i === 0) await h.screenshot({ path: join(ARTIFACTS, "year-history-busiest.png") });
      await fresh.close();
    }
  } finally {
    await browser.close();
  }
  const median = (k: keyof (typeof samples)[0]) => [...samples.map((s) => s[k])].sort((a, b) => a - b)[Math.floor(samples.length / 2)];
  const size = (f: string) => statSync(join(site, f)).size;
  const result = {
    measuredAt: new Date().toISOString(),
    chromium: process.env.LOOM_CHROMIUM ?? "/usr/bin/chromium",
    history: { runs: NIGHTS, cellsPerRun: 1000, busiestHistoryView: BUSIEST_HISTORY, panels: history[0]?.panels },
    bytes: {
      index: size("data/index.json"),
      newestCells: size(`data/runs/${newestRun}/cells.json`),
      // the file the busiest history view loads (one JDK of the workload), and each workload's whole year
      busiestHistoryTrends: size("data/trends/pinning/t21.json"),
      trends: Object.fromEntries(Object.keys(GOLDEN_OF).map((w) => [w, JDK_IDS.reduce((n, j) => n + size(`data/trends/${w}/${j}.json`), 0)])),
    },
    medianMs: {
      firstContentfulPaint: median("firstContentfulPaint"),
      indexShown: median("indexShown"),
      matrixShown: median("matrixShown"),
      busiestHistoryShown: [...history.map((x) => x.historyShown)].sort((a, b) => a - b)[Math.floor(history.length / 2)],
      busiestHistoryTrendsLoaded: [...history.map((x) => x.trendsLoaded)].sort((a, b) => a - b)[Math.floor(history.length / 2)],
      busiestHistoryShaped: [...history.map((x) => x.shaped)].sort((a, b) => a - b)[Math.floor(history.length / 2)],
    },
    samples,
    historySamples: history,
  };
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(ARTIFACTS, "first-paint.json"), `${JSON.stringify(result, null, 2)}\n`);
  console.log(`first paint (median of ${samples.length}): ${JSON.stringify(result.medianMs)}; bytes ${JSON.stringify(result.bytes)}`);
  expect(samples.every((s) => s.indexShown <= s.matrixShown)).toBe(true); // the index is shown before the run's cells
});

it("draws a year of one cell's history", async () => {
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(host.url("#/history?workload=sleep-bound&cell=t21.linux.cpus-1.par-auto.max-auto.minr-auto.sleep-bound"));
    await ready(page, "history");
    expect(await page.locator("#change-points tbody tr").count()).toBe(2); // one per variant
    await page.screenshot({ path: join(ARTIFACTS, "year-history.png"), fullPage: true });
  } finally {
    await browser.close();
  }
});
