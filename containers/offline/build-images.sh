#!/usr/bin/env bash
# Builds JDK base images from Debian packages, for hosts that cannot pull from a registry.
#   containers/offline/build-images.sh [VERSION...]     (default: 21 25)
# Produces local/debian-openjdk:<VERSION> with the JDK and hyperfine installed. The images carry
# a label with the package versions so a cell record can say exactly what it ran on.
# Skips a version whose image already exists unless FORCE=1.
set -euo pipefail

versions=("$@")
[ ${#versions[@]} -eq 0 ] && versions=(21 25)
suite="${DEBIAN_SUITE:-trixie}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

command -v debootstrap >/dev/null || { echo "error: debootstrap is not installed (apt-get install debootstrap)" >&2; exit 2; }
docker info >/dev/null 2>&1 || { echo "error: no Docker engine answers (start dockerd first)" >&2; exit 2; }

work="$(mktemp -d /tmp/loom-offline.XXXXXX)"
cleanup() {
  for m in proc dev; do umount -l "$work/rootfs/$m" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# One minbase root file system, reused for every version: debootstrap is most of the time.
rootfs="$work/rootfs"
echo "==> debootstrap $suite (minbase)"
debootstrap --variant=minbase "$suite" "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 \
  || { tail -20 "$work/debootstrap.log" >&2; exit 1; }

for v in "${versions[@]}"; do
  tag="local/debian-openjdk:$v"
  if [ "${FORCE:-0}" != 1 ] && docker image inspect "$tag" >/dev/null 2>&1; then
    echo "==> $tag exists (FORCE=1 rebuilds)"; continue
  fi
  echo "==> building $tag"
  image_root="$work/image-$v"
  cp -a "$rootfs" "$image_root"
  mount -t proc proc "$image_root/proc"
  mount --bind /dev "$image_root/dev"
  chroot "$image_root" /bin/sh -c "
    set -e
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends openjdk-$v-jdk-headless hyperfine ca-certificates >/dev/null
    apt-get clean
    rm -rf /var/lib/apt/lists/*
  "
  jdk_version="$(chroot "$image_root" dpkg-query -W -f='${Version}' "openjdk-$v-jdk-headless")"
  hf_version="$(chroot "$image_root" dpkg-query -W -f='${Version}' hyperfine)"
  umount -l "$image_root/proc" "$image_root/dev"
  java_home="/usr/lib/jvm/java-$v-openjdk-amd64"
  tar -C "$image_root" -c . | docker import \
    -c "ENV JAVA_HOME=$java_home" \
    -c "ENV PATH=$java_home/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    -c "LABEL org.loommatrix.jdk-package=openjdk-$v-jdk-headless=$jdk_version org.loommatrix.hyperfine=$hf_version org.loommatrix.debian-suite=$suite" \
    - "$tag" >/dev/null
  rm -rf "$image_root"
  echo "==> $tag: openjdk $jdk_version, hyperfine $hf_version"
done
