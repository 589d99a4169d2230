#!/usr/bin/env bash
# Where the ab profile's noise lives (issue #30): each of its workloads' variants run by the harness alone, in fresh
# JVMs set up as a cell's container sets them (the serial collector and 60 % of 1 GiB, as the JVM chooses under the
# profile's limits), 60 iterations a fork. For windows of iterations it prints each fork's geometric mean and the
# spread of its iterations (standard deviation of their logs): when the forks' means agree and the spread within a
# fork is large, more iterations a fork narrow a comparison as √n — cheaply where an iteration is short.
# Usage: benchmarks/ab-budget/iterations.sh [FORKS] [ITERATIONS]   (repository root, the harness built; JAVA_HOME a
#   JDK 25)
set -euo pipefail
forks="${1:-3}"
iterations="${2:-60}"
java="${JAVA_HOME:?set JAVA_HOME to a JDK 25}/bin/java"
harness="$(pwd)/harness/target/harness.jar"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# workload, variant, params: the ab profile's (matrix.yaml)
while read -r workload variant params; do
  args=()
  for p in ${params//,/ }; do args+=(--param "$p"); done
  for f in $(seq 1 "$forks"); do
    "$java" -XX:+UseSerialGC -Xmx614m -jar "$harness" "$workload" --variant "$variant" "${args[@]}" \
      --iterations "0:$iterations" --out "$work/$workload-$variant-$f.json" > /dev/null 2>&1
  done
  python3 - "$work" "$workload" "$variant" "$forks" <<'PY'
import json, math, statistics, sys
work, workload, variant, forks = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
for f in range(1, forks + 1):
    wall = json.load(open(f"{work}/{workload}-{variant}-{f}.json"))["iterations"]["wallMs"]
    cells = []
    for a, b in ((3, 8), (10, 50), (50, len(wall))):
        logs = [math.log(t) for t in wall[a:b]]
        if len(logs) >= 3:
            cells.append(f"{a}-{min(b, len(wall))}: {math.exp(statistics.mean(logs)):.1f} ms ±{statistics.stdev(logs):.3f}")
    print(f"{workload} {variant} fork {f}: " + " | ".join(cells))
PY
done <<'LIST'
mass-start virtual threads=2000,jmhIterations=0
mass-start platform threads=2000,jmhIterations=0
sleep-bound virtual tasks=1000,sleepMs=20
sleep-bound pool:200 tasks=1000,sleepMs=20
primes-io virtual tasks=50
primes-io platform tasks=50
primes-io pool:cpus tasks=50
fib-fanout sequential n=22,calls=200
fib-fanout caller-virtual n=22,calls=200
pinning synchronized tasks=8,sleepMs=20,jmhIterations=0
echo-server virtual connections=100,messages=5
echo-server pool:50 connections=100,messages=5
thread-local virtual tasks=10000
thread-local pool:cpus tasks=10000
LIST
