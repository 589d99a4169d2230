#!/usr/bin/env bash
# What an A/B run can resolve on this machine, and how often it cries wolf (issue #17): repeated A/A runs —
# the same build on both sides, so every flag is a false alarm — of
#   (1) built-in workloads in locked-down containers (the offline image local/debian-openjdk:25, cpus 2):
#       sleep-bound, primes-io, thread-local at the quick profile's scale, and
#   (2) a team's own program on the local backend (the A/B pipeline test's project, runner/src/test/resources/ab-project),
# plus A/B runs of that program with a known change (each render task waits 20 % longer), which must be found.
# Every run: 8 block pairs per cell, 8 more to confirm a flag, threshold 10 %, FDR 5 %.
# Usage: benchmarks/ab/run.sh [AA_RUNS_CONTAINERS] [AA_RUNS_PROGRAM] [AB_RUNS] [OUT_DIR]   (0 runs: that part is skipped)   (repository root;
# needs a Docker engine with the offline images: scripts/test-environment.sh)
set -euo pipefail
aa_containers="${1:-6}" aa_program="${2:-10}" ab_runs="${3:-3}"
out="${4:-benchmarks/results/$(date -u +%Y-%m-%d)-ab}"
root="$(pwd)"
./loom-matrix --version > /dev/null   # built now, then run from a copy: the tree may be rebuilt meanwhile
mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
java_home="${JAVA_HOME:?set JAVA_HOME to a JDK 21+}"
mkdir "$work/cli" && cp -r runner/target/lib "$work/cli/lib" && cp runner/target/loom-matrix.jar "$work/cli/"
printf '#!/bin/sh\nexec "%s/bin/java" --enable-native-access=ALL-UNNAMED -jar "%s" "$@"\n' "$java_home" "$work/cli/loom-matrix.jar" > "$work/loom-matrix"
chmod +x "$work/loom-matrix"
lm() { "$work/loom-matrix" "$@"; }
version="$("$java_home/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/ *java.specification.version = //p')"

summary() {  # $1: label, $2…: compare.json files
  local label="$1"; shift
  jq -s --arg name "$label" '{
      "label": $name, "runs": length,
      "comparisons": (map(.comparisons | length) | add),
      "flaggedFirstPass": (map([.comparisons[] | select(.confirmation != null)] | length) | add),
      "flaggedConfirmed": (map(.regressions + .improvements) | add),
      "runsWithAConfirmedFlag": (map(select(.regressions + .improvements > 0)) | length),
      "aToAMedianPercent": (map(.resolution.aToAMedian * 100) | sort | .[length / 2 | floor]),
      "aToAMaxPercent": (map(.resolution.aToAMax * 100) | max),
      "detectableMedianPercent": (map(.resolution.detectableMedian // empty | . * 100) | sort | .[length / 2 | floor]),
      "detectableByComparison": (map(.comparisons[] | {cell: (.cellId | split(".") | last), variant, test, noise: ((.noise // 0) * 1000 | round / 10), detectable: (if .detectable then (.detectable * 1000 | round / 10) else null end), verdict}) | group_by(.cell + .variant) | map({cell: .[0].cell, variant: .[0].variant, noisePercent: (map(.noise) | sort | .[length / 2 | floor]), detectablePercent: (map(.detectable // empty) | sort | .[length / 2 | floor]), verdicts: (map(.verdict) | group_by(.) | map({(.[0]): length}) | add)})),
      "pairedTests": (map([.comparisons[] | select(.test == "signed-rank")] | length) | add)
    }' "$@"
}

# (1) built-in workloads in containers
cat > "$work/builtin.yaml" <<YAML
schema: 1
jdks:
  - {id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}
cpus: [2]
workloads:
  - {id: sleep-bound, variants: [virtual, "pool:100"], params: {tasks: 1000, sleepMs: 50}}
  - {id: primes-io, variants: [virtual, "pool:cpus"], params: {tasks: 200, primeLimitMin: 1000, primeLimitMax: 6000, sleepMs: 10}}
  - {id: thread-local, variants: [virtual, "pool:cpus"], params: {tasks: 10000}}
repetitions: 3
warmup: 1
timeout: 10m
memory: 1g
YAML
for i in $(seq 1 "$aa_containers"); do
  lm ab --matrix "$work/builtin.yaml" --backend docker --blocks 8 --out "$work/aa-builtin-$i" > "$work/aa-builtin-$i.log" 2>&1 || true
  cp "$work/aa-builtin-$i/compare.json" "$out/aa-builtin-$i.json"
done

# (2) a team's program: its repository with two commits, built by its build setting
repo="$work/repo"
cp -r runner/src/test/resources/ab-project "$repo"
program() {
  printf '  - id: %s\n    program: {classpath: [build/work.jar], mainClass: Work, args: [%s, "7"], metrics: {roundMs: {unit: ms, direction: lower}}}\n    variants: {virtual: {properties: {work.virtual: "true"}}, platform: {properties: {work.virtual: "false"}}}\n    baseline: platform\n' "$1" "$1"
}
{ echo "schema: 1"; echo "jdks: [{id: host, vm: hotspot, version: $version, javaHome: \"$java_home\"}]"
  echo "cpus: [2]"; echo "workloads:"; program parse; program render
  echo "repetitions: 3"; echo "warmup: 0"; echo "timeout: 5m"; echo "memory: 512m"; } > "$repo/matrix.yaml"
echo "build/" > "$repo/.gitignore"
export GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@example.com GIT_COMMITTER_NAME=b GIT_COMMITTER_EMAIL=b@example.com
git -C "$repo" init -q -b main && git -C "$repo" add -A && git -C "$repo" commit -q -m base
sed -i 's/RENDER_MS = 10;/RENDER_MS = 12;/' "$repo/src/Work.java" && git -C "$repo" commit -q -am "render waits 20 % longer"
export LOOM_BENCHMARK_BUILD="sh build.sh" LOOM_CLI="$work/loom-matrix"
for i in $(seq 1 "$aa_program"); do
  (cd "$repo" && "$root/scripts/ci/ab.sh" "$work/aa-program-$i" HEAD --backend local --blocks 8 > "$work/aa-program-$i.log" 2>&1) || true
  cp "$work/aa-program-$i/ab/compare.json" "$out/aa-program-$i.json"
done
for i in $(seq 1 "$ab_runs"); do
  (cd "$repo" && "$root/scripts/ci/ab.sh" "$work/ab-program-$i" HEAD~1 --backend local --blocks 8 > "$work/ab-program-$i.log" 2>&1) || true
  cp "$work/ab-program-$i/ab/compare.json" "$out/ab-program-$i.json"
done

# the summaries are of every run recorded in OUT_DIR (a part given 0 runs keeps the runs recorded before)
summary "A/A, built-in workloads, containers" "$out"/aa-builtin-*.json > "$out/aa-builtin.json"
summary "A/A, a team's program, local backend" "$out"/aa-program-*.json > "$out/aa-program.json"
summary "A/B, render waits 20 % longer (2 of 4 comparisons changed)" "$out"/ab-program-*.json > "$out/ab-program.json"
jq -s . "$out/aa-builtin.json" "$out/aa-program.json" "$out/ab-program.json" | tee "$out/summary.json"
git rev-parse --short HEAD > "$out/commit.txt"
