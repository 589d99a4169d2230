#!/usr/bin/env bash
# What mass-start costs and how it spreads at two thread counts (issue #30: the ab profile's dearest pair): the
# harness alone, five fresh JVMs a variant set up as a cell's container sets them, the ab profile's 3 warmup + 5
# measured iterations. Prints each setting's median JVM time, its forks' means, and the spread of the logs between
# forks and within a fork.
# Usage: benchmarks/ab-budget/mass-start-threads.sh   (repository root, the harness built; JAVA_HOME a JDK 25)
set -euo pipefail
java="${JAVA_HOME:?set JAVA_HOME to a JDK 25}/bin/java"
harness="$(pwd)/harness/target/harness.jar"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for threads in 5000 2000; do
  for variant in platform virtual; do
    for f in 1 2 3 4 5; do
      started=$(date +%s%N)
      "$java" -XX:+UseSerialGC -Xmx614m -jar "$harness" mass-start --variant "$variant" --param "threads=$threads" \
        --param jmhIterations=0 --iterations 3:5 --out "$work/$threads-$variant-$f.json" > /dev/null 2>&1
      echo "$threads $variant $f $(( ($(date +%s%N) - started) / 1000000 ))" >> "$work/times"
    done
  done
done
python3 - "$work" <<'PY'
import collections, json, math, statistics, sys
work = sys.argv[1]
times = collections.defaultdict(list)
for line in open(f"{work}/times"):
    threads, variant, fork, ms = line.split()
    times[(threads, variant)].append(int(ms))
for (threads, variant), ms in times.items():
    means, within = [], []
    for fork in range(1, len(ms) + 1):
        wall = json.load(open(f"{work}/{threads}-{variant}-{fork}.json"))["iterations"]["wallMs"][3:]
        logs = [math.log(x) for x in wall]
        means.append(statistics.mean(logs))
        within.append(statistics.stdev(logs))
    print(f"threads {threads} {variant}: JVM {statistics.median(ms):.0f} ms, fork means "
          f"{[round(math.exp(m), 1) for m in means]} ms, between forks sd {statistics.stdev(means):.3f},"
          f" within sd {statistics.mean(within):.3f}")
PY
