import * as Plot from "@observablehq/plot";
import { loadCells, loadRun } from "../data/load";
import type { CellRecord } from "../data/types";
import { type CellProfile, cellTitle, cpuDifferential, disturbedFigure, earlierAttempts, FEW_SAMPLES, engineWords, metricOf, points, reproduceCommand, seriesOf, shortBenchmark, telemetry, unitOf, variantStats, whyRows } from "../shape/cell";
import { basis, forkRun, type IterationPoint, iterated, iterationPoints, notSteadyForks } from "../shape/phase";
import { variantScale } from "../ui/colours";
import { type Child, h } from "../ui/dom";
import { bytes, ms, num, percent, ratio } from "../ui/format";
import { headlineOf, headlineSentence } from "../shape/matrix";
import { isService } from "../shape/load";
import { underLoad } from "./underload";
import { capacity } from "./capacity";
import { isCapacity } from "../shape/capacity";
import type { Phase } from "../shape/phase";
import { type Context, chosenRun, unknownRun, empty, keyValues, link, phaseOf, plotWidth, section, table } from "./common";

export async function cellView(ctx: Context): Promise<Child[]> {
  const unknown = unknownRun(ctx, "Cell");
  if (unknown) return unknown;
  const run = chosenRun(ctx);
  if (!run) return [empty("No runs published yet.")];
  const [manifest, cells] = await Promise.all([loadRun(run.runId), loadCells(run.runId)]);
  const cell = cells.find((c) => c.cellId === ctx.params.cell);
  if (!cell) {
    return [
      h("h1", {}, "Cell"),
      empty(`Run ${run.runId} has no cell ${ctx.params.cell ?? "(none named)"}. Pick one in the matrix.`),
      link("matrix", { run: run.runId }, "← Matrix of this run"),
    ];
  }
  const c = cell.coordinates;
  const metric = metricOf(cell);
  // a link that asks for the why panel ("why did this regress?" from compare) lands on it once it is drawn
  if (ctx.params.focus === "why") requestAnimationFrame(() => document.getElementById("why")?.scrollIntoView());
  const env = cell.environment;
  const command = reproduceCommand(manifest, cell);
  const copy = h(
    "button",
    {
      type: "button",
      onclick: async (e: Event) => {
        const button = e.currentTarget as HTMLButtonElement;
        try {
          await navigator.clipboard.writeText(command);
          button.textContent = "Copied";
        } catch {
          // no clipboard permission (e.g. not a secure context): select the text so Ctrl+C works
          const selection = getSelection();
          selection?.selectAllChildren(document.getElementById("reproduce")!);
          button.textContent = "Selected — press Ctrl+C";
        }
      },
    },
    "Copy",
  );

  return [
    h(
      "nav",
      { class: "crumbs" },
      link("matrix", { run: run.runId, workload: c.workload }, `← ${c.workload} in run ${run.runId}`),
      " · ",
      link("history", { workload: c.workload, cell: cell.cellId }, "History of this cell"),
    ),
    h("h1", { class: "cell-title" }, cellTitle(c)),
    h("p", { class: "cell-id" }, h("code", {}, cell.cellId)),
    h(
      "p",
      { class: `status status-${cell.status}` },
      `${cell.status}`,
      env ? (env.attested ? " · attested" : " · NOT attested: see the attestation below") : " · no environment recorded",
      disturbedFigure(cell) ? " · DISTURBED: see “Other work on the host” below" : "",
    ),
    headlineBlock(cell, phaseOf(ctx)),
    keyValues([
      ["JDK", `${c.jdk} (${c.vm} ${c.version})`],
      ["OS", c.os],
      ["CPU limit", `${c.cpus}${c.cpuset && c.cpuset !== "all" ? ` on CPUs {${c.cpuset}}` : ""}`],
      ["Scheduler", `parallelism ${c.parallelism}, maxPoolSize ${c.maxPoolSize}, minRunnable ${c.minRunnable}`],
      ["Workload", c.workload],
    ]),
    cell.reason || cell.logTail
      ? section(
          cell.status === "skipped"
            ? "Why it was skipped"
            : cell.status === "ok"
              ? "Notes"
              : cell.status === "invalid"
                ? "Why its numbers are invalid"
                : "Why it failed",
          cell.reason ? h("p", { class: cell.status === "skipped" ? "reason reason-skipped" : "reason" }, cell.reason) : null,
          cell.logTail ? h("pre", { class: "log" }, cell.logTail) : null,
        )
      : null,
    section("Reproduce this cell", h("div", { class: "reproduce" }, h("code", { id: "reproduce" }, command), copy)),
    isCapacity(cell) ? capacity(cell) : isService(cell) ? underLoad(cell) : null,
    cell.measurements.length ? repetitions(cell, metric) : null,
    cell.measurements.some(iterated) ? iterationsChart(cell) : null,
    cell.measurements.length ? statsTable(cell, metric) : null,
    cell.speedups?.length
      ? section(
          cell.baseline ? `Speedup over the baseline (${cell.baseline})` : "Speedup of virtual threads",
          table(
            cell.baseline
              ? ["variant", "over", "benchmark", "metric", "ratio", "CI (its level)"]
              : ["over", "metric", "ratio", "CI (its level)"],
            cell.speedups.map((s) =>
              cell.baseline
                ? [s.over, s.variant, s.benchmark ? shortBenchmark(s.benchmark) : "—", s.metric, ratio(s.ratio), interval(s)]
                : [s.variant, s.metric, ratio(s.ratio), interval(s)],
            ),
          ),
        )
      : null,
    cell.measurements.length ? telemetryTable(cell) : null,
    cell.profiles?.length ? whyPanel(cell, run.runId, run.profiles === true, run.recordings === true) : null,
    env ? environmentBlock(cell) : null,
    interferenceBlock(cell),
    executionBlock(cell),
  ];
}

/**
 * The workload's headline contrast first (issue #19): what this cell is about in words, and the same number,
 * comparator and reading as its matrix tile — so the cell view can never claim more than the matrix.
 */
function headlineBlock(cell: CellRecord, phase: Phase): HTMLElement | null {
  const t = headlineOf(cell, phase);
  if (!t || !cell.contrast) return null;
  return h(
    "section",
    { class: `headline headline-${t.reading}`, "aria-label": "Headline" },
    h("h2", {}, phase === "cold-start" ? "Headline (cold start)" : "Headline"),
    h("p", { class: "contrast-words" }, cell.contrast.words),
    h("p", { class: "headline-verdict" }, headlineSentence(t)),
    cell.profiles?.length
      ? h(
          "p",
          {},
          h(
            "button",
            { type: "button", class: "to-why", onclick: () => document.getElementById("why")?.scrollIntoView() },
            "Why: what the JVM did in each variant ↓",
          ),
        )
      : null,
  );
}

/**
 * Why the numbers are what they are (issue #20): each variant's profiling run — one more JVM after its timed
 * ones, with JFR on — side by side, its longest pins and its hottest methods listed, the recording downloadable
 * where publish kept it.
 */
function whyPanel(cell: CellRecord, runId: string, kept: boolean, recordings: boolean): HTMLElement {
  const { variants, rows } = whyRows(cell);
  const profiles = cell.profiles ?? [];
  const frames = (title: string, pick: (p: CellProfile) => { frame: string; count: number; totalMs?: number }[], total?: (p: CellProfile) => number) =>
    h(
      "div",
      { class: "why-frames" },
      h("h3", {}, title),
      ...profiles.map((p) => {
        const list = pick(p);
        return h(
          "div",
          {},
          h("strong", {}, p.variant),
          list.length
            ? h(
                "ol",
                {},
                list.map((f) =>
                  h(
                    "li",
                    {},
                    h("code", {}, f.frame),
                    ` ×${f.count}` +
                      // a share only of enough samples (issue #31): of a handful, the count and the total say it
                      (f.totalMs !== undefined
                        ? `, ${ms(f.totalMs)}`
                        : total
                          ? total(p) >= FEW_SAMPLES
                            ? ` (${Math.round((f.count / total(p)) * 100)} %)`
                            : ` of ${total(p)} samples`
                          : ""),
                  ),
                ),
              )
            : h("p", { class: "empty" }, p.jfr ? "none" : (p.unavailable ?? "no profile")),
        );
      }),
    );
  return h(
    "section",
    { class: "why", id: "why", "aria-label": "Why" },
    h("h2", {}, "Why: what the JVM did in each variant"),
    h(
      "p",
      { class: "explain" },
      "From one more JVM per variant after its timed repetitions (never among the samples above), recording with JFR: HotSpot's profile settings, every virtual-thread pin whatever its length. A frame is the first outside the JDK; pins and contention are listed longest first, CPU samples by how often the method was on top.",
    ),
    table(["", ...variants], rows.map((r) => [r.label, ...r.values]), { class: "why-table" }),
    frames("Pinned at", (p) => p.jfr?.pinnedFrames ?? []),
    frames("Where the CPU went", (p) => p.flame?.cpuFrames ?? p.jfr?.cpuFrames ?? [], (p) => p.flame?.cpuSamples ?? p.jfr?.cpuSamples ?? 0),
    cpuOverTime(cell),
    differential(cell),
    profiles.some((p) => p.flame) ? flameGraphs(cell, runId, kept) : null,
    !profiles.some((p) => p.file)
      ? null
      : recordings
      ? h(
          "p",
          { class: "explain recordings" },
          "Recordings: ",
          ...profiles.flatMap((p, k) => [
            k ? " · " : "",
            p.file
              ? h("a", { href: profileHref(runId, cell.cellId, p.file), download: `${cell.cellId}.${p.file}` }, `${p.variant} (.jfr)`)
              : `${p.variant}: none`,
          ]),
          " — open them in JDK Mission Control, or read them with `jfr print`.",
        )
      : h(
          "p",
          { class: "explain recordings" },
          "The JFR recordings are in the run's raw output (raw/<cell>/<variant>.profile.jfr); publish --publish-recordings puts the newest runs' here too.",
        ),
  );
}

/** The JVM's CPU load over each variant's profiling run (JFR, every 100 ms): carriers busy, idle or starved. */
function cpuOverTime(cell: CellRecord): HTMLElement | null {
  const points = (cell.profiles ?? []).flatMap((p) => (p.jfr?.cpuLoad ?? []).map((l) => ({ variant: p.variant, ms: l.ms, jvm: l.jvm, machine: l.machine })));
  if (points.length < 2) return null;
  return h(
    "figure",
    { class: "cpu-over-time" },
    h("h3", {}, "CPU load over the profiling run"),
    Plot.plot({
      width: plotWidth(700),
      height: 180,
      marginLeft: 50,
      style: { fontSize: "12px", background: "transparent" },
      x: { label: "ms into the run →", grid: true },
      y: { label: "↑ JVM CPU (of the machine)", domain: [0, 1], tickFormat: "%", grid: true },
      color: { legend: true, label: "variant", ...variantScale([...new Set(points.map((p) => p.variant))]) },
      marks: [
        Plot.lineY(points, { x: "ms", y: "jvm", stroke: "variant", strokeWidth: 1.5 }),
        Plot.dot(points, { x: "ms", y: "jvm", fill: "variant", r: 2, title: (d: { variant: string; ms: number; jvm: number; machine: number }) => `${d.variant} at ${Math.round(d.ms)} ms: JVM ${Math.round(d.jvm * 100)} %, machine ${Math.round(d.machine * 100)} %` }),
      ],
    }),
  );
}

/** Where the CPU went, one variant against the other: each method's share of its samples, the largest differences first. */
function differential(cell: CellRecord): HTMLElement | null {
  const d = cpuDifferential(cell);
  if (!d) return null;
  const pct = (v?: number) => (v === undefined ? "—" : `${Math.round(v * 100)} %`);
  // shares of a handful of samples differ by chance alone: then no table of percentages to read a difference into
  const few = Math.min(...d.samples) < FEW_SAMPLES;
  return h(
    "div",
    { class: "why-differential" },
    h("h3", {}, `Where the CPU went: ${d.subject} against ${d.reference}`),
    h(
      "p",
      { class: "explain" },
      few
        ? `Not compared: ${d.samples[0]} and ${d.samples[1]} CPU samples are too few to tell a method's share within a few points (a run this short is mostly waiting; its CPU says little). The methods sampled are listed above, with their counts.`
        : `Each method's share of its variant's CPU samples (the methods on top of a sample), the largest differences first, from ${d.samples[0]} and ${d.samples[1]} samples.` +
            " Both sides list their 8 hottest methods, so “—” means under that side's eighth.",
    ),
    few
      ? null
      : table(
          ["method", d.subject, d.reference, "difference (points)"],
          d.rows.map((r) => [h("code", {}, r.frame), pct(r.subject), pct(r.reference), `${r.difference >= 0 ? "+" : "−"}${Math.abs(Math.round(r.difference * 100))}`]),
          { class: "cpu-differential" },
        ),
  );
}

/**
 * async-profiler's flame graphs, side by side: its own interactive pages (made by its converter at run time), each
 * variant's CPU graph framed here and both graphs a click away.
 */
function flameGraphs(cell: CellRecord, runId: string, kept: boolean): HTMLElement {
  const profiles = cell.profiles ?? [];
  return h(
    "div",
    { class: "flame-graphs" },
    h("h3", {}, "Flame graphs"),
    kept
      ? null
      : h("p", { class: "explain" }, "This site no longer keeps this run's flame graphs (publish --keep-profiles keeps the newest runs')."),
    h(
      "div",
      { class: "flames" },
      ...profiles.map((p) =>
        h(
          "figure",
          { class: "flame" },
          h(
            "figcaption",
            {},
            h("strong", {}, p.variant),
            p.flame
              ? [
                  ` — ${p.flame.cpuSamples} CPU samples (${engineWords(p.flame.engine)}) · `,
                  kept ? h("a", { href: profileHref(runId, cell.cellId, p.flame.cpu), target: "_blank", rel: "noopener" }, "CPU") : "CPU",
                  " · ",
                  kept ? h("a", { href: profileHref(runId, cell.cellId, p.flame.wall), target: "_blank", rel: "noopener" }, "wall clock") : "wall clock",
                ]
              : ` — ${p.flameUnavailable ?? "none"}`,
          ),
          p.flame && kept
            ? h("iframe", {
                src: profileHref(runId, cell.cellId, p.flame.cpu),
                title: `CPU flame graph of ${p.variant}`,
                // async-profiler's page runs its own script: in an opaque origin, away from the dashboard
                sandbox: "allow-scripts",
                class: "flame-frame",
              })
            : null,
        ),
      ),
    ),
  );
}

/** Where publish puts a cell's recordings: data/runs/<run>/profiles/<cell>/<file>. */
function profileHref(runId: string, cellId: string, file: string): string {
  return `data/runs/${encodeURIComponent(runId)}/profiles/${encodeURIComponent(cellId)}/${encodeURIComponent(file)}`;
}

/** A ratio's interval with the level it really has (90 % at 3 against 3); older records: a bootstrap, level unknown. */
function interval(s: { ci95: number[]; ciLevel?: number }): string {
  const level = s.ciLevel === undefined ? "bootstrap" : `${Math.round(s.ciLevel * 1000) / 10} %`;
  return `${num(s.ci95[0])}–${num(s.ci95[1])} (${level})`;
}

function repetitions(cell: CellRecord, metric: string): HTMLElement {
  const data = points(cell, metric);
  const stats = variantStats(cell, metric);
  const unit = unitOf(cell);
  const intervals = stats.filter((s) => s.ci);
  const bounds = metric === "wallMs" ? stats.filter((s) => s.lowerBoundMs !== undefined) : [];
  const width = plotWidth(stats.some((x) => x.variant.length > 18) ? 1100 : 900);
  // room for the longest label (a user workload's is "variant · Class.method(params)"), at most half the plot;
  // a longer one is cut in its middle, so that the variant (first) and the parameters (last) stay (issue #31)
  const marginLeft = Math.min(600, Math.round(width * 0.5), Math.max(130, 16 + 6.8 * Math.max(...stats.map((x) => x.variant.length))));
  return section(
    "Repetitions",
    h(
      "p",
      { class: "explain" },
      (isService(cell)
        ? `Each dot is one repetition: a fresh server JVM measured under load for the window, after a warmup window (${unit});`
        : cell.measurements.some((m) => forkRun(m) === "jmh")
        ? `Each dot is one fork — a fresh JVM — and its JMH score over its measurement iterations, after JMH's warmup iterations (${unit});`
        : cell.measurements.some((m) => forkRun(m) === "program")
        ? `Each dot is one run of the program in a fresh JVM: its own number (or its whole process time, ${unit});`
        : cell.measurements.some(iterated)
        ? `Each dot is one fork — a fresh JVM — at its steady state (the median of its measured iterations, ${unit});`
        : `Each dot is one repetition in a fresh JVM (${unit}), its one run: a cold start;`) +
        ` the bar is the median with its confidence interval` +
        " (order statistics; its real coverage is in the table); the dashed line is the variant's lower bound." +
        " Hollow dots are outliers (modified Z-score above 14.826, hyperfine's threshold), kept in every statistic.",
    ),
    h(
      "figure",
      { class: "repetitions" },
      Plot.plot({
        width,
        height: 60 + stats.length * 46,
        marginLeft,
        marginBottom: 44,
        style: { fontSize: "12px", background: "transparent" },
        // inset: the extreme points sit inside the frame, not on the tick labels; the title below the ticks
        x: { label: `${metric} (${unit}) →`, grid: true, zero: metric !== "wallMs" ? false : undefined, inset: 10, labelOffset: 36 },
        y: { label: null, domain: stats.map((s) => s.variant) },
        marks: [
          Plot.axisY({ lineWidth: (marginLeft - 12) / 12, textOverflow: "ellipsis-middle", tickSize: 0 }),
          // a tick per variant band: Plot.ruleX with a y channel drew nothing (issue #19)
          Plot.tickX(bounds, { x: "lowerBoundMs", y: "variant", stroke: "var(--bound)", strokeDasharray: "4,2", strokeWidth: 2 }),
          Plot.link(intervals, {
            x1: (s) => s.ci![0],
            x2: (s) => s.ci![1],
            y: "variant",
            stroke: "var(--fg)",
            strokeWidth: 6,
            strokeOpacity: 0.3,
          }),
          Plot.tickX(stats.filter((s) => s.median !== undefined), { x: "median", y: "variant", stroke: "var(--fg)", strokeWidth: 3 }),
          Plot.dot(data, {
            x: "value",
            y: "variant",
            fill: (p: { outlier: boolean }) => (p.outlier ? "none" : "var(--accent)"),
            stroke: "var(--accent)",
            r: 4,
            title: (p: { repetition: number; value: number }) => `repetition ${p.repetition}: ${num(p.value)} ${unit}`,
          }),
        ],
      }),
    ),
  );
}

function statsTable(cell: CellRecord, metric: string): HTMLElement {
  const stats = variantStats(cell, metric);
  const unit = unitOf(cell);
  return section(
    "Per variant",
    table(
      [cell.baseline ? "variant · benchmark" : "variant", "rests on", `median (${metric}, ${unit})`, "CI", "CV", "cold start (median, CI)", "whole JVM (processMs)", "lower bound", "efficiency", "ceiling / error"],
      stats.map((s, i) => [
        s.variant + (s.unstable ? " ~ unstable" : "") + steadiness(cell.measurements[i]),
        basis(cell.measurements[i]),
        (metric === "wallMs" ? ms(s.median) : num(s.median)) + (s.scoreError === undefined ? "" : ` ± ${num(s.scoreError)} (JMH's error, its 99.9 % level)`),
        s.ci ? `${num(s.ci[0])}–${num(s.ci[1])} (${Math.round((s.ciLevel ?? 0) * 100)} %)` : "—",
        s.cv === undefined ? "—" : percent(s.cv),
        coldStart(cell.measurements[i]),
        ms(s.processMs),
        s.lowerBoundMs !== undefined ? ms(s.lowerBoundMs) : s.throughputBound !== undefined ? `${num(s.throughputBound)} req/s` : "—",
        s.efficiency !== undefined ? percent(s.efficiency) : s.throughputEfficiency !== undefined ? percent(s.throughputEfficiency) : "—",
        s.ceiling ? `ceiling at ${s.ceiling.threads} threads: ${s.ceiling.reason}` : (s.error ?? "—"),
      ]),
      { class: "stats" },
    ),
  );
}

/** " ↗ not steady in 1 of 3 forks" when a fork's measured iterations still trended; else nothing. */
function steadiness(m: CellRecord["measurements"][number]): string {
  const n = notSteadyForks(m);
  return n ? ` ↗ not steady in ${n} of ${m.samples.length} forks` : "";
}

/** The cold start's own summary where the forks iterated; a fork that ran once has only its cold run. */
function coldStart(m: CellRecord["measurements"][number]): string {
  // a service's server was warmed by the load before its window: no cold start was measured
  if (m.samples.some((s) => "latencyDistributionMs" in s)) return "— (warmed by load)";
  const c = m.coldStart;
  if (!c) {
    // JMH measures after its warmup and a program is judged by its own numbers: neither measured a cold start
    const run = forkRun(m);
    return run === "jmh" ? "— (JMH measures after its warmup)" : run === "program" ? "— (not measured apart)" : m.iterations ? "—" : "the median: one cold run per fork";
  }
  return `${ms(c.median)}${c.ci95 ? ` (${num(c.ci95[0])}–${num(c.ci95[1])})` : ""}`;
}

const ROLE_COLOUR: Record<IterationPoint["role"], string> = {
  "cold start": "var(--bad)",
  warmup: "var(--muted)",
  measured: "var(--accent)",
};

/**
 * Every iteration of every fork, in order: one line per fork, the cold start marked, warmups greyed —
 * so a reader sees the JVM warm up and whether the measured iterations settled.
 */
function iterationsChart(cell: CellRecord): HTMLElement {
  const data = iterationPoints(cell, seriesOf);
  const variants = [...new Set(data.map((p) => p.variant))];
  const line = (p: IterationPoint) => `${p.variant} · fork ${p.fork}`;
  return section(
    "Iterations inside each fork",
    h(
      "p",
      { class: "explain" },
      "Each line is one fork (a fresh JVM) running the workload again and again: the first iteration is its cold start" +
        " (red, its own statistic), grey ones are warmup (left out), blue ones are measured — their median is the fork's" +
        " steady state. A fork whose measured iterations still trend (Mann-Kendall, 5 %) is marked not steady in the table.",
    ),
    h(
      "div",
      { class: "iterations" },
      // one chart per variant, each on its own scale: a pool's 500 ms would flatten virtual threads' 50
      variants.map((variant) => {
        const own = data.filter((p) => p.variant === variant);
        return h(
          "figure",
          { class: "iteration-chart", "data-variant": variant },
          h("figcaption", {}, variant),
          Plot.plot({
            width: plotWidth(440),
            height: 200,
            marginLeft: 55,
            style: { fontSize: "12px", background: "transparent" },
            x: { label: "iteration →", ticks: Math.max(...own.map((p) => p.iteration)), tickFormat: "d", grid: true },
            y: { label: "↑ wall time (ms)", grid: true, zero: true, nice: true },
            marks: [
              Plot.lineY(own, { x: "iteration", y: "value", z: "fork", stroke: "var(--muted)", strokeOpacity: 0.6 }),
              ...(["warmup", "measured", "cold start"] as const).map((role) =>
                Plot.dot(
                  own.filter((p) => p.role === role),
                  {
                    x: "iteration",
                    y: "value",
                    fill: ROLE_COLOUR[role],
                    stroke: ROLE_COLOUR[role],
                    r: role === "cold start" ? 6 : 3,
                    symbol: role === "cold start" ? "star" : "circle",
                    title: (p: IterationPoint) => `${line(p)}, iteration ${p.iteration} (${p.role}): ${num(p.value)} ms`,
                  },
                ),
              ),
            ],
          }),
        );
      }),
    ),
    h(
      "p",
      { class: "legend iteration-roles" },
      (["cold start", "warmup", "measured"] as const).map((role) =>
        h("span", { class: "key" }, h("span", { class: "swatch", style: `background:${ROLE_COLOUR[role]}` }), ` ${role} `),
      ),
    ),
  );
}

function telemetryTable(cell: CellRecord): HTMLElement {
  return section(
    "Inside the JVM (the timed repetitions, median over them)",
    table(
      ["variant", "carriers used", "pinned events", "pinned time", "pinned at", "GC count", "GC time", "CPU time", "peak RSS"],
      cell.measurements.map(telemetry).map((t) => [
        t.variant,
        num(t.carriers),
        t.pinnedEventsUnavailable
          ? "not available on this VM"
          : t.pinnedEvents === undefined
            ? (cell.profiles ?? []).some((p) => p.jfr)
              ? "not recorded in these runs (the profiling run's JFR counted them: see Why)"
              : "not recorded in these runs"
            : num(t.pinnedEvents),
        t.pinnedMs === undefined ? "—" : ms(t.pinnedMs),
        t.pinnedAt ?? "—",
        num(t.gcCount),
        ms(t.gcMs),
        ms(t.cpuMs),
        bytes(t.peakRssBytes),
      ]),
      { class: "telemetry" },
    ),
  );
}

function environmentBlock(cell: CellRecord): HTMLElement {
  const env = cell.environment!;
  return section(
    "Environment and attestation",
    h(
      "p",
      { class: env.attested ? "attested" : "not-attested" },
      env.attested
        ? "Attested: every requested limit and setting below was observed from inside the JVM."
        : "Not attested: at least one requested limit or setting was not what the JVM observed.",
    ),
    table(
      ["setting", "requested", "observed", "", "note"],
      env.attestation.map((check) => [check.setting, check.requested, check.observed, check.ok ? "✓" : "✕ differs", check.note ?? ""]),
      { class: "attestation" },
    ),
    keyValues([
      ["available processors", String(env.availableProcessors)],
      ["scheduler", Object.entries(env.scheduler).map(([k, v]) => `${k} ${String(v)}`).join(", ")],
      ["VM", Object.values(env.vm).join(" · ")],
      ["Java", env.javaVersion],
      ["GC", env.gc.join(", ")],
      ["image", env.image ? `${env.image}${env.imageDigest ? ` (${env.imageDigest})` : ""}` : undefined],
      ["limits", Object.entries(env.limits).map(([k, v]) => `${k} ${String(v)}`).join(", ")],
      ["JAVA_TOOL_OPTIONS", env.javaToolOptions === undefined ? "(image's)" : env.javaToolOptions || "(empty)"],
      ["JVM arguments", (env.inputArguments ?? []).join(" ")],
    ]),
    env.javaVersionOutput ? h("pre", { class: "java-version" }, env.javaVersionOutput) : null,
  );
}

function executionBlock(cell: CellRecord): HTMLElement | null {
  const e = cell.execution;
  if (!e) return null;
  return section(
    "Execution",
    keyValues([
      ["backend", `${e.backend} (${e.driver})`],
      ["started", e.startedAt],
      ["duration", ms(e.durationMs)],
      ["variant order", e.variantOrder.join(", ")],
      ["fallback", e.fallbackReason],
      ["ran beside", e.parallel ? `on CPUs {${e.parallel.cpuset}} beside ${e.parallel.ranBeside.join(", ") || "nothing"}` : "alone"],
      ["earlier attempts", earlierAttempts(cell) ?? "none"],
      // issue #32: what its JVMs left running, killed when it ended (a container's end ends everything anyway)
      ["left running", e.leftBehind?.length ? `${e.leftBehind.length} process${e.leftBehind.length === 1 ? "" : "es"}, killed when the cell ended: ${e.leftBehind.join("; ")}` : "nothing"],
    ]),
  );
}

/**
 * Issue #32: what else the host did while the cell ran, read from the host — CPUs of other work over time, against
 * the threshold from which the cell is flagged — beside the numbers it may have moved.
 */
function interferenceBlock(cell: CellRecord): HTMLElement | null {
  const i = cell.execution?.interference;
  // a skipped cell was not measured (an older run's record may still carry a reading of its few milliseconds)
  if (!i || cell.status === "skipped") return null;
  const points = i.series.map((p) => ({ s: p.ms / 1000, cpus: p.otherCpus }));
  const figures: [string, string][] = [
    ["other work", `${num(i.otherCpusMean, 2)} CPUs on average, at most ${num(i.otherCpusMax, 2)} (${i.series.length} samples, every ${i.everyMs} ms)`],
    ["steal", i.stealCpusMean === undefined ? "not said by this host" : `${num(i.stealCpusMean, 2)} CPUs on average`],
    ["throttled", i.throttledMs === undefined ? "not said by this backend" : `${ms(i.throttledMs)} (the cell's own CPU quota held it back)`],
    ["CPU pressure", i.cpuPressureMean === undefined ? "this kernel has no PSI" : `${num(i.cpuPressureMean, 2)} % (some, avg10, on average; the cell's own waiting included)`],
    ["CPU clock", i.cpuMhz === undefined ? "not said by this host" : `${num(i.cpuMhz.mean, 0)} MHz on average over the CPUs and the cell (${num(i.cpuMhz.min, 0)}–${num(i.cpuMhz.max, 0)})`],
    ["read from", i.source],
  ];
  if (i.unavailable?.length) figures.push(["not known", i.unavailable.join("; ")]);
  return section(
    "Other work on the host",
    disturbedFigure(cell)
      ? h("p", { class: "banner disturbed", role: "note" }, `Disturbed: ${disturbedFigure(cell)}. Its numbers are kept, and may be slower or noisier than a quiet host's.`)
      : h("p", { class: "explain" }, `Quiet: other work stayed below ${num(i.thresholdCpus, 2)} CPUs on average, the level from which a cell is flagged.`),
    keyValues(figures),
    points.length > 1
      ? h(
          "figure",
          { class: "interference" },
          Plot.plot({
            width: plotWidth(700),
            height: 160,
            marginLeft: 50,
            style: { fontSize: "12px", background: "transparent" },
            x: { label: "s into the cell →", grid: true },
            y: { label: "↑ CPUs of other work", domain: [0, Math.max(2 * i.thresholdCpus, ...points.map((p) => p.cpus)) * 1.1], grid: true },
            marks: [
              Plot.ruleY([i.thresholdCpus], { stroke: "var(--warn)", strokeDasharray: "4,2" }),
              Plot.lineY(points, { x: "s", y: "cpus", stroke: "var(--accent)" }),
              Plot.dot(points, { x: "s", y: "cpus", r: 2, fill: "var(--accent)", title: (p: { s: number; cpus: number }) => `${num(p.s, 2)} s: ${num(p.cpus, 2)} CPUs of other work` }),
            ],
          }),
          h("figcaption", {}, "CPUs used outside the cell and this runner, each sample over the interval before it; the dashed line is where a cell is flagged disturbed"),
        )
      : null,
  );
}
