#!/usr/bin/env bash
# Prints the directory of the newest published run that a pull request is compared against: in SITE_DIR's
# history, the newest run on BRANCH (the merge base's branch) with PROFILE that no pull request triggered.
# Prints nothing (exit 0) when there is none yet.
set -euo pipefail
site="$1" branch="$2" profile="${3:-}"
index="$site/data/index.json"
[ -f "$index" ] || exit 0
id="$(jq -r --arg b "$branch" --arg p "$profile" '
  [.runs[] | select(.git.branch == $b and .trigger != "pull_request" and ((.profile // "") == $p))]
  | last | .runId // empty' "$index")"
[ -n "$id" ] && echo "$site/data/runs/$id"
exit 0
