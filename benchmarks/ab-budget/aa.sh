#!/usr/bin/env bash
# One A/A run of the repository's ab profile (what pr.yml runs on harness changes) as a pull request's A/B runs it:
# the offline image, containers, `ab --budget 10m --threshold 3`, both sides this commit's harness — so every flag
# is a false alarm and each comparison's "detectable" is the smallest change it could have caught in the budget.
# Prints the median detectable change, the pairs and the flags; OUT_DIR/runs.json keeps, beside the run's seconds,
# how steady the machine was as it started (machine.sh). The run's console stays in the scratch directory.
# Usage: benchmarks/ab-budget/aa.sh NAME [OUT_DIR] [MATRIX] [REV]   (repository root; a Docker engine with the
#   offline images: scripts/test-environment.sh; JAVA_HOME a JDK 21+; MATRIX defaults to this commit's matrix.yaml;
#   REV, the CLI's commit, to HEAD — an earlier one measures "before" beside "after" on the same day's machine;
#   KEEP_RUNS=DIR keeps the run's directory: lib.sh; AB_OPTIONS, more options for ab, e.g. "--pairing lockstep")
set -euo pipefail
name="${1:?a name for the run, e.g. ab-aa-1}"
out="${2:-benchmarks/results/$(date -u +%Y-%m-%d)-ab-budget}"
matrix="$(realpath "${3:-matrix.yaml}")"
rev="${4:-HEAD}"
source "$(dirname "$0")/lib.sh"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

cli_at cli "$rev"
# how steady the machine is as the run starts (machine.sh), beside the run
HARNESS="$work/cli/harness/target/harness.jar" "$(dirname "$0")/machine.sh" > "$work/$name.machine"
started="$(date +%s)"
# shellcheck disable=SC2086 # AB_OPTIONS is a list of options
"$work/cli/loom-matrix" ab --matrix "$matrix" --profile ab-offline --backend docker --threshold 3 --budget 10m \
  ${AB_OPTIONS:-} --out "$work/ab" > "$work/$name.log" 2>&1 || true
record "$name" "$started" "$work/ab" "$(cat "$work/$name.machine")"
# a comparison that could detect no change at all (no detectable) counts as the least able
jq -r --arg s "$(seconds_of "$name")" "$JQ_MEDIAN"'
  [.comparisons[] | .detectable // infinite] | median as $m
  | "\(length) comparisons in \($s) s, median detectable "
    + (if $m | isinfinite then "none" else "\($m * 1000 | round / 10) %" end)' \
  "$out/$name.json"
jq -r '.comparisons[] | "  \(.cellId | split(".") | last) \(.variant): \(.verdict), \(.pairs // "no") pairs, \(.test), "
  + (if .detectable then "detectable \(.detectable * 1000 | round / 10) %" else "could detect no change" end)
  + "\(if .nested.modes then " — " + .nested.modes else "" end)"' \
  "$out/$name.json"
