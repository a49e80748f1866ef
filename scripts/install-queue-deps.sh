#!/usr/bin/env bash
# Postgres and Redis from Debian's packages, for the queue-mode suite and bench (test/e2e-queue,
# bench/trigger-queue.bench.ts). Does nothing when both are installed; needs root (CI runs as root).
exec bash "$(dirname "$0")/install-test-deps.sh" queue
