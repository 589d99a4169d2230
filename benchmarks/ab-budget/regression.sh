#!/usr/bin/env bash
# Does a pull request's A/B catch a 5 % regression in the built-in workloads within its 10-minute budget (issue
# #30's "done when")? The candidate is a harness whose sleep-bound tasks sleep 5 % longer and whose fib-fanout
# calls do 5.6 % more work (fib(n) + fib(n − 6)); the baseline is this commit's harness. The repository's ab
# profile on the offline image, in containers, `ab --budget 10m --threshold 3`, as pr.yml runs it. The four
# comparisons of those two cells must be regressions; the other ten must not be.
# Usage: benchmarks/ab-budget/regression.sh [OUT_DIR]   (repository root; a Docker engine with the offline images:
# scripts/test-environment.sh; JAVA_HOME a JDK 21+; KEEP_RUNS=DIR keeps the run's directory: lib.sh; AB_OPTIONS,
# more options for ab, e.g. "--pairing lockstep"; NAME, the run's name in OUT_DIR, default ab-5pct-after)
set -euo pipefail
out="${1:-benchmarks/results/$(date -u +%Y-%m-%d)-ab-budget}"
source "$(dirname "$0")/lib.sh"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
name="${NAME:-ab-5pct-after}"

# the two harnesses and the CLI, each a copy of its build
cli_at slower HEAD
cp -r "$work/slower/runner/target/lib" "$work/lib" && cp "$work/slower/runner/target/loom-matrix.jar" "$work/"
cp "$work/slower/harness/target/harness.jar" "$work/harness-base.jar"
sed -i 's|Thread.sleep(sleepMs);|Thread.sleep(java.time.Duration.ofNanos(sleepMs * 1_050_000));|' \
  "$work/slower/harness/src/main/java/dev/loommatrix/harness/workload/SleepBound.java"
sed -i -E 's/(results\[(done|call)\]) = fibonacci\(n\);/\1 = fibonacci(n) + fibonacci(n - 6);/' \
  "$work/slower/harness/src/main/java/dev/loommatrix/harness/workload/FibFanout.java"
[ "$(git -C "$work/slower" diff --numstat | awk '{n += $1} END {print n}')" = 3 ] || { echo "the patch no longer applies" >&2; exit 1; }
(cd "$work/slower" && ./mvnw -q -B -o -pl harness package -DskipTests -Dspotless.check.skip=true)
cp "$work/slower/harness/target/harness.jar" "$work/harness-slower.jar"
# how steady the machine is as the run starts (machine.sh), beside the run
HARNESS="$work/harness-base.jar" "$(dirname "$0")/machine.sh" > "$work/$name.machine"

started="$(date +%s)"
# shellcheck disable=SC2086 # AB_OPTIONS is a list of options
"${JAVA_HOME:?set JAVA_HOME}/bin/java" --enable-native-access=ALL-UNNAMED -jar "$work/loom-matrix.jar" ab \
  --matrix "$root/matrix.yaml" --profile ab-offline --backend docker --threshold 3 --budget 10m \
  --baseline-harness "$work/harness-base.jar" --candidate-harness "$work/harness-slower.jar" \
  --baseline-label "this harness" --candidate-label "5 % slower sleep-bound and fib-fanout" \
  ${AB_OPTIONS:-} --out "$work/ab" > "$work/$name.log" 2>&1 || true
record "$name" "$started" "$work/ab" "$(cat "$work/$name.machine")"
jq '[.comparisons[] | {series: ((.cellId | split(".") | last) + " " + .variant), verdict, test, pairs,
     changePercent: ((.ratio - 1) * 1000 | round / 10),
     confirmed: (.confirmation.confirmed // null)}]' "$out/$name.json"
