#!/usr/bin/env bash
# The README's main command on a host without a Docker engine (issue #18: at most 60 s, build excluded, on
# this 2-core machine, with an ETA honest to within 20 %). Runs `./loom-matrix run --profile quick --backend
# local` as a fresh clone would (the host's JDK 25 cells; the others skipped), stamps every progress line with
# the time it appeared, and compares each ETA with the time the run really took from that line on.
# The run, its plan and its console stay in a scratch directory; OUT_DIR gets summary.json (with the commit and the
# machine's CPUs).
# Usage: benchmarks/quick/run.sh [OUT_DIR]   (repository root; the jar built beforehand: ./loom-matrix plan)
set -euo pipefail
out="${1:-benchmarks/results/$(date -u +%Y-%m-%d)-quick}"
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
./loom-matrix plan --profile quick > /dev/null    # builds the jar if needed: not part of the time
./loom-matrix plan --profile quick --format json > "$work/plan.json"
start=$(date +%s.%N)
./loom-matrix run --profile quick --backend local --out "$work/run" 2>&1 \
  | while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done > "$work/run.log"
end=$(date +%s.%N)
python3 - "$out" "$start" "$end" "$work" "$(git rev-parse --short HEAD)" "$(nproc)" <<'PY'
import json, re, sys
out, start, end, work, commit, cpus = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5], int(sys.argv[6])
estimates = {c["id"]: c["estimatedMs"] / 1000 for c in json.load(open(f"{work}/plan.json"))["cells"]}
cells, etas = [], []
for line in open(f"{work}/run.log"):
    stamp, _, text = line.partition(" ")
    m = re.search(r"\] (\S+): (ok|failed|timed out)\b.*\(([0-9.]+) s, \w+\) — ETA (?:(\d+)m)?(\d+)s", text)
    if m:
        cell, took = m.group(1), float(m.group(3))
        eta = int(m.group(4) or 0) * 60 + int(m.group(5))
        cells.append({"cell": cell, "seconds": took, "estimated": round(estimates[cell], 1)})
        etas.append({"after": cell.rsplit(".", 1)[1], "etaSeconds": eta, "actualSeconds": round(end - float(stamp), 1)})
for e in etas:
    e["error"] = None if e["actualSeconds"] < 5 else round(e["etaSeconds"] / e["actualSeconds"] - 1, 3)
summary = {
    "commit": commit,
    "cpus": cpus,
    "totalSeconds": round(end - start, 1),
    "cellsRun": len(cells),
    "cellSeconds": round(sum(c["seconds"] for c in cells), 1),
    "estimatedSeconds": round(sum(c["estimated"] for c in cells), 1),
    # the ETA's error where at least 5 s remained (below that a second of rounding is 20 %)
    "worstEtaError": max((abs(e["error"]) for e in etas if e["error"] is not None), default=None),
    "cells": cells,
    "etas": etas,
}
json.dump(summary, open(f"{out}/summary.json", "w"), indent=2)
print(json.dumps({k: v for k, v in summary.items() if k not in ("cells",)}, indent=2))
PY
