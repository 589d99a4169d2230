#!/usr/bin/env bash
# The example program under ab (issue #30: a program's target is a 2 % change within a 10-minute budget), side by
# side on this machine, one run after the other, nothing else measuring. The program is the example's load test
# (example.blocking.LoadTest, 10 measured rounds of 100 requests after its 5 warmup rounds, local backend, 2 CPUs),
# judged by its round time, --threshold 2:
#   aa-before    the CLI before #30 (313c5d3) with its defaults: one look, 6 pairs
#   aa-previous  the CLI of BEFORE_REV (default ab71a23: the program judged by its per-run medians, the signed-rank
#                test, at most 40 pairs) with --budget 10m
#   aa-after-N   this commit's CLI with --budget 10m: the program's rounds are its iterations (the nested t), the
#                budget's last look takes every pair it affords (AA_RUNS runs, default 2)
#   2pct-after   this commit's CLI, the candidate's blocking calls 2 % longer (10.2 ms instead of 10: a round of the
#                platform variant's 8 waves about 2 % slower, a virtual round's ~12 ms about 1.7 %)
# Usage: benchmarks/ab-budget/program.sh [OUT_DIR] [BEFORE_REV] [AA_RUNS]   (repository root; JAVA_HOME a JDK 25;
#   a run already recorded in OUT_DIR is kept; KEEP_RUNS=DIR keeps each run's directory: lib.sh)
set -euo pipefail
out="${1:-benchmarks/results/$(date -u +%Y-%m-%d)-ab-program}"
previous_rev="${2:-ab71a23}"
aa_runs="${3:-2}"
java_home="${JAVA_HOME:?set JAVA_HOME to a JDK 25}"
source "$(dirname "$0")/lib.sh"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

declare -A rev=([before]=313c5d3 [previous]="$previous_rev" [after]=HEAD)
for t in before previous after; do
  cli_at "$t" "${rev[$t]}"
done
version="$("$java_home/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/ *java.specification.version = //p')"

# a team's repository holding the example project (this commit's), built by Maven; and the same with its blocking
# calls 2 % longer
for build in base slower; do
  repo="$work/repo-$build"
  if [ "$build" = slower ]; then
    PATCH='s|Duration.ofMillis(10))|Duration.ofNanos(10_200_000))|' example_repo "$repo"
  else
    example_repo "$repo"
  fi
  cat > "$work/program-$build.yaml" <<YAML
schema: 1
jdks: [{id: host, vm: hotspot, version: $version, javaHome: "$java_home"}]
cpus: [2]
workloads:
  - id: load-test
    program:
      classpath: [$repo/target/benchmarks.jar]
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
done

ab() {  # $1: name, $2: before|previous|after, then ab options
  local name="$1" which="$2" started; shift 2
  if [ -f "$out/$name.json" ]; then echo "kept: $name" >&2; return; fi
  started="$(date +%s)"
  "$work/$which/loom-matrix" ab --threshold 2 --backend local --out "$work/$name" "$@" > "$work/$name.log" 2>&1 || true
  record "$name" "$started" "$work/$name" "$machine"
}
# how steady the machine is as the runs start (machine.sh), beside each run in runs.json
machine="$(HARNESS="$work/after/harness/target/harness.jar" "$(dirname "$0")/machine.sh")"
ab aa-before before --matrix "$work/program-base.yaml"
ab aa-previous previous --matrix "$work/program-base.yaml" --budget 10m
for i in $(seq 1 "$aa_runs"); do
  ab "aa-after-$i" after --matrix "$work/program-base.yaml" --budget 10m
done
ab 2pct-after after --matrix "$work/program-slower.yaml" --baseline-matrix "$work/program-base.yaml" --budget 10m \
  --baseline-label "10 ms calls" --candidate-label "10.2 ms calls"

for f in "$out"/*.json; do
  name="$(basename "$f" .json)"
  [ "$name" = summary ] || [ "$name" = runs ] && continue
  jq --arg name "$name" --argjson seconds "$(seconds_of "$name")" '{
      run: $name, seconds: $seconds,
      pairs: (.ab.sequential.pairs // null | if . then [.[]] else null end),
      ended: (.ab.sequential.ended // null),
      comparisons: [.comparisons[] | {variant, verdict, test, pairs,
        changePercent: ((.ratio - 1) * 1000 | round / 10),
        ci: (.ci95 | map((. - 1) * 1000 | round / 10)), ciLevel,
        detectablePercent: (if .detectable then (.detectable * 1000 | round / 10) else null end),
        noisePercent: (if .noise then (.noise * 1000 | round / 10) else null end)}]
    }' "$f"
done | jq -s '.' > "$out/summary.json"
git rev-parse --short HEAD > "$out/commit.txt"
jq -c '.[] | {run, seconds, pairs, ended, c: [.comparisons[] | [.variant, .verdict, .test, .changePercent, .detectablePercent]]}' "$out/summary.json"
