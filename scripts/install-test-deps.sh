#!/usr/bin/env bash
# Debian's packages the suites beyond jest's own need: PostgreSQL and Redis for the queue-mode and
# fault suites (and bench/trigger-queue), Chromium for the browser suite (/usr/bin/chromium, driven
# by playwright-core). Installs only what is missing, in one apt-get run; does nothing when all is
# there. Needs root or password-less sudo (CI runs as root).
#   install-test-deps.sh [queue] [browser]     both when none is named
set -euo pipefail
want_queue=0 want_browser=0
[ $# -eq 0 ] && set -- queue browser
for what in "$@"; do
	case "$what" in
	queue) want_queue=1 ;;
	browser) want_browser=1 ;;
	*) echo "install-test-deps.sh: unknown suite '$what' (queue or browser)" >&2; exit 2 ;;
	esac
done
have_pg() { ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; }
have_redis() { command -v redis-server >/dev/null 2>&1; }
have_chromium() { [ -x /usr/bin/chromium ]; }
missing=()
if [ $want_queue = 1 ]; then
	have_pg || missing+=(postgresql)
	have_redis || missing+=(redis-server)
fi
if [ $want_browser = 1 ]; then
	have_chromium || missing+=(chromium)
fi
[ ${#missing[@]} -eq 0 ] && exit 0
as_root=()
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then as_root=(sudo -n); else as_root=(false); fi
fi
if ! command -v apt-get >/dev/null || [ "${as_root[0]:-}" = false ]; then
	echo "these suites need ${missing[*]}: run as root (or with password-less sudo) on Debian/Ubuntu, or install them with" >&2
	echo "  apt-get install -y --no-install-recommends ${missing[*]}" >&2
	exit 1
fi
echo "installing ${missing[*]} from Debian's packages" >&2
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 ||
	{ echo "apt-get update failed: cannot install ${missing[*]}" >&2; exit 1; }
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2 ||
	{ echo "apt-get install ${missing[*]} failed" >&2; exit 1; }
# Debian starts a cluster and a redis service of its own; the suites start private ones on free ports.
if [ $want_queue = 1 ] && ! { have_pg && have_redis; }; then echo "postgresql/redis-server installed but binaries not found" >&2; exit 1; fi
if [ $want_browser = 1 ] && ! have_chromium; then echo "chromium installed but /usr/bin/chromium not found" >&2; exit 1; fi
