#!/usr/bin/env bash
# The command sequence of .github/workflows/matrix.yml, run on one machine, twice (a nightly, then a manual run):
#   plan --format github → one `run` per planned job, with its cells (the fan-out) → merge → publish, and the
#   second run compared with the first as publish compares it. (pr.yml's sequence is scripts/ci/ab.sh.)
# Usage: [MAX_JOBS=N] [LOOM_CLI=…] ci/pipeline.sh WORK_DIR MATRIX [PROFILE] [BACKEND]
#        (the release archive's ci/pipeline.sh, or scripts/ci/pipeline.sh in the source tree; the loom-matrix it
#        came with unless LOOM_CLI names one)
# Writes WORK_DIR/{plan.json, shards/<n>/, merged/, site/, compare.md}; exit code is compare's (0, or 4).
set -euo pipefail
work="$1" matrix="$2" profile="${3:-}" backend="${4:-auto}"
here="$(cd "$(dirname "$0")" && pwd)"
cli="${LOOM_CLI:-}"
for candidate in "$here/../bin/loom-matrix" "$here/../../loom-matrix"; do
  [ -n "$cli" ] || { [ -x "$candidate" ] && cli="$candidate"; }
done
[ -n "$cli" ] || { echo "pipeline: no loom-matrix next to $here: set LOOM_CLI" >&2; exit 2; }
lm() { "$cli" "$@"; }
profile_args=(); [ -n "$profile" ] && profile_args=(--profile "$profile")
mkdir -p "$work/shards"

run_matrix() {  # $1: run id, $2: trigger, $3: branch
  local run_id="$1"
  lm plan --matrix "$matrix" "${profile_args[@]}" --format github --max-jobs "${MAX_JOBS:-256}" > "$work/plan.json"
  rm -rf "$work/shards" "$work/merged"; mkdir -p "$work/shards"
  local n=0
  while read -r cells; do   # each line is one `run` job of matrix.yml
    n=$((n + 1))
    local cell_args=()
    for cell in $cells; do cell_args+=(--cell "$cell"); done
    LOOM_TRIGGER="$2" GITHUB_HEAD_REF="$3" lm run --matrix "$matrix" "${profile_args[@]}" --backend "$backend" \
      "${cell_args[@]}" --run-id "$run_id" --out "$work/shards/$n" < /dev/null || [ $? -eq 3 ]   # a failed cell is a result
  done < <(jq -r '.include[].cells' "$work/plan.json")
  lm merge --out "$work/merged" "$work/shards"/*
}

# the scheduled run on main, published; then a manual run, compared with the published one
run_matrix "20260101T000000Z-base" schedule main
lm publish --run "$work/merged" --site "$work/site"
run_matrix "20260101T010000Z-again" workflow_dispatch main
status=0
lm compare --baseline "$work/site/data/runs/20260101T000000Z-base" --candidate "$work/merged" > "$work/compare.md" || status=$?
lm publish --run "$work/merged" --site "$work/site"
exit "$status"
