#!/usr/bin/env bash
# How long publish takes, and how much memory it needs, once the history is a year of nightly runs of
# a large matrix: RUNS runs of CELLS cells (default 365 × 120, the size of matrix.yaml), built from a
# real run's cell records by make-history.sh. Publishes the source run twice — the first rebuilds the
# index and compares every run with its baseline, the second is what each nightly run then costs —
# the second also under a small heap (HEAP, default 256m).
# Usage: benchmarks/publish-history/run.sh OUT_DIR [SOURCE_RUN_DIR] [RUNS] [CELLS] [HEAP]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)" root="$(cd "$here/../.." && pwd)"
out="$1" src="${2:-$root/benchmarks/results/2026-11-21-seeds-offline}" runs="${3:-365}" cells="${4:-120}" heap="${5:-256m}"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
"$here/make-history.sh" "$src" "$work/site" "$runs" "$cells"
next() {  # the source run under a new id, newer than the whole history
  rm -rf "$work/next"; cp -r "$src" "$work/next"
  jq --arg id "$1" --arg at "$2" '.runId = $id | .startedAt = $at' "$src/run.json" > "$work/next/run.json"
}
measure() {  # $1: label; the rest: the command
  local label="$1"; shift
  /usr/bin/time -f "$label: %e s wall, %M KiB max RSS, exit %x" "$@" > /dev/null 2>> "$out/times.txt" \
    || { tail -5 "$out/times.txt"; exit 1; }
}
: > "$out/times.txt"
next 29990101T000000Z-first 2999-01-01T00:00:00Z
measure "first publish (rebuilds the index of $runs runs)" "$root/loom-matrix" publish --run "$work/next" --site "$work/site"
next 29990102T000000Z-steady 2999-01-02T00:00:00Z
measure "nightly publish" "$root/loom-matrix" publish --run "$work/next" --site "$work/site"
next 29990103T000000Z-heap 2999-01-03T00:00:00Z
JAVA_TOOL_OPTIONS="-Xmx$heap" measure "nightly publish, -Xmx$heap" "$root/loom-matrix" publish --run "$work/next" --site "$work/site"
grep -v "^Picked up" "$out/times.txt" > "$out/t" && mv "$out/t" "$out/times.txt"
{ du -sh "$work/site/data/runs" | cut -f1 | sed 's/^/runs: /'; du -sh "$work/site/data/trends" | cut -f1 | sed 's/^/trends: /'
  (cd "$work/site/data/trends" && find . -type f -printf '  %P: %s bytes\n' | sort); } > "$out/sizes.txt"
cat "$out/times.txt" "$out/sizes.txt"
