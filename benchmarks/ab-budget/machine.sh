#!/usr/bin/env bash
# How steady this machine is right now, for reading an A/B benchmark beside another day's (issue #30: the same
# configuration's median detectable change was 5.0 % on one day and 23 % on another, the machine's doing): the ab
# profile's most CPU-bound variant (fib-fanout sequential, n 22, 200 calls, 10 warmup + 40 measured iterations) run
# by the harness alone in FORKS fresh JVMs set up as a cell's container sets them. Prints the forks' means (the
# geometric mean of each fork's measured iterations), their spread between forks and the spread within a fork (sd
# of the logs, in %). On 2026-11-26, the day the ab profile's A/A runs reached 5.0 %, three such forks ran 13.0,
# 13.2 and 13.5 ms, 2–4 % within a fork (benchmarks/results/2026-11-26-ab-iterations/README.md).
# Usage: benchmarks/ab-budget/machine.sh [FORKS]   (repository root, the harness built, or HARNESS its jar; JAVA_HOME
#   a JDK 25)
set -euo pipefail
forks="${1:-6}"
java="${JAVA_HOME:?set JAVA_HOME to a JDK 25}/bin/java"
harness="${HARNESS:-$(pwd)/harness/target/harness.jar}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for f in $(seq 1 "$forks"); do
  "$java" -XX:+UseSerialGC -Xmx614m -jar "$harness" fib-fanout --variant sequential --param n=22 --param calls=200 \
    --iterations 10:40 --out "$work/fork-$f.json" > /dev/null
done
python3 - "$work" "$forks" <<'PY'
import json, math, statistics, sys
work, forks = sys.argv[1], int(sys.argv[2])
means, within = [], []
for f in range(1, forks + 1):
    record = json.load(open(f"{work}/fork-{f}.json"))
    logs = [math.log(t) for t in record["iterations"]["wallMs"][record["iterations"]["warmup"]:]]
    means.append(statistics.mean(logs))
    within.append(statistics.stdev(logs))
print(f"fib-fanout sequential, {forks} fresh JVMs, 10 + 40 iterations: fork means "
      + ", ".join(f"{math.exp(m):.1f}" for m in sorted(means)) + " ms; "
      + f"between forks {math.expm1(statistics.stdev(means)) * 100:.1f} %, "
      + f"within a fork {math.expm1(statistics.median(within)) * 100:.1f} % (median)")
PY
