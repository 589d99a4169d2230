// The published data the dashboard reads, as `loom-matrix publish` writes it (schemas/results.schema.json
// describes cells, runs and comparisons; the index and trends are described by the runner's History and
// Trends classes). Optional fields are those the runner writes only when they apply.

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
  compared?: Compared;
}

export interface SiteIndex {
  schemaVersion: number;
  runs: IndexEntry[];
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

export interface Coordinates {
  jdk: string;
  vm: string;
  version: number;
  os: string;
  cpus: number;
  cpuset?: string;
  parallelism: string;
  maxPoolSize: string;
  minRunnable: string;
  workload: string;
}

export interface Summary {
  n: number;
  median: number;
  mean: number;
  stdev: number;
  cv: number;
  ci95: [number, number];
  ciLevel: number;
  outliers?: number[];
  unstable: boolean;
}

export type Sample = Record<string, unknown>;

/** The words of results schema 1's enums: the drift test (test/schema-drift.test.ts) holds them to the schema. */
export const CELL_STATUSES = ["ok", "failed", "timeout", "skipped"] as const;
export type CellStatus = (typeof CELL_STATUSES)[number];
export const RUN_STATUSES = ["running", "finished", "interrupted", "partial"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const VERDICTS = ["regression", "improvement", "unchanged", "inconclusive"] as const;
export const DIRECTIONS = ["lower", "higher"] as const;

/** What a number is: its name in the samples, its unit, and which way is better. */
export interface MetricDescriptor {
  name: string;
  unit: string;
  direction: (typeof DIRECTIONS)[number];
}

export interface Measurement {
  variant: string;
  params: Record<string, unknown>;
  /** The metric the variant is judged by; absent in files written before it was recorded. */
  metric?: MetricDescriptor;
  samples: Sample[];
  summary?: Summary;
  processSummary?: Summary;
  lowerBoundMs?: number;
  efficiency?: number;
  ceiling?: { threads: number; reason: string };
  error?: string;
}

export interface Check {
  setting: string;
  requested: string;
  observed: string;
  ok: boolean;
  note?: string;
}

export interface Environment {
  availableProcessors: number;
  scheduler: Record<string, unknown>;
  vm: Record<string, string>;
  javaVersion: string;
  gc: string[];
  javaToolOptions?: string;
  inputArguments: string[];
  image?: string;
  imageDigest?: string;
  javaVersionOutput?: string;
  limits: Record<string, unknown>;
  attested: boolean;
  attestation: Check[];
}

export interface Speedup {
  variant: string;
  over: string;
  metric: string;
  ratio: number;
  ci95: [number, number];
}

export interface Execution {
  backend: string;
  driver: string;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  variantOrder: string[];
  fallbackReason?: string;
  parallel?: { cpuset: string; ranBeside: string[] };
  /** Oldest first, when `run --resume --retry-failed` ran the cell again. */
  earlierAttempts?: { status: CellStatus; reason?: string; startedAt: string; finishedAt: string }[];
}

export interface CellRecord {
  schemaVersion: number;
  cellId: string;
  coordinates: Coordinates;
  status: CellStatus;
  reason?: string;
  logTail?: string;
  environment?: Environment;
  measurements: Measurement[];
  execution: Execution;
  speedups?: Speedup[];
}

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
}

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
}

export interface TrendPoint {
  runId: string;
  startedAt: string;
  median: number;
}

export interface TrendSeries {
  cellId: string;
  workload: string;
  variant: string;
  metric: string;
  points: TrendPoint[];
  changePoints: string[];
}

export interface TrendAnnotation {
  runId: string;
  cellId?: string;
  kind: string;
  from: string;
  to: string;
}

export interface Trends {
  schemaVersion: number;
  method: string;
  series: TrendSeries[];
  annotations: TrendAnnotation[];
}
