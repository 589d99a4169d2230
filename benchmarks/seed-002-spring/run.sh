#!/usr/bin/env bash
# Seed 002's web-service experiment with the real Spring Boot (issue #28): the example service
# (examples/spring-service, Spring Boot 3.5.7) under 3,000 closed-model users (oha, no think time) against its
# 300 ms handler — Tomcat with threads.max 200 / 512 / 800, the same with virtual threads, and WebFlux on Netty —
# each variant's throughput, latency percentiles and efficiency against its Little's-law bound,
# min(users, threads) / 0.3 s, beside the seed's table. In a container on JDK 25 under CPUS (default 1: the
# server on CPU 0, oha alone on CPU 1 of this 2-CPU machine; CPUS=2 puts them side by side, which the record
# then says).
# Usage: benchmarks/seed-002-spring/run.sh [OUT_DIR]   (repository root; Docker, local/debian-openjdk:25, oha)
# Env: CPUS (1), USERS (3000), WARMUP (10s), DURATION (30s), REPETITIONS (3) — about 15 minutes at the defaults.
set -euo pipefail
out="$(realpath -m "${1:-benchmarks/results/$(date -u +%Y-%m-%d)-seed-002-spring}")"
cpus="${CPUS:-1}" users="${USERS:-3000}" warmup="${WARMUP:-10s}" duration="${DURATION:-30s}" reps="${REPETITIONS:-3}"
root="$(pwd)"
(cd examples/spring-service && ../../mvnw -q -B package)
mkdir -p "$out"
work="$(mktemp -d)"   # the run and its console (printed too); OUT_DIR gets the matrix, summary.json and the commit
trap 'rm -rf "$work"' EXIT
cat > "$out/matrix.yaml" <<YAML
schema: 1
jdks:
  - {id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}
cpus: [$cpus]
repetitions: $reps
warmup: 0
timeout: 60m
memory: 2g
pids: 20000
workloads:
  - id: spring-boot-seed-002
    service:
      jar: "$root/examples/spring-service/target/spring-service.jar"
      args: [--server.port=8080, --app.downstream-ms=300, --server.tomcat.max-connections=10000, --server.tomcat.accept-count=10000]
      port: 8080
      ready: {http: /health, status: 200}
    load: {path: /work, users: $users, warmup: $warmup, duration: $duration}
    variants:
      tomcat-200: {properties: {server.tomcat.threads.max: "200"}}
      tomcat-512: {properties: {server.tomcat.threads.max: "512"}}
      tomcat-800: {properties: {server.tomcat.threads.max: "800"}}
      virtual: {properties: {spring.threads.virtual.enabled: "true"}}
      webflux: {properties: {spring.main.web-application-type: reactive}}
    baseline: tomcat-200
YAML
./loom-matrix run --matrix "$out/matrix.yaml" --backend docker --out "$work/run" | tee "$work/run.log" || true
jq -s --argjson users "$users" '[.[] | .status as $status | .reason as $reason | .measurements[] | {
    variant, status: $status,
    bound: (if .variant | startswith("tomcat-") then ([$users, (.variant | ltrimstr("tomcat-") | tonumber)] | min) / 0.3
            else $users / 0.3 end),
    throughputMedian: .summary.median, ci: .summary.ci95, ciLevel: .summary.ciLevel,
    p50: ([.samples[].latencyP50Ms] | sort | .[length / 2 | floor]),
    p90: ([.samples[].latencyP90Ms] | sort | .[length / 2 | floor]),
    p99: ([.samples[].latencyP99Ms] | sort | .[length / 2 | floor]),
    max: ([.samples[].latencyMaxMs] | sort | .[length / 2 | floor]),
    errors: ([.samples[].errors] | add),
    generatorCpuPerSecond: ([.samples[] | .generatorCpuSeconds / (.answered / .throughputPerSecond)] | max),
    serverCpuMs: ([.samples[].cpuMs] | sort | .[length / 2 | floor]),
    error
  } | . + {efficiency: (.throughputMedian / .bound)}]' "$work"/run/cells/*.json | tee "$out/summary.json"
git rev-parse --short HEAD > "$out/commit.txt"
