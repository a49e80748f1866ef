#!/usr/bin/env bash
# Postgres and Redis from Debian's packages, for the queue-mode suite and bench (test/e2e-queue,
# bench/trigger-queue.bench.ts). Does nothing when both are installed; needs root (CI runs as root).
set -euo pipefail
have_pg() { ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; }
have_redis() { command -v redis-server >/dev/null 2>&1; }
if have_pg && have_redis; then exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
	echo "queue-mode tests need PostgreSQL and Redis: run as root on Debian/Ubuntu, or install them with" >&2
	echo "  apt-get install -y --no-install-recommends postgresql redis-server" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2 || { echo "apt-get update failed: cannot install postgresql and redis-server" >&2; exit 1; }
apt-get install -y -q --no-install-recommends postgresql redis-server >&2 \
	|| { echo "apt-get install postgresql redis-server failed" >&2; exit 1; }
# Debian starts a cluster and a redis service of its own; the suite starts private ones on free ports.
have_pg && have_redis || { echo "postgresql/redis-server installed but binaries not found" >&2; exit 1; }
