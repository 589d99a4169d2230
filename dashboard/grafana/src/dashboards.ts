import { PanelBuilder as BarGauge } from "@grafana/grafana-foundation-sdk/bargauge";
import { BarGaugeDisplayMode, ReduceDataOptionsBuilder, VizOrientation } from "@grafana/grafana-foundation-sdk/common";
import {
  DashboardBuilder,
  DashboardLinkBuilder,
  DashboardLinkType,
  QueryVariableBuilder,
  ThresholdsConfigBuilder,
  ThresholdsMode,
  VariableRefresh,
  VariableSort,
} from "@grafana/grafana-foundation-sdk/dashboard";
import { PanelBuilder as Stat } from "@grafana/grafana-foundation-sdk/stat";
import { PanelBuilder as Table } from "@grafana/grafana-foundation-sdk/table";
import { PanelBuilder as TimeSeries } from "@grafana/grafana-foundation-sdk/timeseries";
import { POSTGRES, SqlQueryBuilder } from "./sql";

// The Grafana dashboards over the Postgres sink (runner/src/main/resources/db/migration): matrix,
// history and compare. Typed here with the Grafana Foundation SDK; `npm run grafana` writes the JSON
// that provisioning loads (dashboards/*.json), and a test checks that JSON is current.
//
// Template variables: $run, $baseline, $candidate (run ids), $workload, $jdk (multi-value: Grafana
// interpolates it as a quoted list for SQL data sources, hence `IN ($jdk)`), $variant.

const variable = (name: string, label: string, sql: string) =>
  new QueryVariableBuilder(name)
    .label(label)
    .datasource(POSTGRES)
    .query(sql.trim())
    .refresh(VariableRefresh.OnTimeRangeChanged)
    .sort(VariableSort.Disabled);

/** A bar per row of the query (a cell), not one reduced value per column. */
const EVERY_ROW = new ReduceDataOptionsBuilder().values(true).calcs([]);

const RUNS_NEWEST_FIRST = "SELECT run_id FROM runs ORDER BY started_at DESC";

const workloadVariable = () =>
  variable("workload", "Workload", "SELECT DISTINCT workload FROM cells ORDER BY 1");

const jdkVariable = () =>
  variable("jdk", "JDK", "SELECT DISTINCT jdk FROM cells WHERE workload = '$workload' ORDER BY 1")
    .multi(true)
    .includeAll(true);

const links = () => [
  new DashboardLinkBuilder("loom-matrix").type(DashboardLinkType.Dashboards).tags(["loom-matrix"]).asDropdown(false),
];

const ratioThresholds = (badAbove: boolean) =>
  new ThresholdsConfigBuilder().mode(ThresholdsMode.Absolute).steps(
    badAbove
      ? [
          { value: null as unknown as number, color: "green" },
          { value: 0.9, color: "text" },
          { value: 1.1, color: "red" },
        ]
      : [
          { value: null as unknown as number, color: "red" },
          { value: 1, color: "text" },
          { value: 1.1, color: "blue" },
        ],
  );

export function matrixDashboard() {
  return new DashboardBuilder("loom-matrix · matrix")
    .uid("loom-matrix-matrix")
    .tags(["loom-matrix"])
    .description("One run's cells for a workload: status, attestation, medians and the speedup of virtual threads.")
    .time({ from: "now-90d", to: "now" })
    .withVariable(variable("run", "Run", RUNS_NEWEST_FIRST))
    .withVariable(workloadVariable())
    .withVariable(jdkVariable())
    .links(links())
    .withPanel(
      new Stat()
        .title("Cells")
        .description(
          "Cells of the run for this workload and JDKs, by outcome; disturbed: measured beside other work on the host" +
            " past the threshold the record states (kept, not failed — see the Cells table's figures).",
        )
        .gridPos({ x: 0, y: 0, w: 8, h: 5 })
        .withTarget(
          new SqlQueryBuilder(`
SELECT count(*) FILTER (WHERE status = 'ok') AS "ok",
       count(*) FILTER (WHERE status IN ('failed', 'timeout')) AS "failed",
       count(*) FILTER (WHERE status = 'skipped') AS "skipped",
       count(*) FILTER (WHERE attested IS FALSE) AS "not attested",
       count(*) FILTER (WHERE disturbed IS NOT NULL) AS "disturbed"
FROM cells
WHERE run_id = '$run' AND workload = '$workload' AND jdk IN ($jdk)`).refId("A"),
        ),
    )
    .withPanel(
      new BarGauge()
        .title("Speedup of virtual threads")
        .description(
          "Per cell, on the metric the cell is judged by (its record's `metric`: wall time, throughput for a" +
            " load test, a user benchmark's JMH score), oriented by its direction so that > 1 always means the" +
            " first variant wins: virtual threads for the built-in workloads, each variant over the baseline for your own.",
        )
        .gridPos({ x: 8, y: 0, w: 16, h: 14 })
        .orientation(VizOrientation.Horizontal)
        .displayMode(BarGaugeDisplayMode.Gradient)
        .min(0)
        .unit("x")
        .reduceOptions(EVERY_ROW)
        .thresholds(ratioThresholds(false))
        .withTarget(
          new SqlQueryBuilder(`
SELECT CASE WHEN c.baseline IS NULL THEN c.cell_id || ' · over ' || o.variant
            ELSE c.cell_id || ' · ' || v.variant || ' over ' || o.variant || ' · ' || v.benchmark END AS "cell",
       ${better("v", "o")} AS "speedup"
FROM cells c
JOIN measurements v ON v.run_id = c.run_id AND v.cell_id = c.cell_id
JOIN measurements o ON o.run_id = c.run_id AND o.cell_id = c.cell_id AND o.benchmark = v.benchmark
WHERE c.run_id = '$run' AND c.workload = '$workload' AND c.jdk IN ($jdk) AND v.metric_median > 0 AND o.metric_median > 0
  AND CASE WHEN c.baseline IS NULL THEN v.variant = 'virtual' AND o.variant <> 'virtual'
           ELSE o.variant = c.baseline AND v.variant <> c.baseline END
ORDER BY c.jdk, c.cpus, c.parallelism, o.variant`).refId("A"),
        ),
    )
    .withPanel(
      new Table()
        .title("Headline: each cell's declared contrast")
        .description(
          "The comparison each workload declares and the dashboard's matrix shows first, resolved in each cell (issue #19):" +
            " the subject, what it is compared with (sleep-bound: the cell's fastest platform-thread variant; pinning:" +
            " reentrant-lock) and the ratio on the judged metric with its interval, > 1 = the subject wins — a win or a" +
            " loss only when the whole interval is on one side of 1; an efficiency (http-server) is the subject's median" +
            " against its own bound. The same numbers as the dashboard's tiles; the words say the contrast as a reader should.",
        )
        .gridPos({ x: 0, y: 5, w: 8, h: 9 })
        .withTarget(
          new SqlQueryBuilder(`
SELECT c.cell_id AS "cell",
       c.headline_subject || COALESCE(' vs ' || c.headline_reference, ' of its bound') AS "headline",
       c.headline_value AS "value",
       c.headline_ci_low AS "interval low",
       c.headline_ci_high AS "interval high",
       c.headline_kind AS "kind",
       c.headline_words AS "in words"
FROM cells c
WHERE c.run_id = '$run' AND c.workload = '$workload' AND c.jdk IN ($jdk) AND c.headline_kind IS NOT NULL
ORDER BY c.jdk, c.cpus, c.parallelism`).refId("A"),
        ),
    )
    .withPanel(
      new Table()
        .title("Cells")
        .description(
          "Every cell and variant (and benchmark, for your own workloads): the median of the metric it is judged by" +
            " in its unit; for the built-in workloads also wall time's confidence interval, the lower bound and efficiency;" +
            " the CPUs of other work measured beside the cell, and the record's words when that flagged it disturbed.",
        )
        .gridPos({ x: 0, y: 14, w: 24, h: 14 })
        .withTarget(
          new SqlQueryBuilder(`
SELECT c.jdk, c.vm, c.version, c.os, c.cpus, c.cpuset, c.parallelism, c.max_pool_size, c.min_runnable,
       c.status, c.attested, m.variant, m.benchmark, m.n, m.metric, m.metric_unit, m.metric_median, m.median_ms,
       m.ci_low_ms, m.ci_high_ms, m.ci_level, m.cv, m.unstable, m.lower_bound_ms, m.efficiency, m.ceiling_threads,
       c.other_cpus_mean AS "other work (CPUs)", c.disturbed, c.reason
FROM cells c
LEFT JOIN measurements m ON m.run_id = c.run_id AND m.cell_id = c.cell_id
WHERE c.run_id = '$run' AND c.workload = '$workload' AND c.jdk IN ($jdk)
ORDER BY c.jdk, c.cpus, c.parallelism, m.variant, m.benchmark`).refId("A"),
        ),
    );
}

/**
 * How many times better the first measurement is than the second on their judged metric, whichever way
 * is better for it (a time: other ÷ first; a throughput: first ÷ other). Rows published before the
 * metric was recorded get theirs from the V2 migration.
 */
const better = (first: string, other: string) =>
  `CASE WHEN ${first}.metric_direction = 'higher' THEN ${first}.metric_median / ${other}.metric_median` +
  ` ELSE ${other}.metric_median / ${first}.metric_median END`;

/**
 * One line per cell of $workload and $jdk: a measurements column of $variant over the runs in range.
 * Medians keep their nulls (a run where the variant had none shows as a gap); efficiencies exist only
 * where a workload has a lower bound, so rows without one are left out.
 */
const seriesOverTime = (column: "metric_median" | "efficiency") =>
  new SqlQueryBuilder(
    `
SELECT r.started_at AS "time",
       m.cell_id || CASE WHEN m.benchmark <> '' THEN ' · ' || m.benchmark ELSE '' END AS "metric",
       m.${column} AS "value"
FROM measurements m
JOIN cells c ON c.run_id = m.run_id AND c.cell_id = m.cell_id
JOIN runs r ON r.run_id = m.run_id
WHERE $__timeFilter(r.started_at) AND c.workload = '$workload' AND c.jdk IN ($jdk) AND m.variant = '$variant'${column === "efficiency" ? " AND m.efficiency IS NOT NULL" : ""}
ORDER BY 1`,
    "time_series",
  ).refId("A");

export function historyDashboard() {
  return new DashboardBuilder("loom-matrix · history")
    .uid("loom-matrix-history")
    .tags(["loom-matrix"])
    .description("Each cell variant's median over the runs in the time range.")
    .time({ from: "now-1y", to: "now" })
    .withVariable(workloadVariable())
    .withVariable(jdkVariable())
    .withVariable(
      variable("variant", "Variant", "SELECT DISTINCT m.variant FROM measurements m JOIN cells c USING (run_id, cell_id) WHERE c.workload = '$workload' ORDER BY 1"),
    )
    .links(links())
    .withPanel(
      new TimeSeries()
        .title("Median of $variant, on the metric each cell is judged by")
        .description(
          "One line per cell; scheduled and pull-request runs alike (see the runs table for the trigger). The" +
            " metric is each record's own (wall time in ms, or throughput in req/s for a load test).",
        )
        .gridPos({ x: 0, y: 0, w: 24, h: 12 })
        .withTarget(
          seriesOverTime("metric_median"),
        ),
    )
    .withPanel(
      new TimeSeries()
        .title("Efficiency of $variant against its lower bound")
        .gridPos({ x: 0, y: 12, w: 24, h: 10 })
        .unit("percentunit")
        .min(0)
        .withTarget(
          seriesOverTime("efficiency"),
        ),
    )
    .withPanel(
      new Table()
        .title("Runs")
        .description(
          "Pull-request runs are marked by their trigger; a new JDK build or host shows in the columns; disturbed: cells" +
            " measured beside other work (their points are not clean evidence of a change).",
        )
        .gridPos({ x: 0, y: 22, w: 24, h: 10 })
        .withTarget(
          new SqlQueryBuilder(`
SELECT r.started_at, r.run_id, r.trigger, r.git_branch, r.git_commit, r.matrix_profile, r.host_cpu_model, r.host_cpus,
       string_agg(DISTINCT c.vm_version, ', ') AS "jdk builds",
       count(*) FILTER (WHERE c.status = 'ok') AS "ok", count(*) AS "cells",
       count(*) FILTER (WHERE c.disturbed IS NOT NULL) AS "disturbed"
FROM runs r JOIN cells c ON c.run_id = r.run_id
WHERE $__timeFilter(r.started_at) AND c.workload = '$workload'
GROUP BY r.run_id
ORDER BY r.started_at DESC`).refId("A"),
        ),
    );
}

export function compareDashboard() {
  return new DashboardBuilder("loom-matrix · compare")
    .uid("loom-matrix-compare")
    .tags(["loom-matrix"])
    .description(
      "Two runs side by side: the ratio of medians per cell variant. The significance verdicts (Mann-Whitney U," +
        " Benjamini–Hochberg) are computed by `loom-matrix compare` and shown on the static dashboard.",
    )
    .time({ from: "now-90d", to: "now" })
    .withVariable(variable("baseline", "Baseline run", RUNS_NEWEST_FIRST))
    .withVariable(variable("candidate", "Candidate run", RUNS_NEWEST_FIRST))
    .links(links())
    .withPanel(
      new BarGauge()
        .title("How much worse the candidate is, per cell variant")
        .description(
          "Candidate ÷ baseline on each cell's judged metric, oriented by its direction (a throughput's ratio is" +
            " inverted): > 1.1 worse by more than 10 % (red); < 0.9 better (green).",
        )
        .gridPos({ x: 0, y: 0, w: 24, h: 14 })
        .orientation(VizOrientation.Horizontal)
        .displayMode(BarGaugeDisplayMode.Basic)
        .min(0)
        .unit("x")
        .reduceOptions(EVERY_ROW)
        .thresholds(ratioThresholds(true))
        .withTarget(
          new SqlQueryBuilder(`
SELECT b.cell_id || ' · ' || b.variant AS "cell", ${better("b", "c")} AS "ratio"
FROM measurements b
JOIN measurements c ON c.cell_id = b.cell_id AND c.variant = b.variant
WHERE b.run_id = '$baseline' AND c.run_id = '$candidate' AND b.metric_median > 0 AND c.metric_median > 0
ORDER BY abs(ln(c.metric_median / b.metric_median)) DESC`).refId("A"),
        ),
    )
    .withPanel(
      new Table()
        .title("Side by side")
        .description(
          "Each cell variant's medians in both runs and their ratio; a side's disturbed column holds its record's words" +
            " when that cell was measured beside other work (a ratio to read with care).",
        )
        .gridPos({ x: 0, y: 14, w: 24, h: 14 })
        .withTarget(
          new SqlQueryBuilder(`
SELECT b.cell_id, b.variant, b.metric, b.metric_unit AS "unit", b.metric_direction AS "better",
       b.n AS "baseline n", b.metric_median AS "baseline median",
       c.n AS "candidate n", c.metric_median AS "candidate median", c.metric_median / b.metric_median AS "ratio",
       b.unstable OR c.unstable AS "unstable",
       bc.disturbed AS "baseline disturbed", cc.disturbed AS "candidate disturbed"
FROM measurements b
JOIN measurements c ON c.cell_id = b.cell_id AND c.variant = b.variant
JOIN cells bc ON bc.run_id = b.run_id AND bc.cell_id = b.cell_id
JOIN cells cc ON cc.run_id = c.run_id AND cc.cell_id = c.cell_id
WHERE b.run_id = '$baseline' AND c.run_id = '$candidate' AND b.metric_median > 0
ORDER BY b.cell_id, b.variant`).refId("A"),
        ),
    );
}

export const DASHBOARDS = { matrix: matrixDashboard, history: historyDashboard, compare: compareDashboard };

/**
 * The dashboard as the Grafana that provisioning runs (compose.yaml: 12.2.1) describes it. The Foundation SDK
 * writes a few keys of later Grafana versions that 12.2's published schema (@grafana/schema 12.2.1, checked in
 * test/grafana-schema.test.ts) does not have: a link's `placement` (13.x) and a query variable's `auto`,
 * `auto_count` and `auto_min` (an interval variable's). They are left out rather than sent to a Grafana that
 * does not know them.
 */
export function forProvisionedGrafana(dashboard: Record<string, unknown>): Record<string, unknown> {
  const links = (dashboard.links as Record<string, unknown>[] | undefined)?.map(({ placement, ...link }) => link);
  const templating = dashboard.templating as { list?: Record<string, unknown>[] } | undefined;
  const list = templating?.list?.map((v) => {
    if (v.type === "interval") return v;
    const { auto, auto_count, auto_min, ...rest } = v;
    return rest;
  });
  return {
    ...dashboard,
    ...(links ? { links } : {}),
    ...(templating ? { templating: { ...templating, list } } : {}),
  };
}

export function render(name: keyof typeof DASHBOARDS): string {
  const dashboard = DASHBOARDS[name]().build() as unknown as Record<string, unknown>;
  return `${JSON.stringify(forProvisionedGrafana(dashboard), null, 2)}\n`;
}
