#!/usr/bin/env bash
# Builds the dashboard into dashboard/dist (the runner's build carries it; `publish` installs it into a site).
# Installs the npm dependencies exactly as locked, but only when the lock file changed since the last install.
set -euo pipefail
cd "$(dirname "$0")"
command -v npm >/dev/null 2>&1 || { echo "dashboard: needs Node.js 20+ and npm (apt-get install nodejs npm)" >&2; exit 1; }
if [ ! -f node_modules/.package-lock.json ] || ! cmp -s <(sed -n '/"packages"/,$p' package-lock.json) <(sed -n '/"packages"/,$p' node_modules/.package-lock.json) 2>/dev/null; then
  npm ci --no-audit --no-fund --loglevel=error
fi
npm run --silent build -- --logLevel warn
