#!/usr/bin/env bash
# A pull request's A/B run (pr.yml), on one machine: the merge base and the head, each built, measured in the
# same cells in one `loom-matrix ab` run, interleaved, then compared pair by pair, flagged changes confirmed.
# Needs no published history: it works on a brand-new or private repository.
#
# Usage: ci/ab.sh WORK_DIR BASE_REV [ab options…]   (from the repository's root, the head checked out; the release
#        archive's ci/ab.sh, or scripts/ci/ab.sh in loom-matrix's source tree)
# Settings (environment):
#   LOOM_BENCHMARK_BUILD  the command that builds what the matrix points at (your JMH jar, your program), run in
#                         each checkout's root — the one setting a team that copies the workflows sets; empty:
#                         nothing to build (built-in workloads only)
#   LOOM_MATRIX           the matrix file, relative to the repository's root (default: matrix.yaml)
#   LOOM_AB_HARNESS       a harness jar the build makes, relative to a checkout: each side then runs its own
#                         (this repository, whose artifact under test is the harness itself)
#   LOOM_CLI              the loom-matrix command (default: the one this script came with: the release's
#                         bin/loom-matrix, or the source tree's ./loom-matrix)
# Writes WORK_DIR/base (the merge base's worktree) and WORK_DIR/ab (the A/B run, with compare.md and
# compare.json). Exit code: ab's (0; 3 some cells failed; 4 a confirmed regression), 0 with a note in
# WORK_DIR/ab/compare.md when the merge base has no matrix file yet.
set -euo pipefail
work="$1" base_rev="$2"; shift 2
head_dir="$(pwd)"
matrix="${LOOM_MATRIX:-matrix.yaml}"
say() { echo "ab: $*" >&2; }
here="$(cd "$(dirname "$0")" && pwd)"
cli="${LOOM_CLI:-}"
for candidate in "$here/../bin/loom-matrix" "$here/../../loom-matrix"; do
  [ -n "$cli" ] || { [ -x "$candidate" ] && cli="$candidate"; }
done
[ -n "$cli" ] || { say "no loom-matrix next to $here: set LOOM_CLI"; exit 2; }

mkdir -p "$work"
work="$(cd "$work" && pwd)"
base_sha="$(git rev-parse --verify "$base_rev^{commit}")"
head_sha="$(git rev-parse HEAD)"
git worktree remove --force "$work/base" >/dev/null 2>&1 || rm -rf "$work/base"
git worktree add --detach "$work/base" "$base_sha" >&2

if [ ! -f "$work/base/$matrix" ]; then
  mkdir -p "$work/ab"
  echo "The merge base (${base_sha:0:12}) has no $matrix yet: nothing to compare with." > "$work/ab/compare.md"
  say "no $matrix at the merge base"
  exit 0
fi

if [ -n "${LOOM_BENCHMARK_BUILD:-}" ]; then
  for side in "$work/base" "$head_dir"; do
    say "building in $side: $LOOM_BENCHMARK_BUILD"
    (cd "$side" && bash -c "$LOOM_BENCHMARK_BUILD") >&2
  done
fi

harness=()
if [ -n "${LOOM_AB_HARNESS:-}" ]; then
  harness=(--baseline-harness "$work/base/$LOOM_AB_HARNESS" --candidate-harness "$head_dir/$LOOM_AB_HARNESS")
fi
rm -rf "$work/ab"
exec "$cli" ab --matrix "$head_dir/$matrix" --baseline-matrix "$work/base/$matrix" "${harness[@]}" \
  --baseline-label "base ${base_sha:0:12}" --candidate-label "head ${head_sha:0:12}" --out "$work/ab" "$@"
