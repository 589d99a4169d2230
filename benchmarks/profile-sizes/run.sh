#!/usr/bin/env bash
# What profiling adds to a published site (issue #20): runs a small profiled matrix in containers (JDK 25, 2
# CPUs, three built-in workloads, two variants each, JFR and flame graphs on), publishes it twice — with and
# without --publish-recordings — and reports the size of every profile file, a cell's share, and what a run of
# N cells and a site keeping K runs' profiles come to. Needs a Docker engine and local/debian-openjdk:25.
# Usage: benchmarks/profile-sizes/run.sh [OUT_DIR]   (repository root)
set -euo pipefail
out="${1:-benchmarks/results/$(date -u +%Y-%m-%d)-profile-sizes}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
cat > "$out/matrix.yaml" <<'YAML'
schema: 1
jdks: [{id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}]
cpus: [2]
workloads:
  - {id: pinning, variants: [synchronized, reentrant-lock], params: {tasks: 16, sleepMs: 50, jmhIterations: 0}}
  - {id: fib-fanout, variants: [sequential, caller-virtual]}
  - {id: sleep-bound, variants: [virtual, "pool:200"], params: {tasks: 2000, sleepMs: 50}}
repetitions: 3
warmup: 0
iterations: {warmup: 1, measure: 3}
memory: 1g
profiling: {jfr: true, flame: true}
YAML
./loom-matrix run --matrix "$out/matrix.yaml" --out "$work/run" > "$work/run.log" 2>&1 || { cat "$work/run.log"; exit 1; }
./loom-matrix publish --run "$work/run" --site "$work/pages" > /dev/null
./loom-matrix publish --run "$work/run" --site "$work/recordings" --publish-recordings > /dev/null
python3 - "$work" "$out" <<'PY'
import json, os, sys
work, out = sys.argv[1], sys.argv[2]
def files(root):
    rows = []
    for d, _, names in os.walk(root):
        for n in names:
            p = os.path.join(d, n)
            rows.append((os.path.relpath(p, root), os.path.getsize(p)))
    return sorted(rows)
raw = files(os.path.join(work, "run", "raw"))
kinds = {}
for name, size in raw:
    for suffix in (".profile.jfr", ".flame.jfr", ".cpu.html", ".wall.html"):
        if name.endswith(suffix):
            kinds.setdefault(suffix, []).append(size)
cells = len(os.listdir(os.path.join(work, "run", "cells")))
def profiles(site):
    run = os.listdir(os.path.join(work, site, "data", "runs"))[0]
    return sum(s for _, s in files(os.path.join(work, site, "data", "runs", run, "profiles")))
pages, recordings = profiles("pages"), profiles("recordings")
summary = {
    "cells": cells,
    "variantsPerCell": 2,
    "bytesPerFile": {k: {"min": min(v), "max": max(v), "mean": round(sum(v) / len(v))} for k, v in kinds.items()},
    "publishedPerRun": {"pagesOnly": pages, "withRecordings": recordings},
    "perCell": {"pagesOnly": round(pages / cells), "withRecordings": round(recordings / cells)},
}
# what a larger matrix comes to, from the measured per-cell sizes
for n in (40, 200, 1000):
    summary[f"run of {n} cells (MB)"] = {
        "pagesOnly": round(n * pages / cells / 1e6, 1),
        "withRecordings": round(n * recordings / cells / 1e6, 1),
    }
json.dump(summary, open(os.path.join(out, "summary.json"), "w"), indent=2)
print(json.dumps(summary, indent=2))
PY
