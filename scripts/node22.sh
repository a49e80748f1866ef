#!/usr/bin/env bash
# Source this file: it makes Node 22 (pinned in scripts/node22/, the oldest line package.json's
# engines names) the `node` on PATH, as scripts/node24.sh does for Node 24.
ORCH_NODE_MAJOR=22
# shellcheck source=node24.sh
source "$(dirname "${BASH_SOURCE[0]}")/node24.sh"
