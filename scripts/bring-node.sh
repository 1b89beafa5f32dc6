#!/usr/bin/env bash
# Prints the bin folder of the Node this project targets (the major in .nvmrc), installing it first
# from the npm registry's `node` package when the machine's own Node is another major. The registry
# is the one source every machine here reaches; the download is cached between runs.
#
#   export PATH="$(scripts/bring-node.sh):$PATH"
#   export PATH="$(scripts/bring-node.sh 22):$PATH"     # another supported major, to test on it
#
# MGW_NODE_CACHE overrides the cache folder (default: ~/.cache/market-gateway).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
major="${1:-$(tr -d 'v \n' <"$root/.nvmrc")}"
major="${major%%.*}"

current="$(node --version 2>/dev/null || true)"
if [[ "$current" == "v$major."* ]]; then
  dirname "$(command -v node)"
  exit 0
fi

cache="${MGW_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/market-gateway}/node-$major"
bin="$cache/node_modules/node/bin"
if [[ "$("$bin/node" --version 2>/dev/null || true)" != "v$major."* ]]; then
  echo "bring-node: installing Node $major from the npm registry into $cache (machine has ${current:-no node})" >&2
  rm -rf "$cache.partial" && mkdir -p "$cache.partial"
  # The `node` package's preinstall links the platform's binary: the one install script allowed.
  echo '{"private": true, "allowScripts": {"node": true}}' >"$cache.partial/package.json"
  npm install --prefix "$cache.partial" --no-audit --no-fund --loglevel=error "node@$major" >&2
  rm -rf "$cache" && mv "$cache.partial" "$cache"
fi
echo "$bin"
