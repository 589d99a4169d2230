import type { Compare } from "./results.schema";
// The published data the dashboard reads, as `loom-matrix publish` writes it (schemas/results.schema.json
// describes cells, runs and comparisons; the index and trends are described by the runner's History and
// Trends classes). Optional fields are those the runner writes only when they apply.

import type * as Results from "./results.schema";

// The results format's types are generated from schemas/results.schema.json (src/data/results.schema.ts,
// `npm run schema-types`); these names are the dashboard's handles on them.
export type CellRecord = Results.Cell;
export type Coordinates = Results.Coordinates;
export type Environment = Results.Environment;
export type Check = Results.Check;
export type Measurement = Results.Measurement;
export type MetricDescriptor = Results.MetricDescriptor;
export type Summary = Results.Summary;
export type Sample = Measurement["samples"][number];
export type Speedup = NonNullable<CellRecord["speedups"]>[number];
export type Execution = CellRecord["execution"];

export interface Git {
  commit: string;
  branch: string;
  dirty: boolean;
}

export interface Compared {
  baseline: string;
  regressions: number;
  improvements: number;
  inconclusive: number;
}

/** One run in `data/index.json`: enough to list and pick runs without loading their cells. */
export interface IndexEntry {
  runId: string;
  startedAt: string;
  finishedAt?: string;
  status: RunStatus;
  git: Git;
  profile?: string;
  trigger: string;
  jdks: string[];
  workloads: string[];
  cells: number;
  ok: number;
  failed: number;
  attested: number;
  /** The run's baseline (the newest earlier run of the same matrix and profile sharing cells), compared at publish. */
  compared?: Compared;
  /** The matrix's identity: "id:<declared id>" or "sha256:<file hash>"; absent in indexes written before issue #19. */
  matrix?: string;
  /** Further earlier runs this run was compared with at publish, newest first: baselines a reader may pick. */
  alternatives?: string[];
  /** The site keeps this run's profiles, its flame graph pages (publish --keep-profiles: the newest runs only). */
  profiles?: boolean;
  /** …and its JFR recordings too (publish --publish-recordings). */
  recordings?: boolean;
}

export interface SiteIndex {
  schemaVersion: number;
  runs: IndexEntry[];
}

/** One A/B run in `data/ab/index.json` (publish of an `ab` directory, issue #31): kept apart from the nightly runs. */
export interface AbEntry {
  runId: string;
  startedAt: string;
  finishedAt?: string;
  git: Git;
  profile?: string;
  trigger: string;
  baselineLabel: string;
  candidateLabel: string;
  /** What differs between the sides' definitions (harness, artifacts, JDK entries). */
  differences: string[];
  /** No differences: both sides the same build, so every flag is a false alarm. */
  aToA: boolean;
  comparisons: number;
  regressions: number;
  improvements: number;
  inconclusive: number;
  unchanged: number;
  /** Cells the budget left unmeasured. */
  notMeasured: number;
  ended?: string;
  /** Cells this host did not run (skipped: a JDK it lacks, …); absent in an index written before it was counted. */
  notRun?: number;
}

export interface AbIndex {
  schemaVersion: number;
  runs: AbEntry[];
}

export interface Host {
  os: string;
  kernel: string;
  cpuModel: string;
  cpus: number;
  memoryBytes: number;
}

export interface Shard {
  runId: string;
  shard: string;
  host: Host;
  status: RunStatus;
}

export interface RunManifest {
  schemaVersion: number;
  runId: string;
  startedAt: string;
  finishedAt?: string;
  status: RunStatus;
  trigger: string;
  git: Git;
  host: Host;
  matrix: { file: string; profile?: string; sha256: string; shard?: string };
  cells: string[];
  shards: Shard[];
}

/** The words of results schema 1's enums: the drift test (test/schema-drift.test.ts) holds them to the schema. */
export const CELL_STATUSES = ["ok", "failed", "timeout", "skipped", "invalid"] as const;
export type CellStatus = (typeof CELL_STATUSES)[number];
export const RUN_STATUSES = ["running", "finished", "interrupted", "partial"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const VERDICTS = ["regression", "improvement", "unchanged", "inconclusive"] as const;
export const DIRECTIONS = ["lower", "higher"] as const;

export interface Comparison {
  cellId: string;
  variant: string;
  metric: string;
  higherIsBetter: boolean;
  baseline: { n: number; median: number };
  candidate: { n: number; median: number };
  ratio: number;
  ci95: [number, number];
  pValue: number;
  pAdjusted: number;
  verdict: Verdict;
  /** A user workload's benchmark with its parameters: the variant's measurement this compares. */
  benchmark?: string;
  /** The level ci95 really has (95 % where the repetitions allow it). */
  ciLevel?: number;
  /** An A/B run's: the test the verdict rests on, the block pairs, the smallest change it could have caught… */
  test?: GeneratedComparison["test"];
  pairs?: number;
  detectable?: number;
  noise?: number;
  confirmation?: GeneratedComparison["confirmation"];
  nested?: GeneratedComparison["nested"];
}

type GeneratedComparison = Compare["comparisons"][number];

export type Verdict = (typeof VERDICTS)[number];

export interface CompareReport {
  schemaVersion: number;
  baseline: string;
  candidate: string;
  threshold: number;
  alpha: number;
  comparisons: Comparison[];
  regressions: number;
  improvements: number;
  onlyInBaseline: string[];
  onlyInCandidate: string[];
  /** Repetitions a side with which any change could be found among this many comparisons. */
  repetitionsNeeded?: number;
  /** Cell variants measured differently on the two sides: listed with why, never compared. */
  notComparable?: { cellId: string; series: string; reason: string }[];
  /** Each shared cell's headline contrast before and after (compare files written since issue #19). */
  headlines?: NonNullable<Compare["headlines"]>;
  /** What an A/B run could resolve: the baseline against itself within the run, and what the comparisons could catch. */
  resolution?: Compare["resolution"];
  /** An A/B run's report: its two sides and how they were measured (issue #30's sequential plan). */
  ab?: Compare["ab"];
  /** Compared cells measured beside other work, per side (issue #32). */
  disturbed?: NonNullable<Compare["disturbed"]>;
}

export interface TrendPoint {
  runId: string;
  startedAt: string;
  median: number;
  /** The median's interval as the cell recorded it (absent for a metric without a summary, and in older sites). */
  ci95?: [number, number];
  /** The forks the median rests on. */
  n?: number;
  /** Measured beside other work (issue #32): the figure; drawn, flagged, never a change point. */
  disturbed?: string;
}

export interface TrendSeries {
  cellId: string;
  workload: string;
  variant: string;
  metric: string;
  points: TrendPoint[];
  changePoints: string[];
  /** A user workload's benchmark with its parameters: a variant has one series per benchmark. */
  benchmark?: string;
  unit?: string;
  /** The matrix profile and workload parameters the series was run with: a series is one of each. */
  profile?: string;
  params?: string;
  /** "W+M": each fork ran W warmup and M measured iterations (absent: one cold run each). */
  iterations?: string;
  /** Whether lower or higher values are better (absent in files written before it was recorded). */
  direction?: "lower" | "higher";
}

export interface TrendAnnotation {
  runId: string;
  cellId?: string;
  kind: string;
  from: string;
  to: string;
}

/** data/regressions.json: the steps for the worse among the main line's newest runs (Regressions.java). */
export interface Regressions {
  schemaVersion: number;
  recentRuns: number;
  regressions: Regression[];
}

export interface Regression {
  key: string;
  series: string;
  cellId: string;
  workload: string;
  variant: string;
  metric: string;
  benchmark?: string;
  runId: string;
  startedAt: string;
  previousRunId: string;
  goodCommit?: string;
  badCommit?: string;
  /** Oriented so that above 1 is worse. */
  change: { ratio: number; low: number; high: number };
  words: string;
  annotations: TrendAnnotation[];
  /** "code", or what else changed at that run: "jdk build", "image", "runner". */
  cause: string;
  chart: string;
}

export interface TrendsIndex {
  schemaVersion: number;
  method: string;
  /** Each JDK of the workload's history, with how many cells it has. */
  jdks: Record<string, number>;
  headlines?: Record<string, string>;
}

export interface Trends {
  schemaVersion: number;
  method: string;
  series: TrendSeries[];
  annotations: TrendAnnotation[];
  /** Each workload's headline contrast in words, as its newest cell states it (sites published since issue #19). */
  headlines?: Record<string, string>;
  /** Each cell's headline value over the runs (HeadlineSeries.java; sites published since issue #54). */
  headlineSeries?: HeadlineTrend[];
}

/** A cell's headline over the runs: the number its matrix tile shows, run by run (HeadlineSeries.java). */
export interface HeadlineTrend {
  cellId: string;
  workload: string;
  /** The contrast as the cell states it. */
  words: string;
  /** "speedup": the subject over the reference, above 1 the subject is ahead; "efficiency": against its bound. */
  kind: "speedup" | "efficiency";
  points: TrendPoint[];
  changePoints: string[];
  profile?: string;
}
