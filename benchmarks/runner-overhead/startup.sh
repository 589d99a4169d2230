#!/usr/bin/env bash
# A run's start: from the CLI's launch to the first cell's container being created (docker events), for `run` as the
# launcher starts it (the start-up cache mapped; native access allowed by the jar's manifest) beside the same jar
# started as before 2026-11-28 (no cache, `--enable-native-access=ALL-UNNAMED` on the command line), alternated
# ROUNDS times on a one-cell container matrix. Only the side-by-side figures are compared (a shared machine).
# Needs a Docker engine and the offline images (containers/offline/build-images.sh).
# Usage: benchmarks/runner-overhead/startup.sh OUT_DIR
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:?usage: startup.sh OUT_DIR}"
rounds="${ROUNDS:-10}"
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/matrix.yaml" <<'YAML'
schema: 1
jdks:
  - {id: d25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}
os: [linux]
cpus: [1]
workloads:
  - {id: sleep-bound, variants: [virtual, "pool:100"], params: {tasks: 1000, sleepMs: 50}}
repetitions: 2
warmup: 1
memory: 1g
YAML
lm="$root/loom-matrix"
"$lm" run --matrix "$work/matrix.yaml" --backend docker --out "$work/prime" >/dev/null 2>&1   # built, cache made
launch="$root/runner/target/launch/$(cat "$root/runner/target/launch.id")"
java="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
before() { "$java" --enable-native-access=ALL-UNNAMED -Dloom.services="$launch/services" -Dloom.home="$launch" \
  -jar "$launch/loom-matrix.jar" "$@"; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# the first container creation after $1 (ms), from docker's event stream
first_create() { docker events --since "$(( $1 / 1000 ))" --until "$(date +%s)" --filter type=container \
  --filter event=create --format '{{.TimeNano}}' | head -1 | { read -r ns; echo $(( ns / 1000000 )); }; }
results="$out/startup.tsv"
printf 'round\tlaunch\tto_first_container_ms\twhole_run_ms\n' > "$results"
for r in $(seq 1 "$rounds"); do
  for side in before launcher; do
    rm -rf "$work/run"
    t0="$(now_ms)"
    if [ "$side" = before ]; then before run --matrix "$work/matrix.yaml" --backend docker --out "$work/run" >/dev/null 2>&1
    else "$lm" run --matrix "$work/matrix.yaml" --backend docker --out "$work/run" >/dev/null 2>&1; fi
    t1="$(now_ms)"
    sleep 1
    c="$(first_create "$t0")"
    printf '%d\t%s\t%d\t%d\n' "$r" "$side" $(( c - t0 )) $(( t1 - t0 )) >> "$results"
  done
done
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
{
  echo "# A run's start, $(date -u +%Y-%m-%dT%H:%MZ), commit $(git -C "$root" rev-parse --short HEAD)"
  echo
  echo "$(nproc) CPUs; a one-cell container matrix; $rounds rounds alternating the two launches of one build."
  echo
  echo "| launch | to the first container, median | whole run, median |"
  echo "|---|---|---|"
  for side in before launcher; do
    a="$(awk -F'\t' -v s="$side" '$2 == s { print $3 }' "$results" | median)"
    b="$(awk -F'\t' -v s="$side" '$2 == s { print $4 }' "$results" | median)"
    echo "| $side | $a ms | $b ms |"
  done
} > "$out/startup.md"
cat "$out/startup.md"
