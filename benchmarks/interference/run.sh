#!/usr/bin/env bash
# How often a quiet machine's cells are flagged disturbed, and the smallest CPU hog that gets a cell flagged
# (issue #32). Quiet: one run of 30 container cells (5 built-ins at a small scale × CPU limits 1, 2 × parallelism
# auto, 1, 2), nothing else measuring. Hogs: stress-ng at 10-60 % of one CPU, pinned to CPU 1, beside a sleep-bound
# cell pinned to CPU 0, two cells each. Every cell's interference (otherCpusMean, flagged) into summary.json.
# Usage: benchmarks/interference/run.sh [OUT_DIR]   (repository root; a Docker engine with the offline images:
#   scripts/test-environment.sh, which also installs stress-ng; JAVA_HOME a JDK 21+)
set -euo pipefail
out="${1:-benchmarks/results/$(date -u +%Y-%m-%d)-interference}"
root="$(pwd)"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$(mktemp -d)"
trap 'pkill -f "stress-ng --cpu 1 --cpu-load" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
cli=("${JAVA_HOME:?set JAVA_HOME}/bin/java" -jar "$root/runner/target/loom-matrix.jar")
[ -f "$root/runner/target/loom-matrix.jar" ] || (cd "$root" && ./loom-matrix --version >/dev/null)

cat > "$work/quiet.yaml" <<'YAML'
schema: 1
jdks: [{id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}]
cpus: [1, 2]
scheduler: {parallelism: [auto, 1, 2]}
workloads:
  - {id: sleep-bound, variants: [virtual, "pool:20"], params: {tasks: 400, sleepMs: 20}}
  - {id: fib-fanout, variants: [sequential, caller-virtual], params: {n: 20, calls: 100}}
  - {id: mass-start, variants: [virtual, platform], params: {threads: 2000, jmhIterations: 0}}
  - {id: primes-io, variants: [virtual, "pool:cpus"], params: {tasks: 20}}
  - {id: thread-local, variants: [virtual, "pool:cpus"], params: {tasks: 2000}}
repetitions: 3
warmup: 1
memory: 512m
YAML
cat > "$work/hog.yaml" <<'YAML'
schema: 1
jdks: [{id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}]
cpus: [1]
cpuset: ["0"]
workloads:
  - {id: sleep-bound, variants: [virtual, "pool:20"], params: {tasks: 400, sleepMs: 50}}
repetitions: 5
warmup: 1
memory: 512m
YAML

cell_facts() {  # $1: run dir, $2: label → one JSON line per cell
  for f in "$1"/cells/*.json; do
    jq -c --arg what "$2" '{what: $what, cell: .cellId, status,
      otherCpusMean: .execution.interference.otherCpusMean, otherCpusMax: .execution.interference.otherCpusMax,
      flagged: (.execution.interference.disturbed != null)}' "$f"
  done
}

"${cli[@]}" run --matrix "$work/quiet.yaml" --backend docker --out "$work/quiet" > "$work/quiet.log" 2>&1
cell_facts "$work/quiet" quiet > "$out/cells.jsonl"
for load in 10 20 30 40 60; do
  stress-ng --cpu 1 --cpu-load "$load" --taskset 1 --timeout 600s > /dev/null 2>&1 &
  hog=$!
  sleep 1
  "${cli[@]}" run --matrix "$work/hog.yaml" --backend docker --out "$work/hog-$load-a" >> "$work/hogs.log" 2>&1
  "${cli[@]}" run --matrix "$work/hog.yaml" --backend docker --out "$work/hog-$load-b" >> "$work/hogs.log" 2>&1
  kill "$hog"; wait "$hog" 2>/dev/null || true
  cell_facts "$work/hog-$load-a" "hog $load %" >> "$out/cells.jsonl"
  cell_facts "$work/hog-$load-b" "hog $load %" >> "$out/cells.jsonl"
done

jq -s '{
  threshold: 0.25,
  quiet: ([.[] | select(.what == "quiet")] | {cells: length, flagged: (map(select(.flagged)) | length),
          otherCpusMean: {mean: ((map(.otherCpusMean) | add) / length * 1000 | round / 1000),
                          max: (map(.otherCpusMean) | max)}}),
  hogs: ([.[] | select(.what != "quiet")] | group_by(.what) | map({hog: .[0].what,
          otherCpusMean: map(.otherCpusMean), flagged: map(.flagged)}))
}' "$out/cells.jsonl" > "$out/summary.json"
git -C "$root" rev-parse --short HEAD > "$out/commit.txt"
cat "$out/summary.json"
