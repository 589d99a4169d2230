#!/usr/bin/env bash
# Makes this machine ready for the test suite, doing only what is missing:
#   Debian packages (docker.io, debootstrap, chromium, hyperfine, postgresql), actionlint, oha, a running Docker engine,
#   the offline JDK images (local/debian-openjdk:21 and :25), and a JDK 21+ for the build.
# Prints the JAVA_HOME to build with on its last line. Needs root for installs (as CI and dev machines here are).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
say() { echo "test-environment: $*" >&2; }

missing=()
command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v hyperfine >/dev/null 2>&1 || missing+=(hyperfine)
command -v taskset >/dev/null 2>&1 || missing+=(util-linux)
command -v stress-ng >/dev/null 2>&1 || missing+=(stress-ng)   # a known CPU hog beside a cell (issue #32)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)   # the Grafana sink's tests start their own server
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# zizmor, the GitHub Actions security linter (WorkflowsIT), from PyPI
if ! command -v zizmor >/dev/null 2>&1; then
  say "installing zizmor"
  python3 -m pip install -q --root-user-action=ignore zizmor==1.32.0 >&2 || pip install -q zizmor==1.32.0 >&2
fi
# actionlint checks the GitHub workflows (WorkflowsIT); built from source with the machine's Go
if ! command -v actionlint >/dev/null 2>&1; then
  say "installing actionlint"
  GOBIN=/usr/local/bin go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12 >&2
fi

# oha, the load generator of service cells (issue #28), from the Rust crate registry; built once, cached
"$root/containers/loadgen/build-oha.sh" >&2

if ! docker info >/dev/null 2>&1; then
  say "starting dockerd"
  (setsid dockerd >/tmp/loom-dockerd.log 2>&1 &)
  for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
  docker info >/dev/null 2>&1 || { tail -20 /tmp/loom-dockerd.log >&2; say "dockerd did not come up"; exit 1; }
fi

for v in 21 25; do
  if ! docker image inspect "local/debian-openjdk:$v" >/dev/null 2>&1; then
    say "building the offline JDK images (about 2 minutes)"
    "$root/containers/offline/build-images.sh" 21 25 >&2
    break
  fi
done

for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/*; do
  [ -n "$candidate" ] && [ -x "$candidate/bin/javac" ] || continue
  v="$("$candidate/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')"
  case "$v" in ''|1.*|1[0-9]|20) continue ;; esac
  echo "$candidate"; exit 0
done
say "no JDK 21+ with javac found under JAVA_HOME or /usr/lib/jvm"
exit 1
