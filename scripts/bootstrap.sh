#!/usr/bin/env bash
# Installs what chaoslua needs and is missing, and nothing else. Idempotent: a second run is a no-op.
#   npm dependencies            -> node_modules (npm ci from the lockfile)
#   redis-server >= 7           -> Debian's package when absent (apt-get), else a message naming it
#   Toxiproxy server v2.12.0    -> .tools/bin/toxiproxy-server, built with `go install`
#   Chromium (report tests)     -> Debian's package when absent (skipped with --no-browser)
#   nftables, iproute2 (netns)  -> Debian's packages when absent and root (else the netns tests skip)
#   example implementations     -> Python venv and Go binary (scripts/bootstrap-examples.sh; skipped with --no-examples)
# Exit codes: 0 ready, 3 something could not be installed (the message says what and how).
set -euo pipefail

QUIET=0
BROWSER=1
EXAMPLES=1
for arg in "$@"; do
  case "$arg" in
    --quiet) QUIET=1 ;;
    --no-browser) BROWSER=0 ;;
    --no-examples) EXAMPLES=0 ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bootstrap: unknown option '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools/bin"
TOXIPROXY_VERSION="v2.12.0"
say() { [ "$QUIET" = 1 ] || echo "bootstrap: $*"; }
die() { echo "bootstrap: $*" >&2; exit 3; }
apt_install() {
  # Install Debian packages; refresh the package lists once if the first attempt cannot find them.
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1 && return 0
  as_root apt-get update -qq >/dev/null 2>&1 || return 1
  as_root apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo -n "$@"; else return 1; fi; }

# --- Toxiproxy server -------------------------------------------------------------------
# `go install` builds report version "git", so the version built is kept in a stamp file beside it.
# Built in the background while npm ci runs (one compiles, the other mostly downloads).
toxiproxy_missing() { [ ! -x "$TOOLS/toxiproxy-server" ] || [ "$(cat "$TOOLS/toxiproxy-server.version" 2>/dev/null)" != "$TOXIPROXY_VERSION" ]; }
build_toxiproxy() {
  command -v go >/dev/null || [ -x /usr/local/go/bin/go ] || { echo "bootstrap: Go is missing: install Go >= 1.22 (https://go.dev/dl) to build the Toxiproxy server, then re-run" >&2; return 3; }
  local go
  go="$(command -v go || echo /usr/local/go/bin/go)"
  mkdir -p "$TOOLS"
  GOBIN="$TOOLS" "$go" install "github.com/Shopify/toxiproxy/v2/cmd/server@$TOXIPROXY_VERSION" \
    || { echo "bootstrap: go install of the Toxiproxy server failed" >&2; return 3; }
  mv -f "$TOOLS/server" "$TOOLS/toxiproxy-server"
  echo "$TOXIPROXY_VERSION" > "$TOOLS/toxiproxy-server.version"
}
TOXIPROXY_BUILD=""
if toxiproxy_missing; then
  say "building Toxiproxy server $TOXIPROXY_VERSION into .tools/bin (in the background)"
  build_toxiproxy &
  TOXIPROXY_BUILD=$!
fi

# --- npm dependencies -------------------------------------------------------------
cd "$ROOT"
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error >/dev/null || die "npm ci failed; run 'npm ci' to see why"
else
  say "npm dependencies: present"
fi

# --- redis-server >= 7 ---------------------------------------------------------------
redis_major() { redis-server --version 2>/dev/null | sed -n 's/.*v=\([0-9]*\)\..*/\1/p'; }
if ! command -v redis-server >/dev/null || [ "$(redis_major)" -lt 7 ] 2>/dev/null; then
  if command -v apt-get >/dev/null; then
    say "installing redis-server from Debian's packages"
    # The package's own service is not wanted: chaoslua starts its own servers on free ports.
    apt_install redis-server redis-tools || die "apt-get install redis-server failed (need root?); install redis-server >= 7 by hand"
  else
    die "redis-server >= 7 is missing; install it (e.g. 'brew install redis' or your distribution's redis package) and re-run"
  fi
fi
[ "$(redis_major)" -ge 7 ] || die "redis-server $(redis-server --version | head -c 60) is older than 7; install Redis 7 or later"
say "redis-server: $(redis-server --version | sed -n 's/.*v=\([0-9.]*\).*/\1/p')"

# --- nft and ip, for --cluster netns (optional: its tests skip with the reason without them) ---
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null && ! { command -v nft && command -v ip && command -v tc; } >/dev/null 2>&1; then
  say "installing nftables and iproute2 (--cluster netns)"
  apt_install nftables iproute2 || say "nftables/iproute2 not installed: the netns backend's tests will skip"
fi

# --- Toxiproxy server: the background build done ---------------------------------------
if [ -n "$TOXIPROXY_BUILD" ]; then wait "$TOXIPROXY_BUILD" || exit 3; fi
say "toxiproxy-server: $TOXIPROXY_VERSION ($TOOLS/toxiproxy-server)"

# --- Chromium, for the report page tests -----------------------------------------------
if [ "$BROWSER" = 1 ] && [ ! -x /usr/bin/chromium ] && [ -z "${CHAOSLUA_CHROMIUM:-}" ]; then
  if command -v apt-get >/dev/null; then
    say "installing chromium from Debian's packages (report page tests)"
    apt_install chromium || die "apt-get install chromium failed; install Chromium and set CHAOSLUA_CHROMIUM to its path"
  else
    die "Chromium is missing: install it and set CHAOSLUA_CHROMIUM to its path, or pass --no-browser"
  fi
fi

# --- example implementations in other languages ----------------------------------------
if [ "$EXAMPLES" = 1 ] && [ -f "$ROOT/scripts/bootstrap-examples.sh" ]; then
  QUIET="$QUIET" bash "$ROOT/scripts/bootstrap-examples.sh" || exit $?
fi
