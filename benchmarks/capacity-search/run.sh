#!/usr/bin/env bash
# The capacity search against known truths (issue #52): how close the found capacity is to the truth, and how long
# a search takes against how many windows it ran. The server is examples/spring-service (Spring Boot 3.5.7) with
# its handler waiting 40 ms on Tomcat pools of 4, 8 and 16 threads: Little's law gives 100, 200 and 400
# requests/s. Objective p99 <= 120 ms (three handler times), windows of 2 s warmup + 4 s measured, searched from
# 50 to 1,600 requests/s; the pool of 8 also at precisions 20 % and 5 % beside the default 10 %. In containers on
# JDK 25 under 1 CPU (the server on CPU 0, oha on CPU 1).
# Usage: benchmarks/capacity-search/run.sh [OUT_DIR]   (repository root; Docker, local/debian-openjdk:25, oha)
# Env: REPETITIONS (2) — about 15 minutes at the default.
set -euo pipefail
out="$(realpath -m "${1:-benchmarks/results/$(date -u +%Y-%m-%d)-capacity-search}")"
reps="${REPETITIONS:-2}"
root="$(pwd)"
(cd examples/spring-service && ../../mvnw -q -B package -DskipTests)
mkdir -p "$out"
entry() { # id threads precision
  cat <<YAML
  - id: $1
    service:
      jar: "$root/examples/spring-service/target/spring-service.jar"
      args: [--server.port=8080, --app.downstream-ms=40]
      port: 8080
      ready: {http: /health, status: 200}
    load:
      path: /work
      capacity: {objective: {p99: 120ms, errors: 0.1%}, from: 50, to: 1600, precision: $3}
      connections: 256
      warmup: 2s
      duration: 4s
    variants:
      tomcat-$2: {properties: {server.tomcat.threads.max: "$2"}}
YAML
}
{
  cat <<YAML
schema: 1
jdks:
  - {id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}
cpus: [1]
repetitions: $reps
warmup: 0
timeout: 60m
memory: 1g
workloads:
YAML
  entry pool-4 4 10%
  entry pool-8 8 10%
  entry pool-16 16 10%
  entry pool-8-at-20 8 20%
  entry pool-8-at-5 8 5%
} > "$out/matrix.yaml"
rm -rf "$out/run"
./loom-matrix plan --matrix "$out/matrix.yaml" | tee "$out/plan.txt"
./loom-matrix run --matrix "$out/matrix.yaml" --backend docker --out "$out/run" | tee "$out/console.txt" || true
python3 - "$out" <<'PY' | tee "$out/summary.txt"
import glob, json, re, sys
out = sys.argv[1]
rows = []
print("workload      truth  precision  rep  outcome     found  first failing  found/truth  windows  seconds/search")
for f in sorted(glob.glob(f"{out}/run/cells/*.json")):
    cell = json.load(open(f))
    workload = cell["coordinates"]["workload"]
    threads = int(re.search(r"pool-(\d+)", workload).group(1))
    truth = threads / 0.040
    seconds = cell["execution"]["durationMs"] / 1000
    for m in cell["measurements"]:
        n = len(m["samples"])
        for i, s in enumerate(m["samples"]):
            found = s.get("capacityPerSecond")
            failing = s.get("capacityFirstFailingPerSecond")
            print(f"{workload:13} {truth:5.0f}  {100 * s['capacityPrecision']:7.0f} %  {i + 1:3}  {s['capacityOutcome']:10}"
                  f"  {found if found is not None else '-':>5}  {failing if failing is not None else '-':>13}"
                  f"  {found / truth if found else float('nan'):11.3f}  {len(s['capacityTried']):7}  {seconds / n:14.0f}")
            rows.append({"workload": workload, "truth": truth, "precision": s["capacityPrecision"], "repetition": i + 1,
                         "outcome": s["capacityOutcome"], "found": found, "firstFailing": failing,
                         "windows": len(s["capacityTried"]), "secondsPerSearch": seconds / n,
                         "tried": [{k: t.get(k) for k in ("rate", "validation", "verdict", "latencyP99Ms")}
                                   for t in s["capacityTried"]]})
json.dump(rows, open(f"{out}/summary.json", "w"), indent=1)
PY
git rev-parse --short HEAD > "$out/commit.txt"
