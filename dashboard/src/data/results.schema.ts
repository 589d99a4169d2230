// Generated from schemas/results.schema.json by `npm run schema-types`: do not edit by hand.

/**
 * The files a run writes, compare prints and report prints. A reader refuses another major schemaVersion. New optional fields may appear within schema 1 (see CHANGELOG.md); required ones never go away.
 */
export type LoomMatrixResultsSchema1 = Cell | Run | Compare | Conclusions;
export type Cell = {
  schemaVersion: SchemaVersion;
  cellId: string;
  coordinates: Coordinates;
  status: "ok" | "failed" | "timeout" | "skipped" | "invalid";
  reason?: string;
  logTail?: string;
  environment?: Environment;
  measurements: Measurement[];
  execution: {
    backend: string;
    driver: string;
    startedAt: string;
    finishedAt: string;
    durationMs: number;
    variantOrder: string[];
    fallbackReason?: string;
    parallel?: {
      cpuset: string;
      ranBeside: string[];
      [k: string]: unknown;
    };
    /**
     * What else the host did while the cell ran, read from the host every everyMs (issue #32): CPUs used outside the cell and this runner, steal, the cell's throttling, CPU pressure; 'disturbed' when flagged (mean other work from 0.25 CPUs), its samples kept
     */
    interference?: {
      source: string;
      everyMs: number;
      /**
       * CPUs of other work on average over the cell (1.0 = one CPU's time)
       */
      otherCpusMean: number;
      otherCpusMax: number;
      /**
       * the mean of other work from which the cell was to be flagged disturbed
       */
      thresholdCpus: number;
      /**
       * CPUs the hypervisor gave elsewhere, on average
       */
      stealCpusMean?: number;
      /**
       * time the cell's own CPU quota held it back (containers)
       */
      throttledMs?: number;
      /**
       * the kernel's 'some' CPU pressure (PSI avg10), percent, on average over the samples
       */
      cpuPressureMean?: number;
      /**
       * the CPUs' clock while the cell ran: the mean of /proc/cpuinfo's 'cpu MHz' over the host's CPUs at each sample, its mean, least and greatest (Linux)
       */
      cpuMhz?: {
        mean: number;
        min: number;
        max: number;
      };
      series: {
        ms: number;
        otherCpus: number;
        steal?: number;
        cpuPressure?: number;
      }[];
      /**
       * what this host could not say, and why
       */
      unavailable?: string[];
      /**
       * present when flagged: the figure in words
       */
      disturbed?: string;
    };
    /**
     * Processes the cell's JVMs left running when it ended (a child a program started and never ended), each 'pid command line', killed then; absent when none (the local backend on Linux ends each cell's process group; a container's end ends everything in it)
     */
    leftBehind?: string[];
    /**
     * Oldest first, when run --resume --retry-failed ran the cell again; each attempt's record and raw output are in attempts/<cell-id>/<n>/.
     */
    earlierAttempts?: {
      status: "ok" | "failed" | "timeout" | "skipped" | "invalid";
      reason?: string;
      startedAt: string;
      finishedAt: string;
    }[];
  };
  /**
   * how many times better `over` is than `variant` on the judged metric: built-in workloads, virtual over each other variant (fib-fanout and pinning: each variant over their baseline); user workloads, each variant over the baseline
   */
  speedups?: {
    variant: string;
    over: string;
    metric: string;
    ratio: number;
    ci95: Interval1;
    /**
     * a user workload's benchmark (with its parameters) both variants measured
     */
    benchmark?: string;
    /**
     * the level of ci95: the probability it covers the true ratio (a distribution-free interval on the log scale; 95 % where the sample sizes allow, e.g. 90 % at 3 against 3); absent in files written before it was recorded
     */
    ciLevel?: number;
    /**
     * the speedup in words, e.g. "virtual is 5.00× better than tomcat-20 on throughput (higher is better)"; absent in files written before it was recorded
     */
    says?: string;
  }[];
  /**
   * the variant the speedups are over: a user workload's baseline, or a built-in workload's whose story is not virtual against platform threads (fib-fanout: sequential; pinning: reentrant-lock)
   */
  baseline?: string;
  /**
   * the workload's headline contrast, resolved for this cell: what the matrix tile, cell view, history, compare and Grafana show first (catalogue for built-in workloads, `headline` in matrix.yaml for a user's); absent when the cell measured no subject or nothing to compare it with
   */
  contrast?: {
    /**
     * a speedup of subject over reference (see speedups), or subject's efficiency against its own lower bound
     */
    kind: "speedup" | "efficiency";
    /**
     * the variant the headline is about
     */
    subject: string;
    /**
     * the variant it is compared with in this cell (absent for an efficiency)
     */
    reference?: string;
    /**
     * the reference is the cell's fastest other variant (steady-state median of the judged metric), not a fixed one
     */
    fastestOther: boolean;
    /**
     * the contrast as a reader should say it
     */
    words: string;
  };
  /**
   * what each variant's extra, untimed profiling run recorded (matrix.yaml profiling); absent when the cell profiles nothing
   */
  profiles?: {
    variant: string;
    /**
     * the recording, relative to the cell's raw output directory
     */
    file?: string;
    /**
     * why there is no summary (never zeros in its place)
     */
    unavailable?: string;
    jfr?: {
      durationMs: number;
      /**
       * virtual threads that parked while pinned to their carrier, at any duration
       */
      pinnedEvents: number;
      pinnedMs: number;
      /**
       * the first frame outside the JDK of each pin, most frequent first (at most 8)
       */
      pinnedFrames: {
        /**
         * Class.method:line (the simple class name)
         */
        frame: string;
        count: number;
        /**
         * the events' total duration at this frame (absent for CPU samples)
         */
        totalMs?: number;
      }[];
      submitFailed: number;
      gcPauses: number;
      gcPauseMs: number;
      gcMaxPauseMs: number;
      /**
       * sampled allocation (JFR's ObjectAllocationSample weights)
       */
      allocatedBytes: number;
      allocationBytesPerSecond: number;
      /**
       * contended synchronized entries above JFR's profile threshold
       */
      monitorEnters: number;
      monitorEnterMs: number;
      monitorFrames: {
        /**
         * Class.method:line (the simple class name)
         */
        frame: string;
        count: number;
        /**
         * the events' total duration at this frame (absent for CPU samples)
         */
        totalMs?: number;
      }[];
      parks: number;
      sleeps: number;
      cpuSamples: number;
      /**
       * the methods most often on top of a CPU sample: where the CPU went
       */
      cpuFrames: {
        /**
         * Class.method:line (the simple class name)
         */
        frame: string;
        count: number;
        /**
         * the events' total duration at this frame (absent for CPU samples)
         */
        totalMs?: number;
      }[];
      /**
       * the JVM's mean CPU load (user + system) as a fraction of the machine
       */
      jvmCpu?: number;
      machineCpu?: number;
      /**
       * CPU load over the recording (JFR's samples every 100 ms, at most 120): ms from its start, the JVM's and the machine's load, 0 to 1
       */
      cpuLoad?: {
        ms: number;
        jvm: number;
        machine: number;
      }[];
    };
    /**
     * async-profiler's flame graphs of the profiling run: self-contained HTML pages made by its own converter
     */
    flame?: {
      /**
       * how CPU was sampled, as the recording states: perf_events, or ctimer (a per-thread timer, where the cell may not open perf events)
       */
      engine: string;
      cpuSamples: number;
      wallSamples: number;
      /**
       * the CPU flame graph, relative to the cell's raw output
       */
      cpu: string;
      /**
       * the wall-clock flame graph, relative to the cell's raw output
       */
      wall: string;
      cpuFrames: {
        /**
         * Class.method:line (the simple class name)
         */
        frame: string;
        count: number;
        /**
         * the events' total duration at this frame (absent for CPU samples)
         */
        totalMs?: number;
      }[];
    };
    /**
     * why the variant has no flame graphs (never an empty graph in their place)
     */
    flameUnavailable?: string;
  }[];
};
export type SchemaVersion = 1;
export type Measurement = {
  variant: string;
  /**
   * a built-in workload's parameters; empty for a user workload (its JMH @Param values are in benchmark.params)
   */
  params: {
    [k: string]: number;
  };
  metric?: MetricDescriptor;
  /**
   * one per repetition (one fresh JVM), every metric recorded (raw samples are always kept); a built-in workload's samples always have wallMs, a user workload's have its own metrics (a JMH score, a program's numbers), processMs and what the attestation agent saw
   */
  samples: {
    wallMs?: number;
    processMs?: number;
    /**
     * with iterations inside the JVM (matrix.yaml iterations): the first iteration's wall time, the fork's cold start; wallMs is then the median of the measured iterations
     */
    coldStartMs?: number;
    /**
     * with iterations inside the JVM: every iteration's wall time in run order, the cell's warmup iterations first
     */
    iterationsWallMs?: number[];
    /**
     * with 5 or more measured iterations: the Mann-Kendall p-value of their trend (two-sided)
     */
    trendP?: number;
    /**
     * with 5 or more measured iterations: false when they still trend (trendP < 0.05) — the fork had not reached steady state
     */
    steady?: boolean;
    /**
     * a capacity search (load.capacity): the highest rate, requests/s, that met the objective in the search and again on a fresh server; only when capacityOutcome is bracketed or lower bound
     */
    capacityPerSecond?: number;
    /**
     * how the repetition's capacity search ended
     */
    capacityOutcome?: "bracketed" | "lower bound" | "generator-limited" | "inconclusive" | "failed";
    /**
     * the outcome in words, naming the rates and the bounds broken
     */
    capacityWhy?: string;
    /**
     * the lowest rate that did not meet the objective: the capacity lies below it
     */
    capacityFirstFailingPerSecond?: number;
    /**
     * the precision the search was asked for, as a share (0.1 for 10 %)
     */
    capacityPrecision?: number;
    /**
     * every window of the search in the order run
     */
    capacityTried?: {
      rate: number;
      /**
       * the validation window, on a fresh server
       */
      validation: boolean;
      verdict: "pass" | "fail" | "generator-limited" | "broken";
      why: string;
      achievedRate?: number;
      throughputPerSecond?: number;
      latencyP50Ms?: number;
      latencyP99Ms?: number;
      latencyP999Ms?: number;
      latencyMaxMs?: number;
      /**
       * failed requests by kind: connect, timeout, status, other
       */
      errors?: {
        [k: string]: number;
      };
      generatorCpuShare?: number;
      /**
       * the server's CPU use in the window as a share of the cell's cpus
       */
      serverCpuShare?: number;
      [k: string]: unknown;
    }[];
    /**
     * the server's CPU use in the validation window as a share of the cell's cpus
     */
    serverCpuShareAtCapacity?: number;
    /**
     * what set the capacity, in words: the CPU quota, a pool's Little's-law bound, the errors at the first failing rate
     */
    capacityLimitedBy?: string;
    [k: string]: unknown;
  }[];
  summary?: Summary;
  processSummary?: Summary1;
  lowerBoundMs?: number;
  efficiency?: number;
  ceiling?: {
    threads: number;
    reason: string;
    [k: string]: unknown;
  };
  error?: string;
  /**
   * a user workload's benchmark this measurement is (a variant has one measurement per benchmark): a JMH benchmark (class.method, mode, @Param values) or a benchmark a program reported in Bencher Metric Format
   */
  benchmark?: {
    name: string;
    /**
     * JMH's benchmark mode; its direction: thrpt higher is better, the others lower
     */
    mode?: "thrpt" | "avgt" | "sample" | "ss";
    /**
     * the @Param values every variant ran with: with the name, what pairs variants and runs
     */
    params?: {
      [k: string]: string;
    };
    /**
     * the unit of each other number in the samples that has one (e.g. JMH's secondary metrics from -prof gc)
     */
    units?: {
      [k: string]: string;
    };
    /**
     * the @Param values this variant set itself (e.g. threadType=VIRTUAL): they are the variant, not part of what pairs it with the others
     */
    variantParams?: {
      [k: string]: string;
    };
    /**
     * the benchmark method this variant ran, where its variant names one: the name is then the method's class, which pairs the variants (JMH's own name is name.method)
     */
    method?: string;
  };
  /**
   * an A/B run's block each sample ran in, parallel to samples: block k of the baseline and block k of the candidate ran back to back on one machine, and compare pairs them; absent outside A/B runs
   */
  blocks?: number[];
  /**
   * how each fork (each repetition, a fresh JVM) ran the workload when it ran it more than once: warmup iterations left out, then measure iterations whose median is the sample's wallMs (the steady state); absent when every fork ran it once, cold
   */
  iterations?: {
    warmup: number;
    measure: number;
  };
  coldStart?: Summary2;
};
/**
 * order-statistic interval for the median
 *
 * @minItems 2
 * @maxItems 2
 */
export type Interval = [number, number];
/**
 * interval of the ratio at the level ciLevel states (the name is kept from schema 1)
 *
 * @minItems 2
 * @maxItems 2
 */
export type Interval1 = [number, number];
/**
 * pays-off: the interval of the subject against the best alternative measured is wholly beyond the practical band in the subject's favour; no-difference: wholly inside it; hurts: wholly beyond it the other way; cannot-tell: it reaches across an edge; not-valid: the cell failed, was invalid, skipped, disturbed or not attested, and is no evidence
 */
export type Conclusion = "pays-off" | "no-difference" | "hurts" | "cannot-tell" | "not-valid";
/**
 * @minItems 2
 * @maxItems 2
 */
export type Interval2 = [number, number];

export interface Coordinates {
  jdk: string;
  vm: "hotspot" | "openj9";
  version: number;
  os: "linux" | "windows";
  cpus: number;
  cpuset?: string;
  parallelism: string;
  maxPoolSize: string;
  minRunnable: string;
  workload: string;
}
export interface Environment {
  availableProcessors: number;
  /**
   * the virtual-thread scheduler as the JVM reported it; source: mxbean (JDK 24+) or forkjoinpool (21-23)
   */
  scheduler: {
    maxPoolSize?: number;
    minRunnable?: number;
    parallelism?: number;
    poolSize?: number;
    source?: string;
  };
  vm: {
    name?: string;
    vendor?: string;
    version?: string;
    [k: string]: unknown;
  };
  javaVersion: string;
  gc: string[];
  javaToolOptions: string;
  inputArguments?: string[];
  image?: string;
  imageDigest?: string;
  javaVersionOutput?: string;
  /**
   * what the JVM saw from inside: cgroup quota, cpuset, memory and pids limits, and the CPUs it may run on (affinity)
   */
  limits: {
    affinity?: string;
    cgroup?: "v1" | "v2" | "none";
    cpus?: number;
    cpuset?: string;
    memoryBytes?: number;
    pids?: number;
  };
  attested: boolean;
  attestation: Check[];
}
export interface Check {
  setting: string;
  requested: string;
  observed: string;
  ok: boolean;
  note?: string;
}
/**
 * the metric this variant is judged by (speedups, compare, trends); absent in files written before it was recorded, where readers take the workload's (wallMs; http-server: throughputPerSecond)
 */
export interface MetricDescriptor {
  name: string;
  unit: string;
  direction: "lower" | "higher";
}
/**
 * summary of wallMs for a built-in workload; of the judged metric (metric.name) for a user workload
 */
export interface Summary {
  n: number;
  median: number;
  mean: number;
  stdev: number;
  cv: number;
  ci95: Interval;
  /**
   * the interval's real coverage (below 0.95 when n < 6)
   */
  ciLevel?: number;
  /**
   * 0-based repetitions with modified Z-score > 14.826
   */
  outliers?: number[];
  /**
   * cv > 0.10
   */
  unstable?: boolean;
}
export interface Summary1 {
  n: number;
  median: number;
  mean: number;
  stdev: number;
  cv: number;
  ci95: Interval;
  /**
   * the interval's real coverage (below 0.95 when n < 6)
   */
  ciLevel?: number;
  /**
   * 0-based repetitions with modified Z-score > 14.826
   */
  outliers?: number[];
  /**
   * cv > 0.10
   */
  unstable?: boolean;
}
/**
 * summary of each fork's first iteration (the samples' coldStartMs): the cold start, its own statistic, never averaged with the steady state; absent when the forks ran once (their only value, in summary, is the cold start)
 */
export interface Summary2 {
  n: number;
  median: number;
  mean: number;
  stdev: number;
  cv: number;
  ci95: Interval;
  /**
   * the interval's real coverage (below 0.95 when n < 6)
   */
  ciLevel?: number;
  /**
   * 0-based repetitions with modified Z-score > 14.826
   */
  outliers?: number[];
  /**
   * cv > 0.10
   */
  unstable?: boolean;
}
export interface Run {
  schemaVersion: SchemaVersion;
  runId: string;
  startedAt: string;
  finishedAt?: string;
  status: "running" | "finished" | "interrupted" | "partial";
  trigger: string;
  git: {
    [k: string]: unknown;
  };
  host: {
    /**
     * The host's CPU settings known to add noise, where it exposes them (issue #32): frequency governor, turbo/boost, SMT, the CPUs' mean MHz when the run started; what it does not show, and warnings
     */
    tuning?: {
      governor?: string;
      boost?: boolean;
      smt?: boolean;
      mhz?: number;
      notExposed?: string[];
      warnings?: string[];
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  matrix: {
    [k: string]: unknown;
  };
  cells: string[];
  shards?: {
    runId: string;
    shard: string;
    host: {
      [k: string]: unknown;
    };
    status: "running" | "finished" | "interrupted" | "partial";
    [k: string]: unknown;
  }[];
}
export interface Compare {
  schemaVersion: SchemaVersion;
  baseline: string;
  candidate: string;
  threshold: number;
  alpha?: number;
  comparisons: {
    cellId: string;
    variant: string;
    metric: string;
    higherIsBetter?: boolean;
    baseline: {
      [k: string]: unknown;
    };
    candidate: {
      [k: string]: unknown;
    };
    ratio: number;
    ci95: unknown[];
    pValue: number | string;
    pAdjusted: number | string;
    /**
     * inconclusive: these sample sizes could not reach significance among this many comparisons, whatever the data
     */
    verdict: "regression" | "improvement" | "unchanged" | "inconclusive";
    /**
     * a user workload's benchmark with its parameters, as in the cell's measurements
     */
    benchmark?: string;
    /**
     * the level of ci95 (see the cell's speedups)
     */
    ciLevel?: number;
    /**
     * mann-whitney: the two sides' samples as two groups; signed-rank: an A/B run's back-to-back blocks paired (Wilcoxon signed-rank on the pairs' log-ratios; ratio is then their Hodges–Lehmann estimate); nested-t: an A/B run whose forks measured iterations, the paired t-test on the pairs' differences of fork means of log iterations (the fork the unit; ratio is then the exponentiated mean difference). Absent in files written before it was recorded: mann-whitney
     */
    test?: "mann-whitney" | "signed-rank" | "nested-t";
    /**
     * block pairs a signed-rank comparison rests on
     */
    pairs?: number;
    /**
     * an A/B run's smallest change this comparison could have flagged (0.12 = 12 %), from its own noise, sample sizes, test, number of comparisons and the threshold; absent where nothing could have been (inconclusive)
     */
    detectable?: number;
    /**
     * typical relative difference between two measurements of the same thing in this comparison (robust standard deviation of the log values, from the median absolute deviation): of the pairs' log-ratios when paired
     */
    noise?: number;
    /**
     * an A/B run's change flagged in the first pass and measured again, only its cell, before being called one
     */
    confirmation?: {
      extraPairs: number;
      firstVerdict: "regression" | "improvement" | "unchanged" | "inconclusive";
      confirmed: boolean;
    };
    /**
     * an A/B run whose forks measured iterations: the baseline forks' relative spread between forks and within a fork, the iterations a fork measured, and when a side's forks fell into two modes (then the fork-level test is used)
     */
    nested?: {
      betweenForks?: number;
      withinForks?: number;
      iterationsPerFork?: number;
      modes?: string;
    };
  }[];
  regressions: number;
  improvements: number;
  onlyInBaseline?: string[];
  onlyInCandidate?: string[];
  /**
   * repetitions per side with which any change could be detected among this many comparisons (a complete separation passing Benjamini–Hochberg as a lone discovery); below it every verdict is inconclusive
   */
  repetitionsNeeded?: number;
  /**
   * cell variants both sides have but measured differently (other workload parameters, other @Param values of the variant, another judged metric): listed with the reason, never compared
   */
  notComparable?: {
    cellId: string;
    series: string;
    reason: string;
  }[];
  /**
   * what an A/B run could resolve
   */
  resolution?: {
    /**
     * comparisons with blocks
     */
    comparisons: number;
    /**
     * the baseline against itself within the run (its odd blocks' median against its even blocks'): median relative difference over the comparisons
     */
    aToAMedian: number;
    /**
     * the largest such difference
     */
    aToAMax: number;
    /**
     * median of the comparisons' detectable change
     */
    detectableMedian?: number;
    /**
     * block pairs with which the paired test can reach significance among this many comparisons (2 / 2^n ≤ α / m)
     */
    pairsNeeded: number;
  };
  /**
   * the A/B run this report is of (loom-matrix ab): both sides measured in the same cells on one machine, interleaved in balanced random order, a fresh JVM each
   */
  ab?: {
    baselineLabel: string;
    candidateLabel: string;
    /**
     * what differs between the sides' definitions (harness, user artifacts, JDK entries); empty for an A/A run
     */
    differences: string[];
    /**
     * block pairs per cell in the first pass
     */
    blocks: number;
    /**
     * block pairs added to a cell with a flagged change
     */
    confirmBlocks: number;
    remeasuredCells: string[];
    /**
     * how each cell's block pairs were measured (issue #30): "back to back" (one side's block, then the other's, in balanced random order; with why in parentheses when --pairing lockstep was asked for), or "lockstep: N pairs, T turns in step[, A alone][ (with R attempts measured again, disturbed)][, B of [the kept forks' ]F begun on CPU C][, not on one CPU (why)][; back to back: M pairs]" (both sides' blocks at once, their forks' iterations by turns; turns given with both sides' forks alive, and alone when one side's fork was missing, over every attempt of a pair measured again because a block was disturbed (--on-disturbed rerun); of the F turns the forks kept took (their records are the last attempt's), B began on CPU C, where each turn's thread was moved first, or why the forks could not move it — a JVM before 22)
     */
    pairing?: {
      [k: string]: string;
    };
    /**
     * the sequential design (issue #30): looks at planned pair counts, the undecided comparisons' cells measured again at each, α spent over the looks
     */
    sequential?: {
      /**
       * the design's name: a group-sequential design with Bonferroni alpha spending
       */
      method: string;
      /**
       * the pair counts of the looks planned before measuring
       */
      looks: number[];
      /**
       * the false-alarm rate each look tests at (α / the number of looks)
       */
      levelPerLook: number;
      /**
       * the level the last look taken tested at: α / J, or all the α the earlier looks left when it was the last (the plan's, or the last the budget affords)
       */
      lastLevel?: number;
      /**
       * the time budget asked for (--budget); absent: none
       */
      budgetSeconds?: number;
      /**
       * the time the run measured for
       */
      spentSeconds?: number;
      /**
       * how many of the looks were taken
       */
      looksTaken: number;
      /**
       * why measuring stopped: every comparison decided, the last look planned, the budget spent, or every comparison left undecided unable to be decided within the pairs left (stopped)
       */
      ended: "decided" | "last-look" | "budget" | "futile";
      /**
       * block pairs each cell got
       */
      pairs: {
        [k: string]: number;
      };
      /**
       * cells the budget left out, each with why: its test's first pass would not fit in the budget after the cheaper cells' (their comparisons have no verdict)
       */
      notMeasured?: {
        [k: string]: string;
      };
      /**
       * comparisons measured no more ('cell series' → why): at their noise, their interval could not clear the threshold either side within the most pairs their cell could still get (futility); they stay inconclusive with what they could detect
       */
      stopped?: {
        [k: string]: string;
      };
      /**
       * cells this host did not run, a side or both, each with why (skipped: a JDK it lacks, another OS, a service cell without its load generator): no comparison, no pairs, and no part of the budget's plan
       */
      notRun?: {
        [k: string]: string;
      };
    };
  };
  /**
   * what the two sides conclude about the workloads' subjects (virtual threads, most often) against the best alternative measured, at the comparison's threshold as the practical band: how many conditions both concluded alike, and each concluded otherwise
   */
  conclusions?: {
    /**
     * the practical band the conclusions are drawn against, a fraction (0.1: ±10 %) — the report's, not the comparison's threshold
     */
    band: number;
    alike: number;
    changed: ConclusionChange[];
  };
  /**
   * Compared cells measured beside other work (issue #32), per side, with the figure: their comparisons stand, with this caveat
   */
  disturbed?: {
    cellId: string;
    side: "baseline" | "candidate";
    figure: string;
  }[];
  /**
   * each cell both sides have, with the candidate's headline contrast (its workload's declared comparison, as the dashboard's matrix shows it) and its value before and after; absent when no shared cell has one
   */
  headlines?: {
    cellId: string;
    words: string;
    kind: "speedup" | "efficiency";
    subject: string;
    /**
     * the variant the subject is compared with (absent for an efficiency)
     */
    reference?: string;
    baseline?: {
      value: number;
      ci95?: Interval2;
    };
    candidate?: {
      value: number;
      ci95?: Interval2;
    };
  }[];
}
/**
 * one condition (a cell, and a user's benchmark in it) concluded otherwise in two runs, with the contrast each conclusion rests on
 */
export interface ConclusionChange {
  cellId: string;
  coordinates: Coordinates;
  benchmark?: string;
  from: Conclusion;
  to: Conclusion;
  before: Contrasted;
  after: Contrasted;
}
export interface Contrasted {
  subject: string;
  reference: string;
  metric: string;
  /**
   * how many times better the subject was than the reference (above 1: the subject is better)
   */
  ratio: number;
  low: number;
  high: number;
  /**
   * the interval's coverage (0.9 for 90 %); below 0.9 with few repetitions
   */
  level?: number;
  conclusion: Conclusion;
  /**
   * a capacity contrast where a side's capacity is only a lower bound (every repetition met the objective at the top of the range searched): the ratio is a floor (at least, the subject's), a ceiling (at most, the reference's) or says nothing (unknown, both); absent where both capacities were found
   */
  bound?: "at least" | "at most" | "unknown";
}
/**
 * loom-matrix report --format json: a run's conclusions per workload (or per benchmark of a user's workload), in the fewest rules along the matrix's axes, each cell's finding with its causes
 */
export interface Conclusions {
  schemaVersion: SchemaVersion;
  runId: string;
  /**
   * in a published history, this run against the run it is compared with there: how many conditions both concluded alike, and each concluded otherwise with what else changed between the two
   */
  since?: {
    runId: string;
    startedAt: string;
    /**
     * the commits between the two runs (abc..def), or the same commit
     */
    commits?: string;
    alike: number;
    changed: {
      change: ConclusionChange;
      /**
       * what else changed at this run for the cell: the JDK build, the image, the runner
       */
      alongside: string[];
      /**
       * a series of the cell starts a new level at this run
       */
      changePoint: boolean;
    }[];
  };
  /**
   * the cells this host did not run, by JDK: conditions the conclusions say nothing about
   */
  notRun?: {
    jdk: string;
    cells: number;
    why: string;
  }[];
  /**
   * the practical band: a difference within ± this is no material difference
   */
  thresholdPercent: number;
  conclusions: {
    workload: string;
    benchmark?: string;
    /**
     * the headline contrast in words
     */
    contrast?: string;
    rules: {
      /**
       * the clauses that all hold where the rule does; none: everywhere (every valid condition)
       */
      where: {
        axis: "jdk" | "os" | "cpus" | "cpuset" | "parallelism" | "maxPoolSize" | "minRunnable";
        values: string[];
      }[];
      conclusion: Conclusion;
      cells: string[];
      lowestRatio?: number;
      highestRatio?: number;
    }[];
    /**
     * the subject variant compared with itself along one axis, the other axes equal: each JDK against the first, each CPU limit against the first, each scheduler setting against the JDK's default
     */
    steps?: {
      axis: "jdk" | "cpus" | "parallelism" | "maxPoolSize" | "minRunnable";
      variant: string;
      from: string;
      to: string;
      at: {
        [k: string]: string;
      };
      fromCell: string;
      toCell: string;
      contrast: Contrasted;
    }[];
    findings: {
      cellId: string;
      coordinates: Coordinates;
      benchmark?: string;
      conclusion: Conclusion;
      headline?: Contrasted;
      tail?: Contrasted1;
      /**
       * how many other variants the cell measured beside the subject (1: the best other is the only one); absent when none
       */
      alternatives?: number;
      /**
       * what weakens the contrast's numbers, said where it applies: a side not steady in some forks (their iterations still trended), or unstable (its forks spread widely); absent when none
       */
      caveats?: string[];
      /**
       * where the subject does not pay off, the other variants measured that differ from it beyond the band, each against the subject (its subject is the other variant, its reference the finding's subject); absent when none
       */
      others?: Contrasted[];
      overBest?: Contrasted2;
      /**
       * not-valid: the reason; cannot-tell: what would decide
       */
      why?: string;
      causes?: {
        kind: "pinning" | "gc" | "cpu-bound" | "pool-bound" | "memory" | "too-small" | "unmeasured";
        variant: string;
        evidence: "jfr" | "measurements" | "environment" | "profiles";
        words: string;
      }[];
    }[];
  }[];
}
/**
 * a service's p99 latency, the subject against the variant the conclusion rests on (above 1: the subject's is lower), with its own class
 */
export interface Contrasted1 {
  subject: string;
  reference: string;
  metric: string;
  /**
   * how many times better the subject was than the reference (above 1: the subject is better)
   */
  ratio: number;
  low: number;
  high: number;
  /**
   * the interval's coverage (0.9 for 90 %); below 0.9 with few repetitions
   */
  level?: number;
  conclusion: Conclusion;
  /**
   * a capacity contrast where a side's capacity is only a lower bound (every repetition met the objective at the top of the range searched): the ratio is a floor (at least, the subject's), a ceiling (at most, the reference's) or says nothing (unknown, both); absent where both capacities were found
   */
  bound?: "at least" | "at most" | "unknown";
}
/**
 * the subject against the best other variant measured, when that is not the headline's reference; it decides the conclusion
 */
export interface Contrasted2 {
  subject: string;
  reference: string;
  metric: string;
  /**
   * how many times better the subject was than the reference (above 1: the subject is better)
   */
  ratio: number;
  low: number;
  high: number;
  /**
   * the interval's coverage (0.9 for 90 %); below 0.9 with few repetitions
   */
  level?: number;
  conclusion: Conclusion;
  /**
   * a capacity contrast where a side's capacity is only a lower bound (every repetition met the objective at the top of the range searched): the ratio is a floor (at least, the subject's), a ceiling (at most, the reference's) or says nothing (unknown, both); absent where both capacities were found
   */
  bound?: "at least" | "at most" | "unknown";
}
