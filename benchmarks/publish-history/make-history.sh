#!/usr/bin/env bash
# Builds a published site with RUNS nightly runs of CELLS cells each, from one real run's cell records
# (cycled with new cell ids, their medians jittered so trends and comparisons have work to do), as a
# year of nightly runs of a large matrix would leave it. The site has no index yet: the first publish
# rebuilds it, and a second publish is the steady state a nightly run sees. Files are compact JSON, as
# publish writes them.
# Usage: make-history.sh SOURCE_RUN_DIR SITE RUNS CELLS
set -euo pipefail
src="$1" site="$2" runs="$3" cells="$4"
mkdir -p "$site/data/runs"
template="$(mktemp)"
jq -s --argjson n "$cells" '
  . as $real | [range(0; $n) as $i | $real[$i % ($real | length)]
    | .cellId = "\(.cellId)~\($i)"]' "$src"/cells/*.json > "$template"
for ((r = 0; r < runs; r++)); do
  day="$(date -u -d "2025-11-22 + $r days" +%Y%m%d)"
  id="${day}T020000Z-bench"
  dir="$site/data/runs/$id"
  mkdir -p "$dir"
  jq -c --arg id "$id" --arg at "$(date -u -d "2025-11-22 + $r days" +%Y-%m-%dT02:00:00Z)" \
    '.runId = $id | .startedAt = $at | .finishedAt = $at | .trigger = "schedule"' "$src/run.json" > "$dir/run.json"
  # every run's medians move by up to ±5 %, so no two runs are the same
  jq -c --argjson f "$(awk -v r="$r" 'BEGIN { srand(r); printf "%.4f", 0.95 + rand() * 0.1 }')" '
    map(.measurements |= map(.samples |= map(.wallMs *= $f) | if .summary then .summary.median *= $f else . end))' "$template" > "$dir/cells.json"
done
rm -f "$template"
echo "made $runs runs of $cells cells in $site ($(du -sh "$site/data/runs" | cut -f1))"
