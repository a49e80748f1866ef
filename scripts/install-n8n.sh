#!/usr/bin/env bash
# Installs the pinned n8n into a cache folder (never as a dependency of the package: it is ~1 GB).
# Prints the folder on stdout. Later runs reuse it and return in a moment.
# What is installed is exactly scripts/n8n-runtime/package-lock.json (every package pinned by its
# integrity hash), with `npm ci`. The cache is keyed by that lock's sha256: the folder is named
# after it (n8n-<version>-<first 16 hex digits>) and is ready when its `.ready` holds the whole
# hash, so a changed lock (a new n8n, a new override) installs into a new folder and never under
# an n8n another checkout runs. Runs at once (two suites, CI's background install and a test)
# wait for each other on a lock file. To regenerate the lock after editing
# scripts/n8n-runtime/package.json, in a temp folder holding a copy of it:
#   npm install --package-lock-only --ignore-scripts
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=node24.sh
source "$HERE/node24.sh"
RUNTIME="$HERE/n8n-runtime"
N8N_VERSION="$(node -p "require('$RUNTIME/package.json').dependencies.n8n")"
LOCK_SHA="$(sha256sum "$RUNTIME/package-lock.json" | cut -d' ' -f1)"
DIR="${N8N_HOME_DIR:-$ORCH_TOOLS/n8n-$N8N_VERSION-${LOCK_SHA:0:16}}"
# Ready: n8n is there and `.ready` holds the sha256 of the committed lock. An install made before
# `.ready` recorded it (an empty `.ready`) counts when its package-lock.json is that same lock: the
# hash is then written, nothing is installed again.
installed_from_lock() {
	[ -x "$DIR/node_modules/.bin/n8n" ] && [ -f "$DIR/.ready" ] || return 1
	local recorded
	recorded="$(cat "$DIR/.ready")"
	[ "$recorded" = "$LOCK_SHA" ] && return 0
	[ -z "$recorded" ] && cmp -s "$RUNTIME/package-lock.json" "$DIR/package-lock.json" && echo "$LOCK_SHA" >"$DIR/.ready"
}
if installed_from_lock; then
	echo "$DIR"
	exit 0
fi
mkdir -p "$ORCH_TOOLS"
exec 9>"$DIR.lock"
flock 9
if installed_from_lock; then
	echo "$DIR"
	exit 0
fi
# A folder of the unkeyed layout (n8n-<version>) installed from this same lock is taken as it is.
LEGACY="$ORCH_TOOLS/n8n-$N8N_VERSION"
if [ -z "${N8N_HOME_DIR:-}" ] && [ ! -e "$DIR" ] && [ -x "$LEGACY/node_modules/.bin/n8n" ] && [ "$(cat "$LEGACY/.ready" 2>/dev/null)" = "$LOCK_SHA" ]; then
	ln -s "$LEGACY" "$DIR"
	echo "$DIR"
	exit 0
fi
# A link to a folder that no longer holds this lock's install (a checkout of the old layout replaced it).
[ -L "$DIR" ] && rm "$DIR"
mkdir -p "$DIR"
cd "$DIR"
rm -f .ready
# linkedom 0.18.15 needs a package the registry lacks (the override in package.json pins 0.18.14);
# --ignore-scripts skips the optional Kafka native build that tries to download. sqlite3 is then
# built from source against Node 24 with the node-gyp of this install (never one fetched by npx).
cp "$RUNTIME/package.json" "$RUNTIME/package-lock.json" .
echo "installing n8n $N8N_VERSION from scripts/n8n-runtime/package-lock.json into $DIR (first run or changed lock; takes a few minutes)" >&2
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2
(cd node_modules/sqlite3 && ../.bin/node-gyp rebuild >&2)
node -e "require('$DIR/node_modules/sqlite3')" >&2
echo "$LOCK_SHA" >.ready
echo "$DIR"
