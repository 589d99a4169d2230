#!/usr/bin/env bash
# The statistics' measured error rates (issue #16), as docs/statistics.md
# states them: change-point detection rate, delay and false alarms on seeded synthetic series, and the ratio
# interval's real coverage beside its stated level. The tests assert these; this records what they print.
# Usage: benchmarks/statistics/run.sh [OUT_DIR]   (from the repository root; needs JAVA_HOME with JDK 21+)
set -euo pipefail
out="${1:-benchmarks/results/$(date -u +%Y-%m-%d)-statistics}"
mkdir -p "$out"
./mvnw -B -q -o -pl core test -Dtest='ChangePointsTest#detectionRatesAreTheOnesTheReadmeStates,RatioIntervalTest#coverageIsTheStatedLevel' \
  2>&1 | grep -E '^(change points|ratio interval):' | tee "$out/rates.txt"
git rev-parse --short HEAD > "$out/commit.txt"
