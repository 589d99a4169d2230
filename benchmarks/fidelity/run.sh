#!/usr/bin/env bash
# Fidelity with iterations inside each JVM (issue #18): how close the steady state comes to the lower bound
# physics allows, beside each fork's cold start, in locked-down containers with --cpus 2 on this machine.
# sleep-bound at the issue's table scale (TASKS × SLEEP_MS, default 2000 × 100 ms: virtual, pool:200, pool:1000)
# and primes-io (virtual, pool:cpus); 3 forks, iterations {warmup 2, measure 5}.
# Usage: benchmarks/fidelity/run.sh [OUT_DIR]   (repository root; Docker with local/debian-openjdk:25)
# Env: TASKS, SLEEP_MS (seed 002's own scale: TASKS=10000 SLEEP_MS=300 — about 25 minutes here)
set -euo pipefail
out="${1:-benchmarks/results/$(date -u +%Y-%m-%d)-fidelity}"
tasks="${TASKS:-2000}" sleep_ms="${SLEEP_MS:-100}"
mkdir -p "$out"
work="$(mktemp -d)"   # the run and its console (printed too); OUT_DIR gets the matrix, summary.json and the commit
trap 'rm -rf "$work"' EXIT
cat > "$out/matrix.yaml" <<YAML
schema: 1
jdks:
  - {id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}
cpus: [2]
workloads:
  - {id: sleep-bound, variants: [virtual, "pool:200", "pool:1000"], params: {tasks: $tasks, sleepMs: $sleep_ms}}
  - {id: primes-io, variants: [virtual, "pool:cpus"], params: {tasks: 200}}
repetitions: 3
warmup: 0
iterations: {warmup: 2, measure: 5}
timeout: 60m
memory: 1g
YAML
./loom-matrix run --matrix "$out/matrix.yaml" --backend docker --out "$work/run" | tee "$work/run.log"
jq -s '[.[] | .coordinates.workload as $w | .measurements[] | {
    workload: $w, variant, lowerBoundMs,
    steadyMedianMs: .summary.median,
    steadyOverBound: (if .lowerBoundMs then .summary.median / .lowerBoundMs else null end),
    forkMeansCvPercent: ([.samples[].wallMs] | (add / length) as $m | (map(. - $m | . * .) | add / (length - 1) | sqrt) / $m * 100),
    coldStartMs: [.samples[].coldStartMs],
    coldOverBound: (if .lowerBoundMs then ([.samples[].coldStartMs] | sort | .[length / 2 | floor]) / .lowerBoundMs else null end),
    steady: [.samples[].steady]
  }]' "$work"/run/cells/*.json | tee "$out/summary.json"
git rev-parse --short HEAD > "$out/commit.txt"
