#!/usr/bin/env bash
# What a pull request's A/B sees within a 10-minute budget (issue #30), before and after, on this machine, in one
# invocation, and how often it cries wolf. Every run is A/A — the same build on both sides — so every flag is a
# false alarm and "detectable" is the smallest change each comparison could have caught:
#   quick    the repository's quick profile, its JDK 25 cells (the offline image local/debian-openjdk:25), in
#            locked-down containers — what pr.yml runs for harness changes;
#   jmh      the example JMH suite (examples/jmh-blocking, threadsByParam, 2 warmup + 5 measured × 200 ms a fork),
#            a team's repository, local backend;
#   jox      a third-party JMH suite run unmodified: softwaremill/jox bench/bench-java RendezvousBenchmark (two
#            virtual threads handing off through a jox Channel / a SynchronousQueue; 2 + 3 × 1 s iterations, one
#            fork a block), its variants the virtual-thread scheduler's default parallelism and parallelism 1;
#   program  the example program (example.blocking.LoadTest, 10 rounds of 100 requests), local backend;
#   ab       the repository's ab profile (what pr.yml now runs: steadier built-in cells, JDK 25) on the offline
#            image, in containers.
# "before" is the CLI before #30 (BEFORE_REV) with its defaults; "after" this commit's with --budget 10m. Then
# AB_RUNS − 1 more A/A runs of the ab profile, after, for the false-alarm count. Every run --threshold 3 (a 5 % change
# counts), the program's --threshold 2 (its target: 2 %; "detectable" is never said below the threshold); FDR 5 %.
# Usage: benchmarks/ab-budget/run.sh JOX_BENCHMARKS_JAR [OUT_DIR] [BEFORE_REV] [AB_RUNS]   (runs already
#   recorded in OUT_DIR are kept: a second invocation measures what is missing)
#   (repository root; a Docker engine with the offline images and oha: scripts/test-environment.sh; JAVA_HOME a
#   JDK 25; JOX_BENCHMARKS_JAR: jox's bench/bench-java built with its own Maven build, target/benchmarks.jar;
#   KEEP_RUNS=DIR keeps each run's directory: lib.sh)
set -euo pipefail
jox_jar="$(realpath "${1:?the jox benchmarks jar}")"
out="${2:-benchmarks/results/$(date -u +%Y-%m-%d)-ab-budget}"
before_rev="${3:-313c5d3}"
ab_runs="${4:-5}"
java_home="${JAVA_HOME:?set JAVA_HOME to a JDK 25}"
source "$(dirname "$0")/lib.sh"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

cli_at before "$before_rev"
cli_at after HEAD
version="$("$java_home/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/ *java.specification.version = //p')"
host_jdk="jdks: [{id: host, vm: hotspot, version: $version, javaHome: \"$java_home\"}]"

ab() {  # $1: name, $2: before|after, $3: matrix, then ab options (a run recorded in OUT_DIR already is kept)
  local name="$1" which="$2" matrix="$3" started; shift 3
  if [ -f "$out/$name.json" ]; then echo "kept: $name" >&2; return; fi
  started="$(date +%s)"
  if [ "$which" = after ]; then set -- "$@" --budget 10m; fi
  local cli="$work/$which/loom-matrix"
  "$cli" ab --matrix "$matrix" --threshold "${threshold:-3}" --out "$work/$name" "$@" > "$work/$name.log" 2>&1 || true
  record "$name" "$started" "$work/$name"
}

# quick: the JDK 25 cells of the repository's offline profile (the quick profile on the offline images)
quick_cells=()
while read -r cell; do quick_cells+=(--cell "$cell"); done < <(
  "$work/after/loom-matrix" plan --matrix "$root/matrix.yaml" --profile offline | awk '/^debian-25/{print $1}')
quick() { ab "$1" "$2" "$root/matrix.yaml" --profile offline --backend docker "${quick_cells[@]}"; }
abprofile() { ab "$1" "$2" "$root/matrix.yaml" --profile ab-offline --backend docker; }

# jmh and program: a team's repository holding the example project, built by Maven
repo="$work/repo"
example_repo "$repo"
cat > "$repo/jmh.yaml" <<YAML
schema: 1
$host_jdk
cpus: [2]
workloads:
  - id: blocking
    jmh:
      jar: target/benchmarks.jar
      include: ['BlockingServiceBenchmark\\.threadsByParam\$']
      params: {poolSize: [50], requests: [100]}
      warmupIterations: 2
      iterations: 5
      warmupTime: 200ms
      time: 200ms
    variants:
      virtual: {params: {threadType: VIRTUAL}}
      platform: {params: {threadType: PLATFORM}}
    baseline: platform
repetitions: 3
warmup: 0
timeout: 10m
memory: 1g
YAML
cat > "$repo/program.yaml" <<YAML
schema: 1
$host_jdk
cpus: [2]
workloads:
  - id: load-test
    program:
      classpath: [target/benchmarks.jar]
      mainClass: example.blocking.LoadTest
      args: ["10", "100"]
      metrics:
        roundMs: {unit: ms, direction: lower}
        requestsPerSecond: {unit: req/s, direction: higher}
    variants:
      virtual: {properties: {blocking.threads: virtual}}
      platform: {properties: {blocking.threads: platform}}
    baseline: platform
repetitions: 3
warmup: 0
timeout: 10m
memory: 1g
YAML
cat > "$work/jox.yaml" <<YAML
schema: 1
$host_jdk
cpus: [2]
workloads:
  - id: rendezvous
    jmh:
      jar: $jox_jar
      include: ['RendezvousBenchmark\\.(channel|synchronousQueue)\$']
      warmupIterations: 2
      iterations: 3
      warmupTime: 1s
      time: 1s
      forks: 1
    variants:
      default-parallelism: {properties: {}}
      parallelism-1: {properties: {jdk.virtualThreadScheduler.parallelism: "1"}}
    baseline: default-parallelism
repetitions: 3
warmup: 0
timeout: 10m
memory: 1g
YAML

for t in before after; do
  quick "quick-aa-$t" "$t"
  ab "jmh-aa-$t" "$t" "$repo/jmh.yaml" --backend local
  ab "jox-aa-$t" "$t" "$work/jox.yaml" --backend local
  threshold=2 ab "program-aa-$t" "$t" "$repo/program.yaml" --backend local
  abprofile "ab-aa-$t" "$t"
done
for i in $(seq 2 "$ab_runs"); do
  abprofile "ab-aa-after-$i" after
done

# per run: its time, verdicts, the sequential plan's course; per comparison: verdict, test, pairs, change,
# detectable; and the false alarms of every "after" run against the rate stated
for f in "$out"/*-aa-*.json; do
  name="$(basename "$f" .json)"
  jq --arg name "$name" --argjson seconds "$(seconds_of "$name")" "$JQ_MEDIAN"'{
      run: $name, seconds: $seconds, alpha, regressions, improvements,
      verdicts: ([.comparisons[].verdict] | group_by(.) | map({(.[0]): length}) | add),
      sequential: (.ab.sequential // null | if . then {looks, looksTaken, ended, pairs} else null end),
      detectableMedianPercent: ([.comparisons[] | select(.detectable) | .detectable * 100] | median
        | if . then . * 10 | round / 10 else null end),
      comparisons: [.comparisons[] | {
        series: ((.cellId | split(".") | last) + " " + .series), verdict, test, pairs,
        changePercent: ((.ratio - 1) * 1000 | round / 10),
        detectablePercent: (if .detectable then (.detectable * 1000 | round / 10) else null end)}]
    }' "$f"
done | jq -s '{
    runs: .,
    falseAlarms: ([.[] | select(.run | test("-after"))] | {
      runs: length,
      comparisons: (map(.comparisons | length) | add),
      flagged: (map(.regressions + .improvements) | add),
      runsWithAFlag: (map(select(.regressions + .improvements > 0)) | length),
      statedRatePerRun: .[0].alpha})
  }' > "$out/summary.json"
git rev-parse --short HEAD > "$out/commit.txt"
echo "$before_rev" > "$out/before.txt"
jq '{falseAlarms, runs: [.runs[] | {run, seconds, verdicts, detectableMedianPercent}]}' "$out/summary.json"
