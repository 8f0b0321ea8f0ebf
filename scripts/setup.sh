#!/usr/bin/env bash
# Installs everything packet-kit needs on a fresh Debian machine: the sandbox (bubblewrap, and
# gcc with libseccomp-dev to build its seccomp filter),
# a browser for the end-to-end tests (Debian's chromium), Python for the packets' tests,
# and the npm dependencies (which pin Node 24). Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
[ -x /usr/lib/chromium/chromium ] || need+=(chromium)
command -v python3 >/dev/null 2>&1 || need+=(python3)
command -v cc >/dev/null 2>&1 || need+=(gcc)
[ -f /usr/include/seccomp.h ] || need+=(libseccomp-dev)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  echo "setup: installing ${need[*]} from Debian's packages"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

if [ ! -x node_modules/.bin/node ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # npm runs on the system's Node until the pinned one is installed, and every package that needs a
  # newer Node would print an EBADENGINE warning. So the pinned Node (the version package-lock.json
  # holds) is installed first, on its own, into .cache/, and npm ci runs on it.
  pinned=$(node -p "require('./package-lock.json').packages['node_modules/node'].version")
  if [ "$(node --version)" != "v$pinned" ]; then
    boot=".cache/node-$pinned"
    if [ ! -x "$boot/node_modules/.bin/node" ]; then
      echo "setup: Node $pinned for npm to run on"
      mkdir -p "$boot"
      printf '{ "private": true, "dependencies": { "node": "%s" }, "allowScripts": { "node": true } }\n' "$pinned" > "$boot/package.json"
      npm install --prefix "$boot" --no-package-lock --no-audit --no-fund --loglevel=error
    fi
    export PATH="$PWD/$boot/node_modules/.bin:$PATH"
  fi
  echo "setup: npm ci (Node $(node --version))"
  npm ci --no-audit --no-fund
fi
# npm ci writes node_modules/.bin/packet (the postinstall); a node_modules installed before it did gets it here.
sh scripts/link-bin.sh
echo "setup: done ($(node_modules/.bin/node --version), $(bwrap --version), python $(python3 -c 'import sys; print(sys.version.split()[0])'))"
