#!/usr/bin/env bash
# What `loom-matrix bisect` finds in a team's history, and how long it takes, on this machine (local backend, the
# host's JDK 25, 2 CPUs). Three team repositories, each a program built by javac that times a fixed amount of
# arithmetic 20 times in one JVM and reports the median (Bencher Metric Format):
#   one-step   good + 16 commits: commit 5 changes the code but nothing measurable (the same work, written
#              another way), commit 8 does not compile, commit 11 makes the work 6 % slower. Bisect must name
#              commit 11 in at most ceil(log2 16) + 1 = 5 measured steps within 20 minutes, skipping commit 8.
#   two-steps  good + 16 commits: commit 4 and commit 12 each make the work 4 % slower. Both must be found, or
#              the range said to be split.
#   no-change  the first 7 commits of one-step (the refactor included, the slowdown not): "no regression".
# Each bisection has --budget 20m and the default --threshold (3 %).
# Usage: benchmarks/bisect/run.sh [OUT_DIR]   (repository root; JAVA_HOME a JDK 25)
set -euo pipefail
out="${1:-benchmarks/results/$(date -u +%Y-%m-%d)-bisect}"
root="$(pwd)"
java_home="${JAVA_HOME:?set JAVA_HOME to a JDK 25}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# the CLI, a copy of its build (the tree may be rebuilt meanwhile)
(cd "$root" && ./mvnw -q -B -o package -pl runner -am -DskipTests -Dspotless.check.skip=true >&2)
mkdir "$work/cli" && cp -r "$root/runner/target/lib" "$work/cli/lib" && cp "$root/runner/target/loom-matrix.jar" "$work/cli/"
cli=("$java_home/bin/java" --enable-native-access=ALL-UNNAMED -jar "$work/cli/loom-matrix.jar")

export GIT_AUTHOR_NAME=team GIT_AUTHOR_EMAIL=team@example.com GIT_COMMITTER_NAME=team GIT_COMMITTER_EMAIL=team@example.com

# the program at a given amount of work; "$2" = refactor writes the same loop another way
program() {  # $1: work per round, $2: plain|refactor
  local step='x = x * 6364136223846793005L + 1442695040888963407L;
            x ^= x >>> 29;'
  if [ "$2" = refactor ]; then
    step='x = mix(x);'
  fi
  cat <<JAVA
package app;

public class Main {
    static final int WORK = $1;

    public static void main(String[] args) throws Exception {
        long sink = 0;
        StringBuilder rounds = new StringBuilder();
        double[] ms = new double[20];
        for (int r = -10; r < ms.length; r++) {
            long t = System.nanoTime();
            sink += work(WORK);
            if (r >= 0) {
                ms[r] = (System.nanoTime() - t) / 1e6;
                rounds.append(r == 0 ? "" : ", ").append(ms[r]);
            }
        }
        java.util.Arrays.sort(ms);
        String file = System.getenv("LOOM_METRICS_FILE");
        if (file != null) {
            java.nio.file.Files.writeString(java.nio.file.Path.of(file), "{\"work\": {\"workMs\": "
                    + "{\"value\": " + ms[ms.length / 2] + ", \"iterations\": [" + rounds + "]}}}");
        }
        System.out.println(sink == 42 ? "" : "done");
    }

    static long work(int n) {
        long x = 1;
        for (int i = 0; i < n; i++) {
            $step
        }
        return x;
    }

    static long mix(long x) {
        x = x * 6364136223846793005L + 1442695040888963407L;
        return x ^ (x >>> 29);
    }
}
JAVA
}

matrix() {
  cat <<YAML
schema: 1
jdks:
  - {id: host-25, vm: hotspot, version: 25, javaHome: "$java_home"}
cpus: [2]
repetitions: 3
warmup: 0
workloads:
  - id: work
    program:
      classpath: [build]
      mainClass: app.Main
      metrics:
        workMs: {unit: ms, direction: lower}
    variants:
      plain: {jvmArgs: [-Xmx256m]}
YAML
}

# $1: repository, then one word per commit after good: n (notes only), r (the refactor), x (does not compile),
# or a number (the work per round from then on). Good's work is 20,000,000 a round.
history() {
  local repo="$1"; shift
  local work=20000000 style=plain i=0
  mkdir -p "$repo/src/app"
  git -C "$repo" init -q -b main
  matrix > "$repo/matrix.yaml"
  echo "build/" > "$repo/.gitignore"
  program "$work" "$style" > "$repo/src/app/Main.java"
  git -C "$repo" add -A && git -C "$repo" commit -q -m "good"
  for c in "$@"; do
    i=$((i + 1))
    case "$c" in
      n) echo "notes $i" >> "$repo/NOTES.md"; msg="notes $i" ;;
      r) style=refactor; program "$work" "$style" > "$repo/src/app/Main.java"; msg="commit $i: write the loop another way" ;;
      x) program "$work" "$style" | sed 's/long sink = 0;/long sink = 0/' > "$repo/src/app/Main.java"
         msg="commit $i: break the build" ;;
      *) work="$c"; program "$work" "$style" > "$repo/src/app/Main.java"
         msg="commit $i: the work to $c a round" ;;
    esac
    # a commit after a broken one repairs it
    [ "$c" = x ] || program "$work" "$style" > "$repo/src/app/Main.java"
    git -C "$repo" add -A && git -C "$repo" commit -q -m "$msg"
  done
}

bisect() {  # $1: name, $2: repository, $3: good, $4: bad
  local name="$1" repo="$2" started
  started="$(date +%s)"
  "${cli[@]}" bisect --repo "$repo" --good "$3" --bad "$4" --backend local --budget 20m \
    --build "$java_home/bin/javac -d build src/app/Main.java" --out "$work/$name" > "$work/$name.log" 2>&1 || true
  local seconds=$(( $(date +%s) - started ))
  cp "$work/$name/bisect.json" "$out/$name.json"
  cp "$work/$name/bisect.md" "$out/$name.md"
  python3 - "$out/$name.json" "$seconds" "$name" <<'PY' | tee -a "$out/summary.txt"
import json, sys
r = json.load(open(sys.argv[1]))
measured = [s for s in r["steps"] if s.get("change")]
print(f'{sys.argv[3]}: {r["ending"]} in {sys.argv[2]} s, {len(measured)} measured steps of {len(r["steps"])}')
print(f'  {r["answer"]}')
for f in r["found"]:
    print(f'  found: {f["commit"]["subject"]}: {f["words"]}')
for u in r["unsplit"]:
    print(f'  unsplit: {", ".join(c["subject"] for c in u["commits"])}: {u["why"]}')
for s in r["steps"]:
    print(f'  step {s["commit"]["subject"]}: {s["verdict"]} ({s["why"]})')
PY
}

: > "$out/summary.txt"
{ uname -srm; nproc; "$java_home/bin/java" -version 2>&1 | head -1; git -C "$root" rev-parse --short HEAD; } \
  > "$out/machine.txt"

#                  1 2 3 4 5 6 7 8 9 10 11       12 13 14 15 16
history "$work/one" n n n n r n n x n n  21200000 n  n  n  n  n
bisect one-step "$work/one" HEAD~16 HEAD

history "$work/two" n n n 20800000 n n n n n n n 21632000 n n n n
bisect two-steps "$work/two" HEAD~16 HEAD

bisect no-change "$work/one" HEAD~16 HEAD~9
