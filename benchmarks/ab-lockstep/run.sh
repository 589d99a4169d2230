#!/usr/bin/env bash
# Forks in lockstep against forks back to back (issue #30), side by side on this machine: per workload an A/A and a
# 5 % heavier candidate, PAIRS pairs each way (lockstep.py). Records the machine's steadiness before and after
# (benchmarks/ab-budget/machine.sh). Usage: benchmarks/ab-lockstep/run.sh OUT_DIR [PAIRS]   (repository root, the
# harness built; JAVA_HOME a JDK 25; PYTHON a Python with scipy, default python3)
set -euo pipefail
out="${1:?usage: run.sh OUT_DIR [PAIRS]}"
pairs="${2:-20}"
python="${PYTHON:-python3}"
java="${JAVA_HOME:?set JAVA_HOME to a JDK 25}/bin/java"
jar="$(pwd)/harness/target/harness.jar"
mkdir -p "$out"
{ date -u +%FT%TZ; benchmarks/ab-budget/machine.sh; } > "$out/machine-before.txt"
lockstep() { "$python" benchmarks/ab-lockstep/lockstep.py "$jar" "$java" "$pairs" "$@"; }
{
  # the ab profile's most CPU-bound variant (its 10 + 40 iterations), then its sleep-bound virtual (1 + 5 there;
  # 10 + 40 here, as a fork that measures iterations enough for lockstep to pair them)
  lockstep fib-fanout sequential n=22,calls=200 10:40
  lockstep fib-fanout sequential n=22,calls=200 10:40 calls=210
  lockstep sleep-bound virtual tasks=1000,sleepMs=20 10:40
  lockstep sleep-bound virtual tasks=1000,sleepMs=20 10:40 sleepMs=21
} | tee "$out/lockstep.txt"
{ date -u +%FT%TZ; benchmarks/ab-budget/machine.sh; } > "$out/machine-after.txt"
git rev-parse HEAD > "$out/commit.txt"
