#!/usr/bin/env bash
# What a pull request's A/B can see (issue #30), before and after, on this machine, in one invocation:
#   (1) the example JMH suite (examples/jmh-blocking, threadsByParam, 2 warmup + 5 measured iterations of 200 ms per
#       fork) in a team's repository, on the local backend: an A/A run with the CLI before #30 (its defaults) and one
#       with the CLI after (--budget 10m), then a commit that makes every blocking call 5 % slower (10 → 10.5 ms),
#       after, which must be found;
#   (2) built-in workloads in locked-down containers (the offline image local/debian-openjdk:25, cpus 2, each fork
#       1 warmup + 5 measured iterations): an A/A run after (--budget 10m).
# Every run: --threshold 3 (a change of 5 % must count), FDR 5 %. Per comparison: its verdict, its test, the change
# it could have detected, its pairs; per run: the time it measured.
# Usage: benchmarks/ab-power/run.sh [OUT_DIR] [BEFORE_REV]   (repository root; a Docker engine with the offline
# images: scripts/test-environment.sh; JAVA_HOME a JDK 21+)
set -euo pipefail
out="${1:-benchmarks/results/$(date -u +%Y-%m-%d)-ab-power}"
before_rev="${2:-313c5d3}"
root="$(pwd)"
java_home="${JAVA_HOME:?set JAVA_HOME to a JDK 21+}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$(mktemp -d)"
trap 'git -C "$root" worktree remove --force "$work/before-src" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

# the two CLIs, each a copy of its build (the tree may be rebuilt meanwhile)
cli() {  # $1: source tree, $2: name
  (cd "$1" && ./mvnw -q -B -o package -pl runner -am -DskipTests -Dspotless.check.skip=true >&2)
  mkdir "$work/$2" && cp -r "$1/runner/target/lib" "$work/$2/lib" && cp "$1/runner/target/loom-matrix.jar" "$work/$2/"
  printf '#!/bin/sh\nexec "%s/bin/java" --enable-native-access=ALL-UNNAMED -jar "%s" "$@"\n' "$java_home" \
    "$work/$2/loom-matrix.jar" > "$work/$2/loom-matrix"
  chmod +x "$work/$2/loom-matrix"
}
git -C "$root" worktree add -q --detach "$work/before-src" "$before_rev"
cli "$work/before-src" before
cli "$root" after

# (1) a team's repository holding the example JMH project
repo="$work/repo"
mkdir -p "$repo/.mvn/wrapper"
cp -r examples/jmh-blocking/pom.xml examples/jmh-blocking/src "$repo/"
cp mvnw "$repo/" && cp .mvn/wrapper/maven-wrapper.properties "$repo/.mvn/wrapper/"
version="$("$java_home/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/ *java.specification.version = //p')"
cat > "$repo/matrix.yaml" <<YAML
schema: 1
jdks: [{id: host, vm: hotspot, version: $version, javaHome: "$java_home"}]
cpus: [2]
workloads:
  - id: blocking
    jmh:
      jar: target/benchmarks.jar
      include: ['BlockingServiceBenchmark\\.threadsByParam\$']
      params: {poolSize: [50], requests: [100]}
      warmupIterations: 2
      iterations: 5
      warmupTime: 200ms
      time: 200ms
    variants:
      virtual: {params: {threadType: VIRTUAL}}
      platform: {params: {threadType: PLATFORM}}
    baseline: platform
repetitions: 3
warmup: 0
timeout: 10m
memory: 1g
YAML
echo "target/" > "$repo/.gitignore"
export GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@example.com GIT_COMMITTER_NAME=b GIT_COMMITTER_EMAIL=b@example.com
git -C "$repo" init -q -b main && git -C "$repo" add -A && git -C "$repo" commit -q -m base
sed -i 's/Duration latency = Duration.ofMillis(10);/Duration latency = Duration.ofMillis(10).plusNanos(500_000);/' \
  "$repo/src/main/java/example/blocking/BlockingServiceBenchmark.java"
git -C "$repo" commit -q -am "every blocking call 5 % slower"
export LOOM_BENCHMARK_BUILD="./mvnw -q -B -o package -DskipTests"

ab() {  # $1: name, $2: CLI, $3: base rev, then ab options
  local name="$1" which="$2" rev="$3"; shift 3
  local started; started="$(date +%s)"
  (cd "$repo" && LOOM_CLI="$work/$which/loom-matrix" "$root/scripts/ci/ab.sh" "$work/$name" "$rev" \
     --backend local --threshold 3 "$@" > "$work/$name.log" 2>&1) || true
  cp "$work/$name/ab/compare.json" "$out/$name.json"
  echo "$(( $(date +%s) - started ))" > "$work/$name.seconds"   # into summary.json below
}
ab jmh-aa-before before HEAD
ab jmh-aa-after after HEAD --budget 10m
ab jmh-5pct-after after HEAD~1 --budget 10m

# (2) built-in workloads in containers, after
cat > "$work/builtin.yaml" <<YAML
schema: 1
jdks:
  - {id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}
cpus: [2]
workloads:
  - {id: sleep-bound, variants: [virtual, "pool:100"], params: {tasks: 1000, sleepMs: 20}}
  - {id: primes-io, variants: [virtual, "pool:cpus"], params: {tasks: 20}}
  - {id: thread-local, variants: [virtual, "pool:cpus"], params: {tasks: 1000}}
repetitions: 3
warmup: 0
iterations: {warmup: 1, measure: 5}
timeout: 10m
memory: 1g
YAML
started="$(date +%s)"
"$work/after/loom-matrix" ab --matrix "$work/builtin.yaml" --backend docker --threshold 3 --budget 10m \
  --out "$work/builtin-aa-after" > "$work/builtin-aa-after.log" 2>&1 || true
cp "$work/builtin-aa-after/compare.json" "$out/builtin-aa-after.json"
echo "$(( $(date +%s) - started ))" > "$work/builtin-aa-after.seconds"

for f in "$out"/*.json; do
  [ "$(basename "$f")" = summary.json ] && continue
  name="$(basename "$f" .json)"
  jq --arg name "$name" --argjson seconds "$(cat "$work/$name.seconds")" '{
      run: $name, seconds: $seconds,
      regressions, improvements,
      verdicts: ([.comparisons[].verdict] | group_by(.) | map({(.[0]): length}) | add),
      sequential: (.ab.sequential // null | if . then {looks, looksTaken, ended, pairs} else null end),
      comparisons: [.comparisons[] | {
        series: ((.cellId | split(".") | last) + " " + .variant),
        verdict, test, pairs,
        changePercent: ((.ratio - 1) * 1000 | round / 10),
        detectablePercent: (if .detectable then (.detectable * 1000 | round / 10) else null end),
        nested: .nested}]
    }' "$f"
done | jq -s . > "$out/summary.json"
git rev-parse --short HEAD > "$out/commit.txt"
echo "$before_rev" > "$out/before.txt"
cat "$out/summary.json"
