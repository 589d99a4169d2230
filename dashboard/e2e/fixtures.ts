import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CellRecord, Coordinates, Measurement, RunManifest, Summary } from "../src/data/types";

// Run directories for the end-to-end test, made from the runner's golden cell records (real records
// from real cells) moved across a matrix of JDKs, VMs, CPU limits and scheduler settings. `publish`
// then turns them into a site exactly as it would a real run.

const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "runner", "src", "test", "resources", "golden");
/** A golden file of the runner's, parsed: a cell record, or the compare report. */
export const golden = <T = CellRecord>(name: string): T => JSON.parse(readFileSync(join(GOLDEN, name), "utf8"));

export const HOSTILE_BRANCH = `feature/<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>&amp;"'`;

export const JDKS: Pick<Coordinates, "jdk" | "vm" | "version">[] = [
  { jdk: "debian-21", vm: "hotspot", version: 21 },
  { jdk: "debian-25", vm: "hotspot", version: 25 },
  { jdk: "semeru-21", vm: "openj9", version: 21 },
];
export const WORKLOADS = ["sleep-bound", "mass-start"];

export interface RunSpec {
  runId: string;
  startedAt: string;
  trigger: string;
  branch: string;
  /** Multiplies the virtual variant's wall times: > 1 is a regression. */
  virtualScale: number;
  jdkBuild: string;
}

export function cellId(c: Coordinates): string {
  return `${c.jdk}.${c.os}.cpus-${c.cpus}.par-${c.parallelism}.max-${c.maxPoolSize}.minr-${c.minRunnable}.${c.workload}`;
}

export function matrixCells(spec: Pick<RunSpec, "virtualScale" | "jdkBuild">, jdks = JDKS, cpus = [1, 2], parallelism = ["auto", "1"]): CellRecord[] {
  const out: CellRecord[] = [];
  for (const workload of WORKLOADS) {
    const base = golden(`cell-${workload}.json`);
    for (const j of jdks) {
      for (const cpu of cpus) {
        for (const par of parallelism) {
          const coordinates: Coordinates = { ...base.coordinates, ...j, cpus: cpu, parallelism: par, workload };
          const cell = structuredClone(base);
          cell.coordinates = coordinates;
          cell.cellId = cellId(coordinates);
          cell.environment!.vm = { ...cell.environment!.vm, version: spec.jdkBuild };
          // OpenJ9 here is a fixture: its environment says so, and it is not attested at 1 CPU
          if (j.vm === "openj9") {
            cell.environment!.vm = { name: "Eclipse OpenJ9 VM", vendor: "Eclipse OpenJ9", version: "openj9-0.46.0" };
            cell.environment!.attested = cpu !== 1;
            if (cpu === 1) {
              cell.environment!.attestation = cell.environment!.attestation.map((c) =>
                c.setting === "availableProcessors" ? { ...c, observed: "2", ok: false } : c,
              );
            }
          }
          cell.measurements = cell.measurements.map((m, k) =>
            widen(m, m.variant === "virtual" ? spec.virtualScale * (par === "1" ? 1.1 : 1) : 1, k),
          );
          out.push(cell);
        }
      }
    }
  }
  // one failed cell, with its reason and log tail, and one that hit the thread ceiling
  const failed = out.find((c) => c.coordinates.jdk === jdks[1].jdk && c.coordinates.cpus === cpus[1] && c.coordinates.parallelism === parallelism[1])!;
  Object.assign(failed, {
    status: "failed",
    reason: "container exited with code 137 (SIGKILL: killed from outside or out of memory)",
    logTail: "[0.412s] harness: starting variant virtual\n[2.301s] harness: repetition 2 of 8\nKilled",
    measurements: [],
    environment: undefined,
  });
  // one skipped cell, as a runner without that JDK writes it (the reason is a real one, from a quick run here)
  const skipped = out.find((c) => c.coordinates.workload === "mass-start" && c.coordinates.jdk === jdks[jdks.length - 1].jdk && c.coordinates.cpus === cpus[1] && c.coordinates.parallelism === parallelism[1])!;
  Object.assign(skipped, {
    status: "skipped",
    reason: `no openj9 JDK ${skipped.coordinates.version} on this host (found: hotspot 25, hotspot 17); set javaHome in the matrix, JAVA_HOME_${skipped.coordinates.version}_X64, or LOOM_JDK_PATHS`,
    measurements: [],
    environment: undefined,
  });
  const platform = out.find((c) => c.coordinates.workload === "mass-start" && c.coordinates.jdk === jdks[0].jdk && c.coordinates.cpus === cpus[0])!;
  platform.measurements.find((m) => m.variant === "platform")!.ceiling = { threads: 4021, reason: "unable to create native thread: possibly out of memory or process/resource limits reached" };
  return out;
}

/** A user's own JMH benchmark (the runner's golden user cell, examples/jmh-blocking) on two JDKs × two CPU limits. */
export const USER_WORKLOAD = "blocking-by-param";

export function userCells(spec: Pick<RunSpec, "virtualScale" | "jdkBuild">, jdks = JDKS.slice(0, 2), cpus = [1, 2]): CellRecord[] {
  const base = golden("cell-jmh-blocking.json");
  const out: CellRecord[] = [];
  for (const j of jdks) {
    for (const cpu of cpus) {
      const coordinates: Coordinates = { ...base.coordinates, ...j, cpus: cpu, workload: USER_WORKLOAD };
      const cell = structuredClone(base);
      cell.coordinates = coordinates;
      cell.cellId = cellId(coordinates);
      cell.environment!.vm = { ...cell.environment!.vm, version: spec.jdkBuild };
      cell.measurements = cell.measurements.map((m, k) => widenScore(m, m.variant === "virtual" ? spec.virtualScale : 1, k));
      out.push(cell);
    }
  }
  return out;
}

/** Where the iterated cell sits: a JDK row of its own, so the rest of the matrix stays as it was. */
export const ITERATED_JDK: Pick<Coordinates, "jdk" | "vm" | "version"> = { jdk: "temurin-25", vm: "hotspot", version: 25 };

/**
 * Issue #18: the runner's golden cell whose 3 forks each ran sleep-bound 2 warmup + 5 measured times (a
 * real container cell), in every run as it was recorded.
 */
export function iteratedCell(spec: Pick<RunSpec, "jdkBuild">): CellRecord {
  const cell = golden("cell-sleep-bound-iterated.json");
  cell.coordinates = { ...cell.coordinates, ...ITERATED_JDK };
  cell.cellId = cellId(cell.coordinates);
  cell.environment!.vm = { ...cell.environment!.vm, version: spec.jdkBuild };
  return cell;
}

/**
 * Issue #19: the runner's golden pinning cells from real containers — JDK 21, where synchronized pins the
 * carriers (403 ms against reentrant-lock's 51), and JDK 25 (JEP 491), where it does not — as recorded, with
 * each variant's profiling run summarized (issue #20: 64 pins at Pinning.sleep on JDK 21, none on 25).
 */
export function pinningCells(spec: Pick<RunSpec, "jdkBuild">): CellRecord[] {
  return [21, 25].map((v) => {
    const cell = golden(`cell-pinning-${v}-profiled.json`);
    cell.environment!.vm = { ...cell.environment!.vm, version: v === 21 ? spec.jdkBuild : cell.environment!.vm.version };
    return cell;
  });
}

/**
 * Issue #20: a real fib-fanout cell (JDK 25, 2 CPUs) with JFR and async-profiler's flame graphs, whose pages the
 * runner's fixtures keep (fixtures/records/fib-fanout-flame/): the why panel frames them.
 */
export function flameCell(): CellRecord {
  return golden("cell-fib-fanout-flame.json");
}

/**
 * Issue #31: the example's program workload (examples/jmh-blocking's LoadTest, its own numbers in Bencher Metric
 * Format) as a real container cell recorded it (runner/src/test/resources/fixtures/records/program-load-test.json:
 * `run --profile offline`, JDK 25, 2 CPUs, on this project's machine, 2026-11-26), in every run as recorded.
 */
export const PROGRAM_WORKLOAD = "blocking-load-test";

export function programCell(): CellRecord {
  return JSON.parse(readFileSync(join(GOLDEN, "..", "fixtures", "records", "program-load-test.json"), "utf8"));
}

/**
 * Issue #32: a real container cell measured beside a CPU hog (stress-ng at 70 % of CPU 1, the cell on CPU 0; this
 * project's machine, 2026-11-26): flagged disturbed with its figure and series
 * (runner/src/test/resources/fixtures/records/sleep-bound-disturbed.json), in every run as recorded.
 */
export const DISTURBED_CELL = "debian-25.linux.cpus-1.cpuset-0.par-auto.max-auto.minr-auto.sleep-bound";

export function disturbedCell(): CellRecord {
  return JSON.parse(readFileSync(join(GOLDEN, "..", "fixtures", "records", "sleep-bound-disturbed.json"), "utf8"));
}

const FLAME_PAGES = join(GOLDEN, "..", "fixtures", "records", "fib-fanout-flame");

/** As {@link widen}, on the JMH score a user measurement is judged by (its summary is of the score). */
function widenScore(m: Measurement, scale: number, salt: number): Measurement {
  const samples = Array.from({ length: 8 }, (_, i) => {
    const s = { ...m.samples[i % m.samples.length] };
    s.score = (s.score as number) * scale * (1 + ((i * 7 + salt) % 5) * 0.004);
    return s;
  });
  return { ...m, samples, summary: summary(samples.map((s) => s.score as number)) };
}

/** Eight repetitions from the golden three (a compare needs more than 3 + 3 to reach significance). */
function widen(m: Measurement, scale: number, salt: number): Measurement {
  const samples = Array.from({ length: 8 }, (_, i) => {
    const s = { ...m.samples[i % m.samples.length] };
    s.wallMs = (s.wallMs as number) * scale * (1 + ((i * 7 + salt) % 5) * 0.004);
    return s;
  });
  const walls = samples.map((s) => s.wallMs as number);
  return { ...m, samples, summary: summary(walls), efficiency: m.lowerBoundMs ? m.lowerBoundMs / summary(walls).median : undefined };
}

function summary(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const median = (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const stdev = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
  // order statistics 2 and 7 of 8: a 93 % interval for the median
  return { n, median, mean, stdev, cv: stdev / mean, ci95: [sorted[1], sorted[6]], ciLevel: 0.93, outliers: [], unstable: stdev / mean > 0.1 };
}

export function writeRun(root: string, spec: RunSpec, cells: CellRecord[]): string {
  const dir = join(root, spec.runId);
  mkdirSync(join(dir, "cells"), { recursive: true });
  const manifest: RunManifest = {
    schemaVersion: 1,
    runId: spec.runId,
    startedAt: spec.startedAt,
    finishedAt: new Date(Date.parse(spec.startedAt) + 47 * 60_000).toISOString().replace(/\.\d+Z$/, "Z"),
    status: "finished",
    trigger: spec.trigger,
    git: { commit: `${spec.runId}0123456789abcdef`.slice(0, 12), branch: spec.branch, dirty: false },
    host: { os: "Linux", kernel: "6.8.0", cpuModel: "AMD EPYC 7763 64-Core Processor", cpus: 4, memoryBytes: 16 * 2 ** 30 },
    matrix: { file: "matrix.yaml", profile: "full", sha256: "9f2c".padEnd(64, "0") },
    cells: cells.map((c) => c.cellId),
    shards: [],
  };
  writeFileSync(join(dir, "run.json"), JSON.stringify(manifest, null, 2));
  for (const cell of cells) {
    // derived: the runner computes them (and resolves the headline contrast) when it reads the cell
    const { speedups: _derived, contrast: _resolved, ...record } = cell;
    writeFileSync(join(dir, "cells", `${cell.cellId}.json`), JSON.stringify(record, null, 2));
    // a profiled cell's recordings, which publish copies into the site (stand-ins: the dashboard only links them;
    // the runner's ProfilingIT reads real ones)
    for (const p of cell.profiles ?? []) {
      mkdirSync(join(dir, "raw", cell.cellId), { recursive: true });
      if (p.file) writeFileSync(join(dir, "raw", cell.cellId, p.file), `JFR stand-in for ${cell.cellId} ${p.variant}\n`);
      // async-profiler's real pages where the fixtures have them
      for (const page of p.flame ? [p.flame.cpu, p.flame.wall] : []) {
        if (existsSync(join(FLAME_PAGES, page))) copyFileSync(join(FLAME_PAGES, page), join(dir, "raw", cell.cellId, page));
      }
    }
  }
  return dir;
}

/**
 * An A/B run's directory as `loom-matrix ab` leaves it — the candidate's run at the root, the baseline's under
 * baseline/, the blocks, the verdict — with a real A/B run's verdict (runner/src/test/resources/fixtures/records:
 * `ab-5pct-regression.json`, a harness 5 % slower in two workloads; `ab-jmh-aa.json`, the example JMH suite A/A).
 */
export function writeAbRun(root: string, spec: Pick<RunSpec, "runId" | "startedAt" | "trigger" | "branch">, verdict: string): string {
  const dir = join(root, spec.runId);
  mkdirSync(join(dir, "baseline"), { recursive: true });
  mkdirSync(join(dir, "blocks"), { recursive: true });
  const report = JSON.parse(readFileSync(join(GOLDEN, "..", "fixtures", "records", verdict), "utf8"));
  const manifest = (runId: string): RunManifest => ({
    schemaVersion: 1,
    runId,
    startedAt: spec.startedAt,
    finishedAt: new Date(Date.parse(spec.startedAt) + (report.ab.sequential?.spentSeconds ?? 60) * 1000).toISOString().replace(/\.\d+Z$/, "Z"),
    status: "finished",
    trigger: spec.trigger,
    git: { commit: `${spec.runId}0123456789abcdef`.slice(0, 12), branch: spec.branch, dirty: false },
    host: { os: "Linux", kernel: "6.8.0", cpuModel: "AMD EPYC 7763 64-Core Processor", cpus: 2, memoryBytes: 8 * 2 ** 30 },
    matrix: { file: "matrix.yaml", profile: "ab-offline", sha256: "9f2c".padEnd(64, "0") },
    cells: [...new Set<string>(report.comparisons.map((c: { cellId: string }) => c.cellId))],
    shards: [],
  });
  writeFileSync(join(dir, "run.json"), JSON.stringify(manifest(spec.runId), null, 2));
  writeFileSync(join(dir, "baseline", "run.json"), JSON.stringify(manifest(`${spec.runId}-baseline`), null, 2));
  writeFileSync(join(dir, "compare.json"), JSON.stringify(report, null, 2));
  return dir;
}
