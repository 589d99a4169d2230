# Shared by the ab-budget benchmarks (sourced after `set -euo pipefail`, from the repository root): the CLIs under
# test, each a worktree of its commit built once (the repository may be rebuilt meanwhile); a team's repository
# holding the example project; one A/B run recorded in the output directory (its compare.json, and its seconds and
# the machine's steadiness in runs.json: the console and the rest of the run stay in the scratch directory); the
# median of a run's detectable changes. Sets $root (the repository) and $work (a scratch directory, removed on exit
# with the worktrees).
# KEEP_RUNS=DIR keeps each run's whole directory (its blocks' records, every fork's iterations) under DIR, for
# analysis after the fact; it is not recorded in the repository (several MB a run).
root="$(pwd)"
work="$(mktemp -d)"
ab_worktrees=()
ab_cleanup() {
  for t in "${ab_worktrees[@]}"; do git -C "$root" worktree remove --force "$t" > /dev/null 2>&1 || true; done
  rm -rf "$work"
}
trap ab_cleanup EXIT

# cli_at NAME REV: the CLI of commit REV, built, at $work/NAME/loom-matrix
cli_at() {
  git -C "$root" worktree add -q --detach "$work/$1" "$2"
  ab_worktrees+=("$work/$1")
  (cd "$work/$1" && ./loom-matrix --version > /dev/null)
}

# example_repo DIR: a team's repository holding this commit's example project (examples/jmh-blocking) in DIR,
# built by its Maven wrapper with $JAVA_HOME; PATCH, when set, is applied to it first (a sed script on
# src/main/java/example/blocking/LoadTest.java) and must change it
example_repo() {
  local repo="$1"
  mkdir -p "$repo/.mvn/wrapper"
  cp -r "$root/examples/jmh-blocking/pom.xml" "$root/examples/jmh-blocking/src" "$repo/"
  cp "$root/mvnw" "$repo/" && cp "$root/.mvn/wrapper/maven-wrapper.properties" "$repo/.mvn/wrapper/"
  if [ -n "${PATCH:-}" ]; then
    local file="$repo/src/main/java/example/blocking/LoadTest.java"
    cp "$file" "$work/unpatched.java"
    sed -i "$PATCH" "$file"
    ! cmp -s "$file" "$work/unpatched.java" || { echo "the patch no longer applies: $PATCH" >&2; exit 1; }
  fi
  (cd "$repo" && ./mvnw -q -B -o package -DskipTests)
}

# record NAME STARTED RUN_DIR [MACHINE]: the run's compare.json as $out/NAME.json; its seconds since STARTED (epoch s)
# and MACHINE (machine.sh's line as it began, when given) as NAME's entry of $out/runs.json; its directory kept under
# $KEEP_RUNS/NAME when that is set
record() {
  cp "$3/compare.json" "$out/$1.json"
  local runs="$out/runs.json"
  [ -f "$runs" ] || echo '{}' > "$runs"
  jq --arg name "$1" --argjson seconds "$(( $(date +%s) - $2 ))" --arg machine "${4:-}" \
    '.[$name] = ({seconds: $seconds} + (if $machine == "" then {} else {machine: $machine} end))' "$runs" > "$runs.new"
  mv "$runs.new" "$runs"
  if [ -n "${KEEP_RUNS:-}" ]; then mkdir -p "$KEEP_RUNS" && cp -r "$3" "$KEEP_RUNS/$1"; fi
}

# seconds_of NAME: the seconds record wrote for the run NAME
seconds_of() { jq -r --arg name "$1" '.[$name].seconds' "$out/runs.json"; }

# a jq definition: the median of an array of numbers (the mean of the middle two of an even count), null if empty
JQ_MEDIAN='def median: sort | length as $n
  | if $n == 0 then null elif $n % 2 == 1 then .[($n - 1) / 2] else (.[$n / 2 - 1] + .[$n / 2]) / 2 end;'
