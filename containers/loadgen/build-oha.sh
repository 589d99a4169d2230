#!/usr/bin/env bash
# Builds the load generator of service cells (issue #28): oha, from the Rust crate registry, at the exact
# version the runner expects (runner/.../backend/service/Oha.java), with its own lock file (--locked), into
#   ${LOOM_OHA_HOME:-~/.cache/loom-matrix/oha-<VERSION>}/bin/oha
# The container backend layers this binary onto the cell's base image as the generator image; the local
# backend runs it as it is. Needs cargo (rustup or Debian's); about 5 minutes on 2 cores, once.
set -euo pipefail
# The version the runner expects (Oha.VERSION; OhaTest holds the two equal). A literal, so the script works from
# a release archive too, where there is no source tree to read it from.
version="1.16.0"
home="${LOOM_OHA_HOME:-$HOME/.cache/loom-matrix/oha-$version}"
if [ -x "$home/bin/oha" ] && "$home/bin/oha" --version 2>/dev/null | grep -qx "oha $version"; then
  echo "oha $version: $home/bin/oha"; exit 0
fi
command -v cargo >/dev/null 2>&1 || {
  echo "error: cargo is not installed; service cells need oha $version built with it (rustup, or apt-get install cargo)" >&2
  exit 2
}
echo "==> building oha $version with cargo (about 5 minutes, once)" >&2
cargo install oha --version "$version" --locked --root "$home" >&2
"$home/bin/oha" --version
