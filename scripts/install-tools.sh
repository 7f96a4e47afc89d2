#!/usr/bin/env bash
# Installs the two programs a local cluster needs, when missing; shipped in the package, so the
# bootstrap of a checkout and `chaoslua install` (or a certify that finds one missing) say the same.
#   --redis        redis-server >= 7: Debian's package (apt-get, as root or with sudo -n), else a line naming it
#   --toxiproxy    Toxiproxy server v2.12.0, built with `go install` into DIR
#   --into DIR     where the Toxiproxy server goes (default: .tools/bin beside this script's folder)
#   --quiet        say nothing unless something fails
# Neither --redis nor --toxiproxy: both. Progress goes to standard output, a failure to standard
# error as one line saying what to do. Exit codes: 0 ready, 2 usage, 3 something could not be installed.
set -uo pipefail

QUIET=0
REDIS=0
TOXIPROXY=0
INTO=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quiet) QUIET=1 ;;
    --redis) REDIS=1 ;;
    --toxiproxy) TOXIPROXY=1 ;;
    --into) INTO="${2:-}"; shift ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install-tools: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done
[ "$REDIS" = 1 ] || [ "$TOXIPROXY" = 1 ] || { REDIS=1; TOXIPROXY=1; }
[ -n "$INTO" ] || INTO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.tools/bin"

TOXIPROXY_VERSION="v2.12.0"
say() { [ "$QUIET" = 1 ] || echo "${SAY_AS:-chaoslua}: $*"; }
die() { echo "$*" >&2; exit 3; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo -n "$@"; else return 1; fi; }
apt_install() {
  # Install Debian packages; refresh the package lists once if the first attempt cannot find them.
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1 && return 0
  as_root apt-get update -qq >/dev/null 2>&1 || return 1
  as_root apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# --- redis-server >= 7 ---------------------------------------------------------------
redis_major() { redis-server --version 2>/dev/null | sed -n 's/.*v=\([0-9]*\)\..*/\1/p'; }
if [ "$REDIS" = 1 ]; then
  if ! command -v redis-server >/dev/null || [ "$(redis_major)" -lt 7 ] 2>/dev/null; then
    if command -v apt-get >/dev/null; then
      say "installing redis-server from Debian's packages"
      # The package's own service is not wanted: chaoslua starts its own servers on free ports.
      apt_install redis-server redis-tools || die "apt-get install redis-server failed (need root?); install redis-server >= 7 by hand, or set CHAOSLUA_REDIS_SERVER to one"
    else
      die "redis-server >= 7 is missing; install it (e.g. 'brew install redis' or your distribution's redis package) and re-run, or set CHAOSLUA_REDIS_SERVER to one"
    fi
  fi
  [ "$(redis_major)" -ge 7 ] 2>/dev/null || die "redis-server $(redis-server --version 2>&1 | head -c 60) is older than 7 or does not run; install Redis 7 or later"
  say "redis-server: $(redis-server --version | sed -n 's/.*v=\([0-9.]*\).*/\1/p')"
fi

# --- Toxiproxy server -------------------------------------------------------------------
# `go install` builds report version "git", so the version built is kept in a stamp file beside it.
if [ "$TOXIPROXY" = 1 ]; then
  if [ ! -x "$INTO/toxiproxy-server" ] || [ "$(cat "$INTO/toxiproxy-server.version" 2>/dev/null)" != "$TOXIPROXY_VERSION" ]; then
    go="$(command -v go || { [ -x /usr/local/go/bin/go ] && echo /usr/local/go/bin/go; })"
    [ -n "$go" ] || die "Go is missing: install Go >= 1.22 (https://go.dev/dl) to build the Toxiproxy server and re-run, or set CHAOSLUA_TOXIPROXY to a toxiproxy-server $TOXIPROXY_VERSION (https://github.com/Shopify/toxiproxy/releases)"
    say "building Toxiproxy server $TOXIPROXY_VERSION into $INTO"
    mkdir -p "$INTO" || die "cannot create $INTO; set CHAOSLUA_TOXIPROXY to a toxiproxy-server $TOXIPROXY_VERSION instead"
    GOBIN="$INTO" "$go" install "github.com/Shopify/toxiproxy/v2/cmd/server@$TOXIPROXY_VERSION" >/dev/null 2>&1 \
      || die "go install of the Toxiproxy server failed; run 'GOBIN=$INTO go install github.com/Shopify/toxiproxy/v2/cmd/server@$TOXIPROXY_VERSION' to see why"
    mv -f "$INTO/server" "$INTO/toxiproxy-server"
    echo "$TOXIPROXY_VERSION" > "$INTO/toxiproxy-server.version"
  fi
  say "toxiproxy-server: $TOXIPROXY_VERSION ($INTO/toxiproxy-server)"
fi
exit 0
