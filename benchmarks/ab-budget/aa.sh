#!/usr/bin/env bash
# One A/A run of the repository's ab profile (what pr.yml runs on harness changes) as a pull request's A/B runs it:
# the offline image, containers, `ab --budget 10m --threshold 3`, both sides this commit's harness — so every flag
# is a false alarm and each comparison's "detectable" is the smallest change it could have caught in the budget.
# Prints the median detectable change, the pairs and the flags.
# Usage: benchmarks/ab-budget/aa.sh NAME [OUT_DIR] [MATRIX] [REV]   (repository root; a Docker engine with the
#   offline images: scripts/test-environment.sh; JAVA_HOME a JDK 21+; MATRIX defaults to this commit's matrix.yaml;
#   REV, the CLI's commit, to HEAD — an earlier one measures "before" beside "after" on the same day's machine)
set -euo pipefail
name="${1:?a name for the run, e.g. ab-aa-1}"
out="${2:-benchmarks/results/$(date -u +%Y-%m-%d)-ab-budget}"
root="$(pwd)"
matrix="$(realpath "${3:-$root/matrix.yaml}")"
rev="${4:-HEAD}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$(mktemp -d)"
trap 'git -C "$root" worktree remove --force "$work/cli" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

# the CLI of this commit, a copy of its build (the repository may be rebuilt meanwhile)
git -C "$root" worktree add -q --detach "$work/cli" "$rev"
(cd "$work/cli" && ./loom-matrix --version > /dev/null)

started="$(date +%s)"
"$work/cli/loom-matrix" ab --matrix "$matrix" --profile ab-offline --backend docker --threshold 3 --budget 10m \
  --out "$work/ab" > "$out/$name.log" 2>&1 || true
cp "$work/ab/compare.json" "$out/$name.json"
cp "$work/ab/compare.md" "$out/$name.md"
echo "$(( $(date +%s) - started ))" > "$out/$name.seconds"
jq -r --arg s "$(cat "$out/$name.seconds")" '
  [.comparisons[].detectable] | sort as $d | ($d | length) as $n
  | "\($n) comparisons in \($s) s, median detectable \((if $n % 2 == 1 then $d[($n - 1) / 2]
      else ($d[$n / 2 - 1] + $d[$n / 2]) / 2 end) * 1000 | round / 10) %"' "$out/$name.json"
jq -r '.comparisons[] | "  \(.cellId | split(".") | last) \(.variant): \(.verdict), \(.pairs) pairs, \(.test), "
  + "detectable \(.detectable * 1000 | round / 10) %\(if .nested.modes then " — " + .nested.modes else "" end)"' \
  "$out/$name.json"
