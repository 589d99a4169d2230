#!/usr/bin/env bash
# The seeds at their own scale with iterations inside each JVM (issue #18): each fork's steady state beside
# its cold start, for the seed tables of docs/seeds.md, in containers with --cpus 2 (local/debian-openjdk:25).
# benchmarks/fidelity/run.sh (TASKS=10000 SLEEP_MS=300) has seed 002's virtual, pool:200 and pool:1000; this
# adds pool:500 and pool:800 (and pool:1000 again), seed 003 (primes-io; its pool runs 51 s an iteration, so 1 warmup + 1 measured),
# seed 004 (fib-fanout, 1 + 3) and seeds 000/001's virtual threads (1,000,000; platform threads take over two
# minutes an iteration here, so their row stays the cold table's). About 15 minutes on this machine.
# Usage: benchmarks/seeds-steady/run.sh [OUT_DIR]   (repository root)
set -euo pipefail
out="${1:-benchmarks/results/$(date -u +%Y-%m-%d)-seeds-steady}"
mkdir -p "$out"
work="$(mktemp -d)"   # the run and its console (printed too); OUT_DIR gets the matrix, summary.json and the commit
trap 'rm -rf "$work"' EXIT
cat > "$out/matrix.yaml" <<YAML
schema: 1
jdks:
  - {id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}
cpus: [2]
workloads:
  - {id: sleep-bound, variants: ["pool:500", "pool:800", "pool:1000"], params: {tasks: 10000, sleepMs: 300}, iterations: {warmup: 2, measure: 5}}
  - {id: primes-io, variants: [virtual, "pool:cpus"], params: {tasks: 10000}, iterations: {warmup: 1, measure: 1}}
  - {id: fib-fanout, variants: [sequential, naive-virtual, executor, caller-virtual, semaphore], iterations: {warmup: 1, measure: 3}}
  - {id: mass-start, variants: [virtual], params: {jmhIterations: 0}, iterations: {warmup: 1, measure: 3}}
repetitions: 3
warmup: 0
timeout: 60m
memory: 4g
YAML
./loom-matrix run --matrix "$out/matrix.yaml" --backend docker --out "$work/run" | tee "$work/run.log"
jq -s '[.[] | .coordinates.workload as $w | .measurements[] | {
    workload: $w, variant, lowerBoundMs, iterations,
    steadyMedianMs: .summary.median, steadyCi: .summary.ci95, ciLevel: .summary.ciLevel,
    steadyOverBound: (if .lowerBoundMs then .summary.median / .lowerBoundMs else null end),
    coldMedianMs: .coldStart.median, coldCi: .coldStart.ci95,
    coldOverBound: (if .lowerBoundMs and .coldStart then .coldStart.median / .lowerBoundMs else null end),
    steady: [.samples[].steady]
  }]' "$work"/run/cells/*.json | tee "$out/summary.json"
git rev-parse --short HEAD > "$out/commit.txt"
