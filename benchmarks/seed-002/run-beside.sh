#!/usr/bin/env bash
# Seed 002's own program beside loom-matrix, same image, same CPU/memory/pids limits, one after the
# other (never at once: they would disturb each other). Prints both tables and each pool's distance
# from its lower bound ceil(10000/T)·300 ms; exits 1 if a pool is more than 10 % above its bound.
# Usage: benchmarks/seed-002/run-beside.sh [OUT_DIR]      (--compare-only OUT_DIR: table from a past run)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
compare_only=false
if [ "${1:-}" = "--compare-only" ]; then compare_only=true; shift; fi
out="${1:-$root/target/seed-002}"
image="${IMAGE:-local/debian-openjdk:21}"

if ! $compare_only; then
rm -rf "$out" && mkdir -p "$out"

echo "== seed 002's PerformanceTest in $image (--cpus 2 --memory 2g --pids-limit 20000)"
docker run --rm --cpus 2 --memory 2g --memory-swap 2g --pids-limit 20000 --network none \
  -v "$here/PerformanceTest.java:/src/PerformanceTest.java:ro" "$image" \
  java -Xmx1228m /src/PerformanceTest.java | tee "$out/seed-program.txt"

echo "== loom-matrix, same experiment"
"$root/loom-matrix" run --matrix "$here/matrix.yaml" --backend docker --out "$out/run"
fi

python3 - "$out" <<'PY'
import json, math, pathlib, re, sys
out = pathlib.Path(sys.argv[1])
seed = {}
for line in (out / "seed-program.txt").read_text().splitlines():
    m = re.match(r"Average duration of (virtual threads|platform threads \[(\d+)\]):(\d+)ms", line)
    if m:
        seed["virtual" if m.group(2) is None else "pool:" + m.group(2)] = float(m.group(3))
cell = json.loads(next((out / "run" / "cells").glob("*.json")).read_text())
print(f"{'variant':<10} {'bound ms':>9} {'seed program ms':>16} {'vs bound':>9} {'loom-matrix median ms [CI]':>30} {'CI level':>9} {'vs bound':>9}")
worst = 0.0
for m in cell["measurements"]:
    v = m["variant"]
    bound = m["lowerBoundMs"]
    s = m["summary"]
    ours = s["median"]
    theirs = seed.get(v, float("nan"))
    print(f"{v:<10} {bound:>9.0f} {theirs:>16.0f} {theirs / bound - 1:>+9.1%} "
          f"{ours:>12.0f} {'[%.0f, %.0f]' % tuple(s['ci95']):>17} {s.get('ciLevel', 0.95):>9.0%} {ours / bound - 1:>+9.1%}")
    if v.startswith("pool:"):
        worst = max(worst, abs(theirs / bound - 1), abs(ours / bound - 1))
print(f"pools: largest distance from the lower bound {worst:.1%} (limit 10%)")
sys.exit(0 if worst <= 0.10 else 1)
PY
