#!/bin/sh
# Writes node_modules/.bin/packet, the command `npx packet` runs: packet-kit's own CLI.
#
# npm links the bins of a project's dependencies into node_modules/.bin, never the project's own.
# And `npx packet` in a project whose package.json declares a bin "packet" does not look there:
# it installs the project into npx's cache first and runs it from there, seconds on every call.
# So package.json declares no bin, and this script (its postinstall, run by every npm install and
# npm ci, and by scripts/setup.sh) puts one where npx looks first. Safe to run again.
set -eu
cd "$(dirname "$0")/.."
bin=node_modules/.bin
mkdir -p "$bin"
tmp="$bin/.packet.$$"
cat > "$tmp" <<'SHIM'
#!/bin/sh
# packet-kit's CLI, for `npx packet`; written by scripts/link-bin.sh (npm install, npm ci).
# The kit is found from this file's path read as written (cd follows it logically), so a
# node_modules that is a link into another checkout still runs this checkout's CLI; on the
# kit's pinned Node when it is installed.
root=$(CDPATH= cd -- "$(dirname -- "$0")/../.." && pwd)
node="$root/node_modules/.bin/node"
[ -x "$node" ] || node=node
exec "$node" "$root/src/cli/bin.js" "$@"
SHIM
chmod 755 "$tmp"
mv -f "$tmp" "$bin/packet"
