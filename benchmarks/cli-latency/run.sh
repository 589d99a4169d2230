#!/usr/bin/env bash
# How fast the CLI answers: median wall time of `validate` and `plan` on a 3-cell and a 1,000-cell
# matrix, beside `java -version` of the same JDK for scale, measured side by side by hyperfine (the
# machine is shared: only figures from one run are compared). Goes through ./loom-matrix, the source tree's
# launcher, and through bin/loom-matrix of the release archive unpacked in a temporary directory, each after
# one call that builds what it needs and makes its start-up cache. Issue #29's target: ≤ 250 ms (3 cells).
# Usage: benchmarks/cli-latency/run.sh [OUT_DIR]   (default: benchmarks/results/<date>-cli-latency)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-$root/benchmarks/results/$(date -u +%Y-%m-%d)-cli-latency}"
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cp "$root/benchmarks/cli-latency/small.yaml" "$work/small.yaml"
# 5 JDKs × 5 quotas × 4 parallelism values × 2 pool sizes × 5 workloads = 1,000 cells
cat > "$work/large.yaml" <<'YAML'
schema: 1
jdks:
  - {id: t21, vm: hotspot, version: 21, image: "eclipse-temurin:21-jdk"}
  - {id: t23, vm: hotspot, version: 23, image: "eclipse-temurin:23-jdk"}
  - {id: t25, vm: hotspot, version: 25, image: "eclipse-temurin:25-jdk"}
  - {id: s21, vm: openj9, version: 21, image: "ibm-semeru-runtimes:open-21-jdk"}
  - {id: s25, vm: openj9, version: 25, image: "ibm-semeru-runtimes:open-25-jdk"}
os: [linux]
cpus: [0.5, 1, 2, 4, 8]
scheduler:
  parallelism: [auto, 1, 2, 4]
  maxPoolSize: [auto, 512]
workloads:
  - {id: sleep-bound, variants: [virtual, "pool:200"]}
  - {id: primes-io, variants: [virtual, "pool:cpus"]}
  - {id: fib-fanout, variants: [sequential, executor]}
  - {id: pinning, variants: [synchronized, reentrant-lock]}
  - {id: http-server, variants: [virtual, "pool:200"]}
YAML

lm="$root/loom-matrix"
"$lm" plan --matrix "$work/large.yaml" --format json | jq -e '.cells | length == 1000' >/dev/null
"$lm" validate --matrix "$work/small.yaml" >/dev/null   # builds if needed, makes the start-up cache
java="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
# The installed CLI: the release archive (./mvnw package -pl dist -am), unpacked as a team would
archive="$(ls "$root"/dist/target/loom-matrix-*.tar.gz 2>/dev/null | head -1)"
[ -n "$archive" ] || { echo "no release archive: build it first (./mvnw -q package -pl dist -am -DskipTests)" >&2; exit 2; }
tar xzf "$archive" -C "$work"
installed="$(ls -d "$work"/loom-matrix-*/)bin/loom-matrix"
"$installed" validate --matrix "$work/small.yaml" >/dev/null   # makes its start-up cache

hyperfine -N --warmup 3 --runs "${RUNS:-20}" --export-json "$out/hyperfine.json" \
  -n "java -version" "$java -version" \
  -n "validate (3 cells)" "$lm validate --matrix $work/small.yaml" \
  -n "plan (3 cells)" "$lm plan --matrix $work/small.yaml" \
  -n "installed: validate (3 cells)" "$installed validate --matrix $work/small.yaml" \
  -n "installed: plan (3 cells)" "$installed plan --matrix $work/small.yaml" \
  -n "validate (1,000 cells)" "$lm validate --matrix $work/large.yaml" \
  -n "plan (1,000 cells)" "$lm plan --matrix $work/large.yaml" >&2

{
  echo "# CLI latency, $(date -u +%Y-%m-%dT%H:%MZ), commit $(git -C "$root" rev-parse --short HEAD)"
  echo
  echo "$(nproc) CPUs, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1); JDK $("$java" -version 2>&1 | head -1)."
  echo "hyperfine, $(jq '.results[0].times | length' "$out/hyperfine.json") runs each after 3 warmups, side by side in one invocation."
  echo "Command: \`RUNS=${RUNS:-20} benchmarks/cli-latency/run.sh\` ([hyperfine.json](hyperfine.json): every run's time)."
  echo
  echo "| command | median | mean ± σ | min |"
  echo "|---|---|---|---|"
  jq -r '.results[] | "| \(.command) | \(.median * 1000 | round) ms | \(.mean * 1000 | round) ± \(.stddev * 1000 | round) ms | \(.min * 1000 | round) ms |"' "$out/hyperfine.json"
} > "$out/README.md"
cat "$out/README.md"
