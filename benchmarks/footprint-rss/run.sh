#!/usr/bin/env bash
# Why footprint's RSS per virtual thread can fall below zero (issue #32): the footprint workload at the quick
# profile's 2,000 threads and at its default 100,000, 5 fresh JVMs a variant on this host's JDK 25 (local backend),
# each sample's heap growth after a full GC (heapBytes) beside its RSS growth (rssBytes), into OUT_DIR/README.md
# (with each cell's record: OUT_DIR/2000/cell.json, OUT_DIR/100000/cell.json; the runs' consoles stay in a scratch
# directory).
# Usage: benchmarks/footprint-rss/run.sh [OUT_DIR]   (repository root; JAVA_HOME a JDK 25)
set -euo pipefail
out="${1:-benchmarks/results/$(date -u +%Y-%m-%d)-footprint-rss}"
root="$(pwd)"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cli=("${JAVA_HOME:?set JAVA_HOME}/bin/java" -jar "$root/runner/target/loom-matrix.jar")
[ -f "$root/runner/target/loom-matrix.jar" ] || (cd "$root" && ./loom-matrix --version >/dev/null)

for threads in 2000 100000; do
  cat > "$work/m$threads.yaml" <<YAML
schema: 1
jdks: [{id: host-25, vm: hotspot, version: 25, javaHome: "$JAVA_HOME"}]
cpus: [2]
workloads:
  - {id: footprint, variants: [virtual, platform], params: {threads: $threads}}
repetitions: 5
memory: 2g
YAML
  "${cli[@]}" run --matrix "$work/m$threads.yaml" --backend local --out "$work/run$threads" > "$work/run$threads.log" 2>&1 || true
done

python3 - "$work" "$out" "$(git -C "$root" rev-parse --short HEAD)" <<'PY'
import json, glob, sys, os, datetime
work, out, commit = sys.argv[1], sys.argv[2], sys.argv[3]
lines = [f"# Footprint: heap growth against RSS growth per sample, {datetime.date.today()}", "",
         "Each row one fresh JVM (local backend, this host's JDK 25, 2 CPUs): the workload's own `heapBytes` (heap in",
         "use after a full GC, after minus before) and `rssBytes` (VmRSS, after minus before), in MiB.", "",
         f"Command: `benchmarks/footprint-rss/run.sh` at commit {commit}.", ""]
for threads in ("2000", "100000"):
    cell = json.load(open(glob.glob(f"{work}/run{threads}/cells/*.json")[0]))
    lines += [f"## {threads} threads", "", "| variant | heap MiB | RSS MiB | RSS below zero | variant's record |",
              "|---|---|---|---|---|"]
    for m in cell["measurements"]:
        for s in m["samples"]:
            heap, rss = s.get("heapBytes"), s.get("rssBytes")
            lines.append(f"| {m['variant']} | {heap / 2**20:.2f} | {rss / 2**20:.2f} | {'yes' if rss < 0 else ''} | "
                         f"{(m.get('error') or 'ok')[:80]} |")
    lines.append("")
    os.makedirs(f"{out}/{threads}", exist_ok=True)
    json.dump(cell, open(f"{out}/{threads}/cell.json", "w"), indent=1)
open(f"{out}/README.md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
