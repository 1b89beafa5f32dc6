#!/usr/bin/env bash
# Builds a Debian base image with Node 24 on its PATH, for machines that cannot pull from an image
# registry: Debian bookworm from debootstrap (the Debian package mirror), Node's binary from the
# npm registry's `node-linux-<arch>` package (what the `node` package installs) and npm from the
# `npm` package. The Containerfile builds on it with `--build-arg BASE_IMAGE=<tag>`.
#
#   sudo scripts/container-base.sh [tag]          # default tag: localhost/node24-base:local
#
# With `--debian-tag <tag>` the Debian root alone (before Node is added) is imported too: the
# container test builds its PostgreSQL, Redis and HAProxy stand-ins on it.
#
# Needs: root, debootstrap, podman, npm (any version; only to fetch the packages), tar, strip
# (binutils).
# MGW_DEBIAN_MIRROR overrides the mirror (default http://deb.debian.org/debian), MGW_NODE_MAJOR the
# Node major (default: .nvmrc).
set -euo pipefail
root_dir="$(cd "$(dirname "$0")/.." && pwd)"
say() { echo "container-base: $*" >&2; }

tag="localhost/node24-base:local"
debian_tag=""
while (($#)); do
  case "$1" in
    --debian-tag) debian_tag="$2"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) tag="$1"; shift ;;
  esac
done

missing=()
for tool in debootstrap podman npm tar strip; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if ((${#missing[@]})); then
  say "missing: ${missing[*]} (apt-get install -y debootstrap podman npm binutils)"
  exit 2
fi
if [[ $(id -u) -ne 0 ]]; then say "debootstrap needs root"; exit 2; fi

mirror="${MGW_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
major="${MGW_NODE_MAJOR:-$(tr -d 'v \r\n' <"$root_dir/.nvmrc")}"
major="${major%%.*}"
case "$(uname -m)" in
  x86_64) arch=x64 debarch=amd64 ;;
  aarch64) arch=arm64 debarch=arm64 ;;
  *) say "no Node binary package for $(uname -m)"; exit 2 ;;
esac

work="$(mktemp -d /var/tmp/mgw-base.XXXXXX)"
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"

# --variant=minbase: apt, dpkg, bash, coreutils and what is Priority: required (useradd among
# them); ca-certificates for npm's TLS.
say "debootstrap bookworm ($debarch, $mirror)"
debootstrap --variant=minbase --arch="$debarch" --include=ca-certificates bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 || {
  tail -n 30 "$work/debootstrap.log" >&2
  say "debootstrap failed (log above)"
  exit 1
}

# The same trimming the official slim images do: no package lists or caches, no docs or man pages.
# Packages' daemons must not start inside a build (policy-rc.d already says so for debootstrap).
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/log/*.log \
  "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/*
printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb http://deb.debian.org/debian-security bookworm-security main\n' \
  "$mirror" "$mirror" >"$rootfs/etc/apt/sources.list"
import_root() { # <tag> <message>: the root as it is now, as an image
  tar --numeric-owner -C "$rootfs" -c . | podman import --quiet \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' "${@:3}" \
    --message "$2" - "$1" >/dev/null
}
if [[ -n "$debian_tag" ]]; then
  say "importing Debian alone as $debian_tag"
  import_root "$debian_tag" "debian bookworm (debootstrap minbase)" --change 'CMD ["bash"]'
fi

# Node: the newest release of the major, from the registry's per-platform package.
version="$(npm view "node-linux-$arch@$major" version --json | tr -d '[]" \r\n' | tr ',' '\n' | grep -E "^$major\.[0-9]+\.[0-9]+\$" | sort -V | tail -n1)"
[[ -n "$version" ]] || { say "the npm registry has no node-linux-$arch@$major"; exit 1; }
say "Node $version (npm package node-linux-$arch), npm $(npm view npm@11 version --json | tr -d '[]" \r\n' | tr ',' '\n' | sort -V | tail -n1)"
(cd "$work" && npm pack --silent "node-linux-$arch@$version" >/dev/null && npm pack --silent "npm@11" >/dev/null)
mkdir -p "$work/node" "$rootfs/usr/local/lib/node_modules/npm" "$rootfs/usr/local/bin"
tar -xzf "$work"/node-linux-"$arch"-*.tgz -C "$work/node"
# The package's binary carries its debug information (126 MB); stripped it is 108 MB and runs the
# same (addons link against the dynamic symbols, which strip keeps). Node's C headers (67 MB) are
# left out: they only serve to compile addons, and this project's come prebuilt.
install -m 0755 "$work/node/package/bin/node" "$rootfs/usr/local/bin/node"
strip "$rootfs/usr/local/bin/node"
tar -xzf "$work"/npm-*.tgz -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
got="$(chroot "$rootfs" /usr/local/bin/node --version)"
[[ "$got" == "v$version" ]] || { say "the Node in the image says ${got:-nothing}, not v$version"; exit 1; }

say "importing as $tag"
import_root "$tag" "debian bookworm (debootstrap minbase) + node $version" --change "ENV NODE_VERSION=$version" --change 'CMD ["node"]'
podman image inspect --format '{{.Size}}' "$tag" | awk -v t="$tag" '{ printf "container-base: %s, %.0f MB\n", t, $1 / 1e6 }' >&2
