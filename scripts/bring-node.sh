#!/usr/bin/env bash
# Prints the bin folder of the Node this project targets (the major in .nvmrc), installing it first
# from the npm registry's `node` package when the machine's own Node is older. The registry is the
# one source every machine here reaches; the download is cached, and replaced when the registry has
# a newer release of that major (security releases), so a cache never pins an old one.
#
#   export PATH="$(scripts/bring-node.sh):$PATH"
#   export PATH="$(scripts/bring-node.sh 22):$PATH"     # another supported major, to test on it
#
# MGW_NODE_CACHE overrides the cache folder (default: ~/.cache/market-gateway).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
major="${1:-$(tr -d 'v \r\n' <"$root/.nvmrc")}"
major="${major%%.*}"
say() { echo "bring-node: $*" >&2; }

# `a` is at least `b`, as versions (24.9.0 < 24.10.0).
at_least() { [[ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n1)" == "$2" ]]; }

# The newest release of the major on the registry; empty when the registry cannot be asked.
latest="$(npm view "node@$major" version --json 2>/dev/null | tr -d '[]" \r\n' | tr ',' '\n' | grep -E "^$major\.[0-9]+\.[0-9]+\$" | sort -V | tail -n1 || true)"

current="$(node --version 2>/dev/null || true)"
current="${current#v}"
if [[ "$current" == "$major."* ]] && { [[ -z "$latest" ]] || at_least "$current" "$latest"; }; then
  dirname "$(command -v node)"
  exit 0
fi

cache="${MGW_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/market-gateway}/node-$major"
bin="$cache/node_modules/node/bin"
cached="$("$bin/node" --version 2>/dev/null || true)"
cached="${cached#v}"
if [[ "$cached" == "$major."* ]] && { [[ -z "$latest" ]] || at_least "$cached" "$latest"; }; then
  echo "$bin"
  exit 0
fi
if [[ -z "$latest" ]]; then
  say "cannot reach the npm registry to get Node $major (the machine has ${current:-no node}, the cache ${cached:-nothing})"
  exit 1
fi

say "installing Node $latest from the npm registry into $cache (the machine has ${current:-no node}, the cache ${cached:-nothing})"
mkdir -p "$(dirname "$cache")"
partial="$(mktemp -d "$cache.partial.XXXXXX")"
trap 'rm -rf "$partial"' EXIT
# The `node` package's preinstall links the platform's binary: the one install script allowed, and
# run even where the user's npm config ignores scripts.
echo '{"private": true, "allowScripts": {"node": true}}' >"$partial/package.json"
npm install --prefix "$partial" --ignore-scripts=false --no-audit --no-fund --loglevel=error "node@$latest" >&2
got="$("$partial/node_modules/node/bin/node" --version 2>/dev/null || true)"
if [[ "$got" != "v$latest" ]]; then
  say "the installed package holds no working Node $latest (got: ${got:-nothing}); the cache is left as it was"
  exit 1
fi
rm -rf "$cache" && mv "$partial" "$cache"
trap - EXIT
echo "$bin"
