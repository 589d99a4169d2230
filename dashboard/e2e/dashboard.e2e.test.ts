import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launch, ready, watch } from "./browser";
import { DISTURBED_CELL, disturbedCell, flameCell, HOSTILE_BRANCH, ITERATED_JDK, iteratedCell, JDKS, matrixCells, pinningCells, PROGRAM_WORKLOAD, programCell, USER_WORKLOAD, userCells, WORKLOADS, writeAbRun, writeRun } from "./fixtures";
import { publish } from "./publish";
import { type Host, serve } from "./serve";

// Three runs published by the real runner into one site — scheduled, then a pull request from a branch
// with a hostile name, then scheduled again with a 40 % slower virtual variant and a new JDK build —
// served under a sub-path and visited view by view in Chromium. Screenshots go to LOOM_ARTIFACTS.

const AB_REGRESSION = "ab-20261103T150000Z-dddd";
const AB_AA = "ab-20261104T150000Z-eeee";
const ARTIFACTS = process.env.LOOM_ARTIFACTS ?? join(tmpdir(), "loom-dashboard-e2e");
const BASE = "/loom-matrix/";
let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), "loom-e2e-"));
  const site = join(work, "site");
  const runs = [
    { runId: "20261101T020000Z-aaaa", startedAt: "2026-11-01T02:00:00Z", trigger: "schedule", branch: "main", virtualScale: 1, jdkBuild: "21.0.8+9" },
    { runId: "20261102T120000Z-bbbb", startedAt: "2026-11-02T12:00:00Z", trigger: "pull_request", branch: HOSTILE_BRANCH, virtualScale: 1.02, jdkBuild: "21.0.8+9" },
    { runId: "20261103T020000Z-cccc", startedAt: "2026-11-03T02:00:00Z", trigger: "schedule", branch: "main", virtualScale: 1.4, jdkBuild: "21.0.9+10" },
  ];
  for (const spec of runs) publish(writeRun(join(work, "runs"), spec, [...matrixCells(spec), ...userCells(spec), iteratedCell(spec), ...pinningCells(spec), flameCell(), programCell(), disturbedCell()]), site);
  // two A/B runs after them, with real A/B runs' verdicts: a pull request's harness 5 % slower, and an A/A
  publish(writeAbRun(join(work, "ab"), { runId: AB_REGRESSION, startedAt: "2026-11-03T15:00:00Z", trigger: "pull_request", branch: "slower-harness" }, "ab-5pct-regression.json"), site);
  publish(writeAbRun(join(work, "ab"), { runId: AB_AA, startedAt: "2026-11-04T15:00:00Z", trigger: "manual", branch: "main" }, "ab-jmh-aa.json"), site);
  host = await serve(site, BASE);
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  problems = watch(page);
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
});

async function visit(hash: string, view: string, shot?: string): Promise<void> {
  await page.goto(host.url(hash));
  await ready(page, view);
  if (shot) await page.screenshot({ path: join(ARTIFACTS, `${shot}.png`), fullPage: true });
}

describe("the dashboard under a sub-path", () => {
  it("shows the whole matrix of the newest run at once: every JDK and workload", async () => {
    await visit("", "matrix", "matrix");
    const svgText = (await page.locator("figure.heatmap svg").last().textContent()) ?? "";
    for (const j of JDKS) expect(svgText).toContain(`${j.jdk} · ${j.vm} ${j.version} · linux`);
    for (const w of WORKLOADS) expect(svgText).toContain(w);
    expect(svgText).toContain("1 CPU");
    expect(svgText).toContain("2 CPUs");
    // 3 JDKs × 2 CPU limits × 2 parallelism × 2 workloads, and the user's JMH benchmark on 2 JDKs × 2 CPU
    // limits, the iterated sleep-bound cell, the two pinning cells, the profiled fib-fanout cell and the example's
    // program and a cell measured beside a CPU hog: every tile focusable
    expect(svgText).toContain(USER_WORKLOAD);
    await expect(page.locator("rect[data-cell-id]").count()).resolves.toBe(34);
    // no tile's text is wider or taller than its tile
    const clipped = await page.evaluate(() => {
      const rects = [...document.querySelectorAll("figure.heatmap rect[data-cell-id]")].map((r) => r.getBoundingClientRect());
      return [...document.querySelectorAll("figure.heatmap g[aria-label=text] text")].flatMap((t) => {
        const b = t.getBoundingClientRect();
        const cx = b.x + b.width / 2;
        const cy = b.y + b.height / 2;
        const tile = rects.find((r) => cx >= r.left && cx <= r.right && cy >= r.top && cy <= r.bottom);
        return tile && (b.width > tile.width + 2 || b.height > tile.height + 2) ? [`${t.textContent} (${Math.round(b.width)}×${Math.round(b.height)} in ${Math.round(tile.width)}×${Math.round(tile.height)})`] : [];
      });
    });
    expect(clipped).toEqual([]);
    expect(await page.locator("#cells tbody tr").count()).toBe(34);
    expect(problems, problems.join("\n")).toEqual([]);
    // nothing was fetched from outside the base path
    expect(host.requests.filter((r) => !r.startsWith(BASE))).toEqual([]);
  });

  it("leads the run's first view with what it concludes, each condition a link, no page wider than its window (#51)", async () => {
    for (const width of [1400, 800]) {
      await page.setViewportSize({ width, height: 1000 });
      await visit("", "matrix", `matrix-conclusions-${width}`);
      const block = page.locator("main section#conclusions");
      expect(await block.locator("h2").innerText()).toBe("What this run concludes");
      // the block comes before the tiles
      const order = await page.evaluate(() => {
        const c = document.querySelector("#conclusions")!;
        const f = document.querySelector("figure.heatmap")!;
        return c.compareDocumentPosition(f) & Node.DOCUMENT_POSITION_FOLLOWING;
      });
      expect(order).toBeTruthy();
      const text = await block.innerText();
      expect(text).toMatch(/^What this run concludes\n+Each condition is judged against the best alternative it measured/);
      for (const w of ["sleep-bound", "pinning"]) expect(text).toContain(w);
      expect(text).toMatch(/(pays off|hurts|no difference|cannot tell)/);
      // every condition and cause links to a cell of this run; the one other link is the run before it (what changed since)
      const links = await block.locator("a").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
      expect(links.length).toBeGreaterThan(0);
      const earlier = await block.locator(".since > p a").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
      for (const l of earlier) expect(l).toMatch(/^#\/matrix\?run=[^&]+$/);
      if (earlier.length) expect(text).toContain("Since the run before: ");
      expect(
        links.filter((l) => !earlier.includes(l) && !/^#\/cell\?cell=[^&]+(&focus=why)?&run=[^&]+$/.test(l)),
        links.join(" | "),
      ).toEqual([]);
      // the disturbed cell is named as not valid, with why
      expect(text).toContain("Not valid (not counted as evidence)");
      expect(await block.locator("details.method summary").innerText()).toBe("How this is computed");
      // the tiles say their class in words
      const svgText = (await page.locator("figure.heatmap svg").last().textContent()) ?? "";
      expect(svgText).toMatch(/pays off|no difference|hurts|cannot tell/);
      expect(svgText).toContain("not valid");
      const wider = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(wider, `at ${width} px the page is ${wider} px wider than its window`).toBeLessThanOrEqual(0);
      const blockWider = await block.evaluate((b) => b.scrollWidth - b.clientWidth);
      expect(blockWider, `at ${width} px`).toBeLessThanOrEqual(0);
    }
    await page.setViewportSize({ width: 1400, height: 1000 });
    // one click from a cause to the cell's why panel
    const why = page.locator("#conclusions a[href*='focus=why']").first();
    if (await why.count()) {
      await why.click();
      await ready(page, "cell");
      expect(page.url()).toContain("focus=why");
    }
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("keeps a hostile branch name as text in every view that shows it", async () => {
    await visit("#/runs", "runs", "runs");
    const text = await page.locator("#runs").innerText();
    expect(text).toContain(HOSTILE_BRANCH);
    expect(await page.locator("main img, main script").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await visit("#/run?run=20261102T120000Z-bbbb", "run");
    expect(await page.locator("main dl.kv").first().innerText()).toContain(HOSTILE_BRANCH);
    const options = await page.locator("select[name=run] option").allInnerTexts();
    expect(options.some((o) => o.includes(HOSTILE_BRANCH))).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(problems).toEqual([]);
  });

  it("explains a cell in one click on its tile", async () => {
    await visit("#/matrix?workload=sleep-bound", "matrix", "matrix-sleep-bound");
    const id = "debian-21.linux.cpus-1.par-auto.max-auto.minr-auto.sleep-bound";
    await page.locator(`rect[data-cell-id="${id}"]`).click();
    await ready(page, "cell");
    expect(page.url()).toContain(`cell=${id}`);
    await page.screenshot({ path: join(ARTIFACTS, "cell.png"), fullPage: true });
    // titled in words, its id beneath for the command line
    expect(await page.locator("h1.cell-title").innerText()).toBe("sleep-bound — HotSpot 21 (debian-21), Linux, 1 CPU, default scheduler");
    expect(await page.locator("p.cell-id").innerText()).toBe(id);
    // repetitions as points: 8 per variant, the bound drawn, the medians as ticks
    expect(await page.locator("figure.repetitions svg circle").count()).toBe(16);
    // the dashed lower bound, one per variant (issue #19: it never rendered)
    expect(await page.locator('figure.repetitions svg g[stroke-dasharray="4,2"] line').count()).toBe(2);
    expect(await page.locator("#reproduce").innerText()).toBe(`./loom-matrix run --matrix matrix.yaml --profile full --cell ${id}`);
    const attestation = await page.locator("table.attestation").innerText();
    expect(attestation).toContain("availableProcessors");
    expect(await page.locator("table.telemetry").innerText()).toContain("carriers used");
    expect(await page.locator("main").innerText()).toContain("Attested");
  });

  it("opens a cell from the keyboard", async () => {
    await visit("#/matrix?workload=mass-start", "matrix");
    const tile = page.locator('rect[data-cell-id^="semeru-21.linux.cpus-1"]').first();
    await tile.focus();
    await page.keyboard.press("Enter");
    await ready(page, "cell");
    const main = await page.locator("main").innerText();
    expect(main).toContain("NOT attested");
    expect(main).toContain("✕ differs");
  });

  it("shows a failed cell's reason and log tail, and marks it in the matrix", async () => {
    const id = "debian-25.linux.cpus-2.par-1.max-auto.minr-auto.sleep-bound";
    await visit(`#/matrix?workload=sleep-bound&metric=efficiency`, "matrix");
    expect(await page.locator(`rect[data-cell-id="${id}"]`).getAttribute("aria-label")).toContain("failed");
    await visit(`#/cell?cell=${id}`, "cell", "cell-failed");
    expect(await page.locator("p.reason").innerText()).toContain("code 137");
    expect(await page.locator("pre.log").innerText()).toContain("Killed");
  });

  it("marks a ceiling", async () => {
    await visit("#/matrix?workload=mass-start", "matrix");
    expect(await page.locator('rect[data-cell-id="debian-21.linux.cpus-1.par-auto.max-auto.minr-auto.mass-start"]').getAttribute("aria-label")).toContain("ceiling");
  });

  it("draws each series over the runs, pull-request runs apart, with the JDK build change annotated", async () => {
    await visit("#/history?workload=sleep-bound&jdk=debian-21", "history", "history");
    const svg = page.locator("figure.history svg");
    // 4 debian-21 cells × 2 variants × 2 scheduled runs as dots; the pull-request run as diamonds
    expect(await svg.locator("circle").count()).toBe(16);
    expect(await page.locator("figure.history svg path[d]").count()).toBeGreaterThan(8);
    const annotations = await page.locator("#annotations").innerText();
    expect(annotations).toContain("jdk build");
    expect(annotations).toContain("21.0.8+9");
    expect(annotations).toContain("21.0.9+10");
    // two scheduled runs: no change point could be found yet, and the page says so
    expect(await page.locator(".too-few-runs").innerText()).toContain("2 runs in this view that are not pull requests (scheduled or started by hand)");
    // the legend lists the series drawn (issue #31: it listed colours of series not drawn); each keeps its colour
    // by the scale's fixed range over the workload's variants
    await visit("#/history?workload=sleep-bound&jdk=debian-21&variant=pool:100", "history");
    const legend = await page.locator("figure.history").innerText();
    expect(legend).not.toContain("virtual");
    expect(legend).toContain("pool:100");
  });

  it("compares the newest run with its baseline, skipping the pull request, coloured by verdict", async () => {
    await visit("#/compare", "compare", "compare");
    const sides = await page.locator(".sides").innerText();
    expect(sides).toContain("2026-11-01"); // the scheduled run, not the pull request
    expect(await page.locator("#comparisons .verdict-regression").count()).toBeGreaterThan(0);
    expect(await page.locator("figure.compare svg g[aria-label=dot] > *").count()).toBe(await page.locator("#comparisons tbody tr").count());
    await visit("#/compare?verdict=regression", "compare");
    // the verdict is the third column, next to the row's name (issue #54)
    const verdicts = await page.locator("#comparisons tbody tr td:nth-child(3)").allInnerTexts();
    expect(new Set(verdicts)).toEqual(new Set(["regression"]));
  });

  it("shows a user's JMH benchmark: its score in its own unit, per variant and benchmark, over the baseline", async () => {
    await visit(`#/matrix?workload=${USER_WORKLOAD}`, "matrix", "matrix-user");
    expect(await page.locator("label", { hasText: "Over platform" }).count()).toBe(1);
    const id = `debian-25.linux.cpus-1.par-auto.max-auto.minr-auto.${USER_WORKLOAD}`;
    // the tile is the speedup of virtual over the baseline platform (about 7× for this benchmark, here
    // with the newest run's virtual scores 40 % slower), not n/a
    const tile = (await page.locator(`rect[data-cell-id="${id}"]`).getAttribute("aria-label")) ?? "";
    expect(tile).toMatch(/virtual is [0-9.]+× platform \([0-9.]+ % CI /);
    await visit(`#/cell?cell=${id}`, "cell", "cell-user");
    const speedups = await page.locator("main").innerText();
    expect(speedups).toContain("Speedup over the baseline (platform)");
    const stats = await page.locator("table.stats").innerText();
    expect(stats).toContain("median score (ms/op)");
    expect(stats).toContain("virtual · BlockingServiceBenchmark.threadsByParam(poolSize=50, requests=100)");
    expect(stats).toContain("platform · BlockingServiceBenchmark.threadsByParam(poolSize=50, requests=100)");
    expect(await page.locator("figure.repetitions").innerText()).toContain("score (ms/op)");
    // 8 repetitions per variant, one benchmark each
    expect(await page.locator("figure.repetitions svg circle").count()).toBe(16);
    expect(await page.locator("main").innerText()).toContain("Attested");
    expect(problems, problems.join("\n")).toEqual([]);
    // the compare view lists the benchmark beside the variant
    await visit(`#/compare`, "compare");
    expect(await page.locator("#comparisons").innerText()).toContain("virtual · BlockingServiceBenchmark.threadsByParam");
  });

  it("never calls a JMH score a cold start, and shows each plot row's variant at 1400 and 800 px (#31)", async () => {
    const id = `debian-25.linux.cpus-1.par-auto.max-auto.minr-auto.${USER_WORKLOAD}`;
    await visit(`#/matrix?workload=${USER_WORKLOAD}`, "matrix");
    const note = await page.locator("#phase-note").innerText();
    expect(note).toContain("JMH's score over its measurement iterations after its warmup iterations");
    expect(note).not.toMatch(/cold start|ran its workload once/);
    expect(await page.locator("figure.heatmap").innerText()).not.toContain("cold, one run per JVM");
    // Phase = cold start: a JMH cell has none to show, rather than its steady-state numbers again
    await visit(`#/matrix?workload=${USER_WORKLOAD}&phase=cold-start`, "matrix");
    expect(await page.locator("#phase-note").innerText()).toContain("JMH benchmarks measured no cold start apart");
    expect(await page.locator(`rect[data-cell-id="${id}"]`).getAttribute("aria-label")).not.toMatch(/virtual is [0-9.]+×/);
    for (const width of [1400, 800]) {
      await page.setViewportSize({ width, height: 1000 });
      await visit(`#/cell?cell=${id}`, "cell", `cell-user-${width}`);
      const main = await page.locator("main").innerText();
      expect(main).not.toContain("a cold start;");
      expect(main).not.toContain("one cold run per fork");
      expect(await page.locator("table.stats").innerText()).toContain("JMH measures after its warmup");
      // the repetitions plot's row labels: each starts with its variant, however long the benchmark
      const labels = await page.locator("figure.repetitions svg g[aria-label='y-axis tick label'] text").allTextContents();
      expect(labels.map((l) => l.split(" · ")[0]).sort(), `at ${width} px: ${labels.join(" | ")}`).toEqual(["platform", "virtual"]);
      await visit("#/compare", "compare", `compare-rows-${width}`);
      const rows = await page.locator("figure.compare svg g[aria-label='y-axis tick label'] text").allTextContents();
      expect(rows.length).toBeGreaterThan(0);
      // each row starts with its variant (the issue's rows lost it: "…chmark.synchronized_calls(…")
      expect(rows.filter((r) => r.startsWith("…") || !/^[\w:-]+ · /.test(r)), rows.join(" | ")).toEqual([]);
      expect(await page.locator("figure.compare").innerText()).toContain("grey band: within");
      // the side-by-side table names cells by the parts of their ids that differ: no row is a tower of id parts
      // (the issue's table was ~14,000 px tall at 800 px, each id broken at every dot)
      const tallest = Math.max(...(await page.locator("#comparisons tbody tr").evaluateAll((trs) => trs.map((tr) => tr.getBoundingClientRect().height))));
      const tallRow = await page.locator("#comparisons tbody tr").evaluateAll((trs) => {
        const tr = trs.reduce((a, b) => (b.getBoundingClientRect().height > a.getBoundingClientRect().height ? b : a));
        return [...tr.children].map((td) => `${Math.round(td.getBoundingClientRect().width)}x${Math.round((td.firstElementChild ?? td).getBoundingClientRect().height)}: ${td.textContent}`).join(" | ");
      });
      expect(tallest, `at ${width} px: ${tallRow}`).toBeLessThan(110);
    }
    await page.setViewportSize({ width: 1400, height: 1000 });
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("shows an A/B run as what it is: its own verdict, both sides, apart from the nightly history (#31)", async () => {
    await visit(`#/ab?run=${AB_REGRESSION}`, "ab", "ab");
    expect(await page.locator(".ab-verdict.tone-bad").innerText()).toBe("2 regressions (0 improvements, 3 unchanged, 9 inconclusive)");
    const sides = await page.locator(".sides").innerText();
    expect(sides).toContain("this harness");
    expect(sides).toContain("5 % slower sleep-bound and fib-fanout");
    const main = await page.locator("main").innerText();
    expect(main).toContain("harness 604f26bc2969 → ba644d594b8e");
    expect(main).toContain("the budget ran out after look 3 of 6");
    expect(main).not.toContain("A/A run");
    // every comparison, in the plot and the table, each with its test, its level and what it could have caught
    expect(await page.locator("#ab-comparisons tbody tr").count()).toBe(14);
    expect(await page.locator("figure.compare svg g[aria-label=dot] > *").count()).toBe(14);
    const table = await page.locator("#ab-comparisons").innerText();
    expect(table).toContain("paired t on 14 pairs of forks' means");
    expect(table).toContain("regression, confirmed");
    expect(table).toContain("(99.2 %)");
    const rows = await page.locator("figure.compare svg g[aria-label='y-axis tick label'] text").allTextContents();
    expect(rows.filter((r) => r.startsWith("…") || !/^[\w:-]+ · /.test(r)), rows.join(" | ")).toEqual([]);
    // the A/A run says so, and found nothing
    await visit(`#/ab?run=${AB_AA}`, "ab", "ab-aa");
    expect(await page.locator(".banner.aa").innerText()).toContain("A/A run: both sides were built from the same definitions");
    expect(await page.locator(".ab-verdict").innerText()).toBe("No regression: 0 improvements, 2 unchanged, 0 inconclusive");
    // kept apart: the history has its three runs, the newest matrix is still the newest nightly run
    await visit("#/runs", "runs", "runs-ab");
    expect(await page.locator("#runs tbody tr").count()).toBe(3);
    expect(await page.locator("#ab-runs tbody tr").count()).toBe(2);
    expect(await page.locator("#ab-runs").innerText()).toContain("2 regressions (0 improvements, 3 unchanged, 9 inconclusive)");
    expect(await page.locator("#status").innerText()).toContain("2026-11-03 02:00 UTC");
    await visit("", "matrix");
    expect(await page.locator("select[name=run]").inputValue()).toBe("20261103T020000Z-cccc");
    // an A/B run the site does not have: said, not replaced
    await visit("#/ab?run=ab-nope", "ab");
    expect(await page.locator(".banner.unknown-run").innerText()).toContain("This site has no A/B run ab-nope");
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("shows a program's own numbers as what they are: no cold start, its metric and unit (#31)", async () => {
    const id = `debian-25.linux.cpus-2.par-auto.max-auto.minr-auto.${PROGRAM_WORKLOAD}`;
    await visit(`#/matrix?workload=${PROGRAM_WORKLOAD}`, "matrix", "matrix-program");
    const note = await page.locator("#phase-note").innerText();
    expect(note).toContain("a program's, its own numbers (or its whole process time) in a fresh JVM");
    expect(note).not.toMatch(/cold start|ran its workload once/);
    // virtual threads win clearly (15 ms against 85 ms a round of 100 requests): a coloured win, not "1.0×?"
    expect(await page.locator(`rect[data-cell-id="${id}"]`).getAttribute("aria-label")).toMatch(/virtual is [0-9.]+× platform/);
    await visit(`#/matrix?workload=${PROGRAM_WORKLOAD}&phase=cold-start`, "matrix");
    expect(await page.locator("#phase-note").innerText()).toContain("programs measured no cold start apart");
    await visit(`#/cell?cell=${id}`, "cell", "cell-program");
    const main = await page.locator("main").innerText();
    expect(main).not.toContain("a cold start;");
    expect(await page.locator("table.stats").innerText()).toContain("roundMs");
    expect(await page.locator("figure.repetitions").innerText()).toContain("roundMs (ms)");
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("never shows a cell measured beside other work as clean: its tile marked, its figure and series in the cell view (#32)", async () => {
    await visit("#/matrix?workload=sleep-bound", "matrix");
    expect(await page.locator(`rect[data-cell-id="${DISTURBED_CELL}"]`).getAttribute("aria-label")).toContain("disturbed (measured beside other work)");
    expect(await page.locator("figure.heatmap").innerText()).toContain("≋");
    await visit(`#/cell?cell=${DISTURBED_CELL}`, "cell", "cell-disturbed");
    expect(await page.locator("p.status").innerText()).toContain("DISTURBED");
    const other = page.locator("section", { has: page.locator("h2", { hasText: "Other work on the host" }) });
    expect(await other.locator(".banner.disturbed").innerText()).toMatch(/^Disturbed: measured beside 0\.\d\d CPUs of other work/);
    expect(await other.locator("figure.interference svg circle").count()).toBeGreaterThan(5);
    expect(await other.innerText()).toContain("throttled");
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("shows a cell's steady state beside its cold start, and each fork's iterations", async () => {
    const id = `${ITERATED_JDK.jdk}.linux.cpus-1.par-auto.max-auto.minr-auto.sleep-bound`;
    await visit(`#/cell?cell=${id}`, "cell", "cell-iterations");
    // 2 variants × 3 forks × 7 iterations: the 6 cold starts as stars, the other 36 as dots
    const figure = page.locator(".iterations svg");
    expect(await figure.locator("circle").count()).toBe(36);
    const stats = await page.locator("table.stats").innerText();
    expect(stats).toContain("3 forks × 5 iterations (+2 warmup)");
    expect(stats).toContain("cold start");
    // the cold start's speedup has its own row, its metric in words
    expect(await page.locator("main").innerText()).toMatch(/pool:100\tcold start\t[0-9.]+×/);

    // the matrix, coloured by one phase or the other: the same tile, two numbers, each named
    const tile = async (phase: string) => {
      await visit(`#/matrix?workload=sleep-bound&variant=pool:100${phase ? `&phase=${phase}` : ""}`, "matrix");
      return (await page.locator(`rect[data-cell-id="${id}"]`).getAttribute("aria-label")) ?? "";
    };
    const steady = await tile("");
    expect(await page.locator("figure.heatmap").innerText()).toContain("steady state");
    // the other cells ran once per JVM: marked as cold only in the steady view
    const once = page.locator(`rect[data-cell-id="debian-21.linux.cpus-1.par-auto.max-auto.minr-auto.sleep-bound"]`);
    expect(await once.getAttribute("aria-label")).toContain("cold runs only");
    const cold = await tile("cold-start");
    await page.screenshot({ path: join(ARTIFACTS, "matrix-cold-start.png"), fullPage: true });
    expect(await page.locator("figure.heatmap").innerText()).toContain("cold start");
    const ratioIn = (label: string) => Number(/virtual is ([0-9.]+)×/.exec(label)?.[1]);
    expect(ratioIn(steady)).toBeGreaterThan(ratioIn(cold));

    // history and compare choose too
    await visit(`#/history?workload=sleep-bound&cell=${id}&phase=cold-start`, "history");
    expect(await page.locator("figure.history svg circle").count()).toBe(2 * 2); // 2 variants × 2 scheduled runs
    await visit(`#/compare?phase=cold-start`, "compare");
    expect(await page.locator("#comparisons").innerText()).toContain("% cold start");
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("says so when the URL names a run the site does not have, instead of showing the newest", async () => {
    for (const view of ["matrix", "cell", "compare", "run"]) {
      await visit(`#/${view}?run=NOPE`, view, view === "matrix" ? "unknown-run" : undefined);
      expect(await page.locator(".unknown-run").innerText()).toContain("no run NOPE");
      expect(await page.locator("figure.heatmap, table.stats, #comparisons").count()).toBe(0);
      expect(await page.locator("select[name=run] option").first().innerText()).toBe("— pick a run —");
    }
    // a workload, JDK, cell or variant the data does not have: said, with what is shown instead
    await visit("#/matrix?workload=NOPE&jdk=debian-99", "matrix");
    const matrixNote = await page.locator(".unknown-param").innerText();
    expect(matrixNote).toContain("“NOPE” (showing every workload)");
    expect(matrixNote).toContain("“debian-99” (showing every JDK)");
    await visit("#/history?workload=NOPE", "history");
    expect(await page.locator(".unknown-param").innerText()).toContain("no workload in the history “NOPE”");
    await visit("#/history?workload=sleep-bound&cell=NOPE&variant=pool:7", "history");
    const historyNote = await page.locator(".unknown-param").innerText();
    expect(historyNote).toContain("cell in sleep-bound's history “NOPE”");
    expect(historyNote).toContain("“pool:7”");
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("shows the run: host, matrix, failures and durations", async () => {
    await visit("#/run", "run", "run");
    const main = await page.locator("main").innerText();
    expect(main).toContain("AMD EPYC 7763");
    expect(main).toContain("semeru-21");
    expect(await page.locator("#failures tbody tr").count()).toBe(1);
    expect(await page.locator("figure.durations svg rect").count()).toBeGreaterThan(0);
  });

  it("shows the pinning penalty as each workload's headline: a loss on JDK 21, none on JDK 25", async () => {
    await visit("#/matrix?workload=pinning", "matrix", "matrix-pinning");
    await page.locator("figure.heatmap").screenshot({ path: join(ARTIFACTS, "matrix-pinning-tiles.png") });
    const svg = (await page.locator("figure.heatmap svg").last().textContent()) ?? "";
    // #51: each tile says its class in words; JDK 25's 1.00× lies within the band: no difference, never a win
    expect(svg).toContain("hurts0.128× · 90 % 0.126–0.129×over reentrant-lock");
    expect(svg).toMatch(/no difference1× · 90 % 0\.98\d*–1\.00\d*×over reentrant-lock/);
    expect(await page.locator("ul.contrasts").innerText()).toContain("JEP 491");
    const j21 = "debian-21.linux.cpus-2.par-auto.max-auto.minr-auto.pinning";
    expect(await page.locator(`rect[data-cell-id="${j21}"]`).getAttribute("aria-label")).toContain("a loss");
    // the matrix's table links a profiled cell's why panel
    expect(await page.locator(`#cells a[href*="focus=why"][href*="${j21}"]`).count()).toBe(1);
    await visit(`#/cell?cell=${j21}`, "cell", "cell-pinning-21");
    expect(await page.locator("button.to-why").count()).toBe(1);
    const headline = await page.locator("section.headline").innerText();
    expect(headline).toMatch(/synchronized runs at 0\.12\d× the speed of reentrant-lock/);
    expect(headline).toContain("slower");
    // pinned time and where it happened, recorded by JFR in the JVM
    expect(await page.locator("main").innerText()).toMatch(/pinned at/);
    // issue #20: why — the profiling runs' JFR summaries side by side, the recordings downloadable
    await visit(`#/cell?cell=${j21}`, "cell");
    const why = page.locator("section.why");
    await why.screenshot({ path: join(ARTIFACTS, "cell-pinning-21-why.png") });
    const whyText = await why.innerText();
    expect(whyText).toContain("64 times");
    expect(whyText).toContain("Pinning.sleep");
    expect(await why.locator("figure.cpu-over-time svg path").count()).toBeGreaterThan(0); // CPU load over time
    expect(await why.locator("table.why-table thead th").allInnerTexts()).toEqual(["", "synchronized", "reentrant-lock"]);
    // two CPU samples a side: counts of the total, never a share, and no differential to read a difference into (#31)
    const hottest = await why.locator(".why-frames", { hasText: "Where the CPU went" }).innerText();
    expect(hottest).toContain("×1 of 2 samples");
    expect(hottest).not.toContain("%");
    expect(await why.locator("table.cpu-differential").count()).toBe(0);
    expect(whyText).toContain("Not compared: 2 and 2 CPU samples are too few");
    const link = why.locator("a", { hasText: "synchronized (.jfr)" });
    const response = await page.request.get(new URL((await link.getAttribute("href"))!, page.url()).toString());
    expect(response.status()).toBe(200);
    expect(await response.text()).toContain("JFR stand-in");
    await visit(`#/cell?cell=${j21.replace("debian-21", "debian-25")}`, "cell", "cell-pinning-25");
    expect(await page.locator("section.headline").innerText()).toContain("no win or loss the data can show");
    expect(await page.locator("section.why").innerText()).toContain("never");
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("fits every view at 1,400 px, 800 px and a phone: no page wider than its window, plots sized to their room (#54)", async () => {
    const overflow = () =>
      page.evaluate(() => {
        const main = document.getElementById("main")!;
        const wide = [...main.querySelectorAll("svg")].filter((svg) => {
          const box = svg.getBoundingClientRect();
          // a figure that scrolls must say so (the matrix's scroll note)
          return box.right > main.getBoundingClientRect().right + 1 && !(svg.closest("figure.heatmap") ?? svg.closest("figure"))?.querySelector(".scroll-note");
        });
        // what sticks out of the window, for the message
        const out = [...document.body.querySelectorAll("*")]
          .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest("table, figure"))
          .slice(0, 5)
          .map((e) => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right)}px`);
        // a table wider than its box scrolls in it, and a keyboard can reach it
        const unreachable = [...main.querySelectorAll("table")].filter((t) => t.scrollWidth > t.clientWidth + 1 && t.tabIndex < 0 && !t.querySelector("a, button, select")).length;
        return { page: document.documentElement.scrollWidth - window.innerWidth, svgs: wide.length, out: out.join(", "), unreachable };
      });
    const cell = `${ITERATED_JDK.jdk}.linux.cpus-1.par-auto.max-auto.minr-auto.sleep-bound`;
    const views = [
      ["", "matrix"],
      ["#/matrix?workload=sleep-bound", "matrix"],
      [`#/cell?cell=${cell}`, "cell"],
      ["#/cell?cell=debian-25.linux.cpus-2.par-auto.max-auto.minr-auto.fib-fanout&focus=why", "cell"],
      [`#/cell?cell=debian-25.linux.cpus-2.par-auto.max-auto.minr-auto.${PROGRAM_WORKLOAD}`, "cell"],
      ["#/history?workload=sleep-bound&jdk=debian-21", "history"],
      ["#/compare", "compare"],
      ["#/run", "run"],
      ["#/runs", "runs"],
      [`#/ab?run=${AB_REGRESSION}`, "ab"],
      [`#/ab?run=${AB_AA}`, "ab"],
    ] as const;
    for (const [width, shot] of [[1400, "1400"], [800, "800"], [390, "phone"]] as const) {
      await page.setViewportSize({ width, height: 1000 });
      for (const [k, [hash, view]] of views.entries()) {
        await visit(hash, view, `every-view-${shot}-${k}-${view}`);
        const o = await overflow();
        expect(o.page, `${hash || "matrix"} at ${width} px: the page scrolls sideways (${o.out})`).toBeLessThanOrEqual(0);
        if (view !== "matrix") expect(o.svgs, `${hash} at ${width} px: a plot wider than its container`).toBe(0);
        expect(o.unreachable, `${hash} at ${width} px: a table scrolls but a keyboard cannot reach it`).toBe(0);
      }
    }
    await page.setViewportSize({ width: 1400, height: 1000 });
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("puts an A/B row's verdict, with why, next to its name, and shows the noise it measured (#54)", async () => {
    await visit(`#/ab?run=${AB_AA}`, "ab");
    const headers = await page.locator("#ab-comparisons thead th").allInnerTexts();
    expect(headers.slice(0, 3)).toEqual(["cell", "variant", "verdict"]);
    expect(headers).toContain("noise");
    const verdicts = await page.locator("#ab-comparisons tbody tr td:nth-child(3)").allInnerTexts();
    expect(verdicts).toEqual(["unchanged: its whole interval is within ±3 %", "unchanged: its whole interval is within ±3 %"]);
    const noise = await page.locator("#ab-comparisons tbody tr td:nth-child(8)").allInnerTexts();
    expect(noise.sort()).toEqual(["±0.35 %", "±1.4 %"]);
    const kv = await page.locator("dl.kv").innerText();
    expect(kv).toContain("the baseline against itself (its odd blocks against its even ones) differed by 0.49 % in the median comparison, 0.72 % at most");
    expect(await page.locator(".sides").innerText()).toContain("the same build as the candidate, measured as a side of its own");
    // how it was computed is folded, not inline
    expect(await page.locator("details.method summary").innerText()).toBe("How this is computed");
    expect(await page.locator("details.method").getAttribute("open")).toBeNull();
  });

  it("history draws each cell in its own panel with its own scale, intervals as bands, the headline named", async () => {
    await visit("#/history?workload=sleep-bound&jdk=debian-21", "history", "history-panels");
    const panels = page.locator(".history-panel");
    expect(await panels.count()).toBe(4); // debian-21 × 2 CPU limits × 2 parallelism
    expect(await page.locator(".history-panel svg path[fill-opacity], .history-panel svg g[fill-opacity] path").count()).toBeGreaterThan(0);
    expect(await page.locator(".headline-note").innerText()).toContain("fastest platform-thread variant");
    // the headline over the runs: a line per cell, its dots a run each, and the panels named in words (issue #54)
    const headline = page.locator("figure.headline-history");
    expect(await headline.innerText()).toContain("above the line at 1×, the first of the two named is ahead");
    expect(await headline.locator("svg g[aria-label=dot] > *").count()).toBeGreaterThanOrEqual(4 * 2);
    expect(await panels.first().locator(".panel-title").innerText()).toMatch(/^debian-21, Linux, [12] CPUs?, /);
    expect(await page.locator("figure.history").innerText()).toContain("in UTC");
    await visit("#/compare", "compare");
    expect(await page.locator("#headlines").textContent()).toContain("vs pool:100");
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("frames async-profiler's flame graphs in the why panel: fib-fanout's CPU goes to fib", async () => {
    await visit("#/cell?cell=debian-25.linux.cpus-2.par-auto.max-auto.minr-auto.fib-fanout", "cell");
    const flames = page.locator("section.why .flame-graphs");
    expect(await flames.innerText()).toContain("ctimer: a timer, as the cell may not open perf events");
    expect(await page.locator("section.why").innerText()).toContain("FibFanout.fibonacci");
    const frames = flames.locator("iframe.flame-frame");
    expect(await frames.count()).toBe(2);
    for (const [k, variant] of ["sequential", "caller-virtual"].entries()) {
      const frame = page.frameLocator("iframe.flame-frame").nth(k);
      await expect.poll(async () => frame.locator("h1").innerText()).toContain(`${variant} — CPU`);
    }
    await page.waitForTimeout(300); // the page draws its canvas after load
    await flames.screenshot({ path: join(ARTIFACTS, "cell-flame-graphs.png") });
    // the differential: caller-virtual (the headline's subject) against sequential, method by method
    const differential = page.locator("table.cpu-differential");
    expect(await differential.locator("thead th").allInnerTexts()).toEqual(["method", "caller-virtual", "sequential", "difference (points)"]);
    expect(await differential.innerText()).toContain("FibFanout.fibonacci");
    // compare rows link both runs' profiles: "why did this change?"
    await visit("#/compare", "compare");
    // (the row names its cell by the parts of the id that differ; the whole id is the link's tooltip)
    const row = page.locator("#comparisons tr", { has: page.locator('a[title="debian-25.linux.cpus-2.par-auto.max-auto.minr-auto.fib-fanout"]') }).first();
    const why = row.locator(".why-links a");
    expect(await why.allInnerTexts()).toEqual(["candidate", "baseline"]);
    await why.first().click();
    await ready(page, "cell");
    await expect.poll(() => page.evaluate(() => document.getElementById("why")!.getBoundingClientRect().top)).toBeLessThan(200);
    // the deep link loaded afresh (issue #31: it rendered blank in headless Chromium): the why panel is what the
    // window shows, drawn
    await page.goto("about:blank");
    await page.goto(host.url("#/cell?cell=debian-25.linux.cpus-2.par-auto.max-auto.minr-auto.fib-fanout&focus=why"));
    await ready(page, "cell");
    await expect.poll(() => page.evaluate(() => document.getElementById("why")!.getBoundingClientRect().top)).toBeLessThan(200);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(ARTIFACTS, "cell-focus-why.png") });
    const shown = await page.evaluate(() => {
      const el = document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 3);
      return { inWhy: !!el?.closest("#why"), text: document.getElementById("why")!.innerText.length };
    });
    expect(shown.inWhy).toBe(true);
    expect(shown.text).toBeGreaterThan(200);
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("keeps a profiled run's flame graphs after three later runs without profiles (#31)", async () => {
    // its own site: the profiled fib-fanout cell, then three runs of it without profiles (publish's default keeps
    // the profiles of the newest 3 runs *that have any*; it used to count the three later ones and drop them)
    const work = mkdtempSync(join(tmpdir(), "loom-e2e-profiles-"));
    const site = join(work, "site");
    const cell = flameCell();
    const days = ["2026-11-05T02:00:00Z", "2026-11-06T02:00:00Z", "2026-11-07T02:00:00Z", "2026-11-08T02:00:00Z"];
    days.forEach((startedAt, k) => {
      const spec = { runId: `2026110${5 + k}T020000Z-p${k}p${k}`, startedAt, trigger: "schedule", branch: "main", virtualScale: 1, jdkBuild: "25.0.1+8" };
      publish(writeRun(join(work, "runs"), spec, [k === 0 ? cell : { ...structuredClone(cell), profiles: undefined }]), site);
    });
    const second = await serve(site, BASE);
    try {
      await page.goto(second.url(`#/cell?run=20261105T020000Z-p0p0&cell=${cell.cellId}&focus=why`));
      await ready(page, "cell");
      const frames = page.locator("section.why .flame-graphs iframe.flame-frame");
      expect(await frames.count()).toBe(2);
      await expect.poll(async () => page.frameLocator("iframe.flame-frame").first().locator("h1").innerText()).toContain("sequential — CPU");
      // a later run's cell has none, and says so
      await page.goto(second.url(`#/cell?run=20261108T020000Z-p3p3&cell=${cell.cellId}`));
      await ready(page, "cell");
      expect(await page.locator("section.why .flame-graphs").count()).toBe(0);
    } finally {
      await second.close();
    }
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("says why a skipped cell was skipped, apart from failures", async () => {
    const id = "semeru-21.linux.cpus-2.par-1.max-auto.minr-auto.mass-start";
    await visit("#/matrix?workload=mass-start", "matrix");
    expect(await page.locator(`rect[data-cell-id="${id}"]`).getAttribute("aria-label")).toContain("skipped");
    await visit(`#/cell?cell=${id}`, "cell", "cell-skipped");
    const main = await page.locator("main").innerText();
    expect(main).toContain("Why it was skipped");
    expect(main).not.toContain("Why it failed");
    expect(main).toContain("no openj9 JDK 21 on this host");
    expect(await page.locator(".reason-skipped").count()).toBe(1);
    // its execution block says it did not run, not a duration and a variant order as if it had (issue #54)
    expect(main).toContain("Not run: the ");
    expect(main).not.toContain("variant order");
    await visit("#/run", "run");
    const words = "mass-start — semeru-21, Linux, 2 CPUs, scheduler parallelism 1";
    expect(await page.locator("#failures").innerText()).not.toContain(words);
    expect(await page.locator("#skipped").innerText()).toContain(words);
    expect(await page.locator(`#skipped a[href*="${id}"]`).count()).toBe(1);
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("reads well in the dark theme", async () => {
    await page.emulateMedia({ colorScheme: "dark" });
    await visit("", "matrix", "matrix-dark");
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).toBe("rgb(18, 20, 23)");
    await visit("#/cell?cell=debian-21.linux.cpus-2.par-auto.max-auto.minr-auto.pinning", "cell", "cell-pinning-21-dark");
    await visit("#/history?workload=sleep-bound&jdk=debian-21", "history", "history-dark");
    await page.emulateMedia({ colorScheme: "light" });
    expect(problems, problems.join("\n")).toEqual([]);
  });
});
