#!/usr/bin/env bash
# The load generator's own ceiling on this machine (issue #28): the highest open-model rate oha sustains with
# latency correction on one CPU, against a server that is not the limit — Debian's nginx (one worker, pinned to
# CPU 0, answering a 2-byte file from memory) on loopback, oha pinned to CPU 1, 10 s per rate. A rate counts
# as sustained when oha completes ≥ 95 % of it (the cells' default maxShortfall) while using < 90 % of its CPU
# (the cells' saturation mark); the CPU-seconds oha spends per 1,000 requests give its cost at any load.
# Usage: benchmarks/loadgen-ceiling/run.sh [OUT_DIR]   (needs nginx: apt-get install nginx-light; oha built)
# Env: RATES (default "5000 10000 20000 40000 60000 80000 100000 120000"), CONNECTIONS (256)
set -euo pipefail
out="$(realpath -m "${1:-benchmarks/results/$(date -u +%Y-%m-%d)-loadgen-ceiling}")"
rates="${RATES:-5000 10000 20000 40000 60000 80000 100000 120000}" connections="${CONNECTIONS:-256}"
oha="$(containers/loadgen/build-oha.sh | sed -n 's/^oha [0-9.]*: //p')"
[ -x "$oha" ] || oha="$HOME/.cache/loom-matrix/oha-1.16.0/bin/oha"
mkdir -p "$out"
work="$(mktemp -d)"
printf 'ok' > "$work/ok"
cat > "$work/nginx.conf" <<CONF
worker_processes 1;
worker_cpu_affinity 01;
pid $work/nginx.pid;
error_log $work/error.log;
events { worker_connections 4096; }
http {
  access_log off;
  server { listen 127.0.0.1:18181 backlog=4096; root $work; location / { } }
}
CONF
nginx -c "$work/nginx.conf"
trap 'nginx -c "$work/nginx.conf" -s stop || true; rm -rf "$work"' EXIT
sleep 1
echo "rate asked,completed/s,completed share,oha cpu-s/s,oha cpu share,p50 ms,p99 ms,p99.9 ms,errors,cpu-s per 1000 req" > "$out/ceiling.csv"
for rate in $rates; do
  report="$work/r-$rate.json"
  # oha's CPU time from the shell's times, as the cells measure it
  times_line="$(bash -c "taskset -c 1 '$oha' --no-tui --output-format json -o '$report' -z 10s -c $connections -q $rate --latency-correction http://127.0.0.1:18181/ok >/dev/null 2>&1; times" | tail -1)"
  cpu="$(echo "$times_line" | awk '{ s = 0; for (i = 1; i <= NF; i++) { split($i, a, "m"); sub("s", "", a[2]); s += a[1] * 60 + a[2] } print s }')"
  jq -r --arg rate "$rate" --arg cpu "$cpu" '
    (.summary.total) as $t | ([.statusCodeDistribution[]] | add // 0) as $ok
    | ([.errorDistribution | to_entries[] | select(.key | test("deadline") | not) | .value] | add // 0) as $err
    | [$rate, ($ok / $t), ($ok / $t / ($rate | tonumber)), ($cpu | tonumber) / $t, ($cpu | tonumber) / $t,
       .latencyPercentiles.p50 * 1000, .latencyPercentiles.p99 * 1000, .latencyPercentiles["p99.9"] * 1000, $err,
       ($cpu | tonumber) / $ok * 1000] | @csv' "$report" >> "$out/ceiling.csv"   # oha's own report stays in $work
done
column -s, -t < "$out/ceiling.csv"
git rev-parse --short HEAD > "$out/commit.txt"
