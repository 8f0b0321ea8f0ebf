#!/usr/bin/env bash
# Installs everything packet-kit needs on a fresh Debian machine: the sandbox (bubblewrap),
# a browser for the end-to-end tests (Debian's chromium), Python for the packets' tests,
# and the npm dependencies (which pin Node 24). Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
[ -x /usr/lib/chromium/chromium ] || need+=(chromium)
command -v python3 >/dev/null 2>&1 || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  echo "setup: installing ${need[*]} from Debian's packages"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

if [ ! -x node_modules/.bin/node ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund
fi
echo "setup: done ($(node_modules/.bin/node --version), $(bwrap --version), python $(python3 -c 'import sys; print(sys.version.split()[0])'))"
