#!/usr/bin/env bash
# Installs the pinned n8n into a cache folder (never as a dependency of the package: it is ~1 GB).
# Prints the folder on stdout. Later runs reuse it and return in a moment.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=node24.sh
source "$HERE/node24.sh"
N8N_VERSION="${N8N_VERSION:-2.41.1}"
DIR="${N8N_HOME_DIR:-$ORCH_TOOLS/n8n-$N8N_VERSION}"
if [ -f "$DIR/.ready" ] && [ -x "$DIR/node_modules/.bin/n8n" ]; then
	echo "$DIR"
	exit 0
fi
mkdir -p "$DIR"
cd "$DIR"
# linkedom 0.18.15 needs a package the registry lacks; --ignore-scripts skips the optional Kafka
# native build that tries to download. sqlite3 is then built from source against Node 24 with the
# node-gyp of this install (never one fetched by npx).
cat > package.json <<JSON
{
  "name": "n8n-runtime",
  "private": true,
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": { "linkedom": "0.18.14" }
}
JSON
echo "installing n8n $N8N_VERSION into $DIR (first run only; takes a few minutes)" >&2
npm install --ignore-scripts --no-audit --no-fund --loglevel=error >&2
(cd node_modules/sqlite3 && ../.bin/node-gyp rebuild >&2)
node -e "require('$DIR/node_modules/sqlite3')" >&2
touch .ready
echo "$DIR"
