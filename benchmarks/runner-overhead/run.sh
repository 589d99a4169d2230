#!/usr/bin/env bash
# Runner overhead per cell: the same 8-cell container matrix under `loom-matrix run --backend docker`,
# and as a plain loop of `docker run` over the very containers that run started — same images, same
# commands, same limits (replayed from each cell's raw/<cell>/docker-run.json) — alternated ROUNDS times
# in one invocation (the machine is shared: only side-by-side figures are compared).
# Both workloads are sleep-bound (their time is sleeps, not CPU): the containers' own run time barely
# varies between runs, so what differs is what the runner adds. Needs a Docker engine and the offline images (containers/offline/build-images.sh).
# Usage: benchmarks/runner-overhead/run.sh [OUT_DIR]   (default: benchmarks/results/<date>-runner-overhead)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-$root/benchmarks/results/$(date -u +%Y-%m-%d)-runner-overhead}"
rounds="${ROUNDS:-3}"
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/matrix.yaml" <<'YAML'
schema: 1
jdks:
  - {id: d21, vm: hotspot, version: 21, image: "local/debian-openjdk:21"}
  - {id: d25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}
os: [linux]
cpus: [1, 2]
workloads:
  - {id: sleep-bound, variants: [virtual, "pool:100"], params: {tasks: 1000, sleepMs: 50}}
  - {id: pinning, variants: [synchronized, reentrant-lock], params: {tasks: 8, sleepMs: 100}}
repetitions: 2
warmup: 1
memory: 1g
YAML
lm="$root/loom-matrix"
"$lm" run --matrix "$work/matrix.yaml" --backend docker --out "$work/prime" >/dev/null   # images built, jar built, CDS

now() { date +%s.%N; }
results="$out/rounds.tsv"
printf 'round\trunner_s\treplay_s\tratio\n' > "$results"
for r in $(seq 1 "$rounds"); do
  t0="$(now)"
  "$lm" run --matrix "$work/matrix.yaml" --backend docker --out "$work/run-$r" >/dev/null
  t1="$(now)"
  for spec in "$work/run-$r"/raw/*/docker-run.json; do
    mapfile -d '' -t args < <(jq -j '.[] | (. + "\u0000")' "$spec")
    "${args[@]}" >/dev/null 2>&1 || true
  done
  t2="$(now)"
  awk -v r="$r" -v a="$t0" -v b="$t1" -v c="$t2" \
    'BEGIN { printf "%d\t%.2f\t%.2f\t%.3f\n", r, b - a, c - b, (b - a) / (c - b) }' >> "$results"
done
cells="$(ls "$work/run-1/cells" | wc -l)"
{
  echo "# Runner overhead, $(date -u +%Y-%m-%dT%H:%MZ), commit $(git -C "$root" rev-parse --short HEAD)"
  echo
  echo "$(nproc) CPUs; $cells container cells (2 JDK images × 2 CPU quotas × 2 workloads, 2 variants each,"
  echo "1 warmup + 2 repetitions); $rounds rounds, each: \`loom-matrix run --backend docker\` (whole CLI,"
  echo "JVM start included), then the same $cells containers replayed as a \`docker run\` loop."
  echo "Command: \`ROUNDS=$rounds benchmarks/runner-overhead/run.sh\` ([rounds.tsv](rounds.tsv): each round's times)."
  echo
  echo "| round | loom-matrix run | docker run loop | ratio |"
  echo "|---|---|---|---|"
  tail -n +2 "$results" | awk -F'\t' '{ printf "| %s | %s s | %s s | %s |\n", $1, $2, $3, $4 }'
  echo
  runner_median="$(tail -n +2 "$results" | cut -f2 | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"
  replay_median="$(tail -n +2 "$results" | cut -f3 | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"
  awk -v a="$runner_median" -v b="$replay_median" -v n="$cells" \
    'BEGIN { printf "Median: %.2f s against %.2f s, ratio %.3f (%.0f ms per cell).\n", a, b, a / b, (a - b) * 1000 / n }'
} > "$out/README.md"
cat "$out/README.md"
