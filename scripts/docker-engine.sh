#!/usr/bin/env bash
# A private Docker engine for the compose backend, on a machine with no engine and no image registry:
# Debian's dockerd on a socket of its own, images built here from the packaged servers (no pull), and
# nothing left behind. It never touches the host's firewall or forwarding (no iptables rules, no NAT,
# no ip_forward), and its state lives in one folder that goes away with it.
#   install [engine|compose]  docker.io from Debian's packages when dockerd is missing (apt-get, as root),
#                  and the compose CLI plugin built from Go modules into .tools/docker/cli-plugins when
#                  missing (both unless one is named)
#   run [--] CMD   start an engine in a temp folder, build the images, run CMD with DOCKER_HOST,
#                  DOCKER_CONFIG, CHAOSLUA_REDIS_IMAGE and CHAOSLUA_TOXIPROXY_IMAGE set, then take it all
#                  down (also on Ctrl-C, SIGTERM, or if this script is killed: a watchdog does it); exits as CMD
# The parts `run` is made of, for a harness that owns the engine's lifetime itself:
#   daemon DIR     exec dockerd with its data, exec root, socket and cgroup under DIR (foreground)
#   images         build chaoslua-local/redis (valkey for a Valkey server) and chaoslua-local/toxiproxy on
#                  DOCKER_HOST from redis-server on PATH (or CHAOSLUA_REDIS_SERVER); prints their names
#   undo DIR       kill whatever the engine left (containers, shims), unmount, delete its bridges, remove DIR
#   env DIR        print the environment a client of the engine in DIR needs, NAME=value a line
# Exit codes: 0 done, 2 usage, 3 something could not be installed or started (one line says what).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SELF="$ROOT/scripts/docker-engine.sh"
# The compose plugin: a docker CLI plugin under a DOCKER_CONFIG of the project's own.
DOCKER_CONFIG_DIR="${CHAOSLUA_DOCKER_CONFIG:-$ROOT/.tools/docker}"
COMPOSE_MODULE="github.com/docker/compose/v5"
COMPOSE_VERSION="v5.6.0"
TOXIPROXY_BIN="${CHAOSLUA_TOXIPROXY:-$ROOT/.tools/bin/toxiproxy-server}"
REDIS_BIN="${CHAOSLUA_REDIS_SERVER:-$(command -v redis-server || true)}"
say() { [ "${QUIET:-0}" = 1 ] || echo "${SAY_AS:-docker-engine}: $*"; }
die() { echo "${SAY_AS:-docker-engine}: $*" >&2; exit 3; }
usage() { echo "docker-engine: $*" >&2; exit 2; }

# --- install -----------------------------------------------------------------------------------
install_engine() {
  local what="${1:-both}"
  [ "$what" = compose ] || install_dockerd
  [ "$what" = engine ] || install_compose
}

install_dockerd() {
  if ! command -v dockerd >/dev/null || ! command -v containerd >/dev/null; then
    [ "$(id -u)" = 0 ] || die "dockerd is missing and installing it needs root: apt-get install docker.io"
    command -v apt-get >/dev/null || die "dockerd is missing: install Docker Engine (Debian's docker.io, or docs.docker.com)"
    say "installing docker.io from Debian's packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq --no-install-recommends docker.io >/dev/null 2>&1 \
      || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq --no-install-recommends docker.io >/dev/null; } \
      || die "apt-get install docker.io failed; run it to see why"
  fi
  say "dockerd: $(dockerd --version | sed 's/,.*//')"
}

install_compose() {
  local plugin="$DOCKER_CONFIG_DIR/cli-plugins/docker-compose"
  if [ -x "$plugin" ] && [ "$(cat "$plugin.version" 2>/dev/null)" = "$COMPOSE_VERSION" ]; then
    say "compose plugin: $COMPOSE_VERSION ($plugin)"
    return 0
  fi
  command -v go >/dev/null || die "Go is missing: install Go >= 1.25 to build the Docker Compose plugin, or put a docker-compose >= 2.23.1 in $DOCKER_CONFIG_DIR/cli-plugins"
  say "building the Docker Compose plugin $COMPOSE_VERSION with Go (a few minutes the first time)"
  # The module's go.mod has exclude directives, which `go install pkg@version` refuses: build inside
  # the downloaded module instead (its go.sum pins every dependency).
  local dir
  dir="$(GOTOOLCHAIN=local go mod download -json "$COMPOSE_MODULE@$COMPOSE_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [ -n "$dir" ] || die "go mod download $COMPOSE_MODULE@$COMPOSE_VERSION failed; run it to see why"
  mkdir -p "$DOCKER_CONFIG_DIR/cli-plugins"
  (cd "$dir" && GOTOOLCHAIN=local GOFLAGS=-mod=readonly go build -trimpath \
    -ldflags "-s -w -X $COMPOSE_MODULE/internal.Version=$COMPOSE_VERSION" -o "$plugin.tmp" ./cmd) >/dev/null 2>&1 \
    || die "building the compose plugin failed; run 'cd $dir && go build ./cmd' to see why"
  mv -f "$plugin.tmp" "$plugin"
  echo "$COMPOSE_VERSION" > "$plugin.version"
  say "compose plugin: $("$plugin" version --short 2>/dev/null) ($plugin)"
}

# --- daemon ------------------------------------------------------------------------------------
run_daemon() {
  local dir="$1"
  mkdir -p "$dir/data" "$dir/exec"
  # --bridge=none: no docker0 (compose makes its own network); the four network flags leave the
  # host's firewall and sysctls alone. The cgroup parent names this engine's containers, so `undo`
  # can find and kill them even after dockerd and containerd are gone.
  exec dockerd --iptables=false --ip6tables=false --ip-forward=false --ip-masq=false --bridge=none \
    --data-root "$dir/data" --exec-root "$dir/exec" --pidfile "$dir/dockerd.pid" \
    -H "unix://$dir/docker.sock" --cgroup-parent "/$(cgroup_name "$dir")" \
    --log-level warn
}

cgroup_name() { local base; base="$(basename "$1")"; echo "chaoslua-docker-${base#chaoslua-docker-}"; }

# --- images ------------------------------------------------------------------------------------
# Copy each program and the shared libraries it loads (ldd) into a root folder, at the same paths.
pack() {
  local root="$1"; shift
  local f
  for f in "$@"; do
    cp -L --parents "$f" "$root/"
    ldd "$f" 2>/dev/null | awk '/=> \//{print $3} /^[[:space:]]*\/[^ ]*ld-linux/{print $1}' | while read -r lib; do
      [ -e "$root$lib" ] || cp -L --parents "$lib" "$root/"
    done
  done
}

build_images() {
  [ -n "${DOCKER_HOST:-}" ] || usage "images: DOCKER_HOST must point at the engine"
  [ -x "$REDIS_BIN" ] || die "redis-server is missing: run scripts/bootstrap.sh"
  [ -x "$TOXIPROXY_BIN" ] || die "toxiproxy-server is missing: run scripts/bootstrap.sh"
  local redis_version redis_name toxiproxy_version tmp
  redis_version="$("$REDIS_BIN" --version | sed -n 's/.* v=\([0-9.]*\) .*/\1/p')"
  # "Redis server v=..." or "Valkey server v=...": the image is named after what it runs.
  redis_name="$("$REDIS_BIN" --version | awk '{print tolower($1)}')"
  toxiproxy_version="$(cat "$TOXIPROXY_BIN.version" 2>/dev/null || echo v0)"
  local redis_image="chaoslua-local/$redis_name:$redis_version" toxi_image="chaoslua-local/toxiproxy:${toxiproxy_version#v}"
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' RETURN
  # Redis: what the compose file's commands use (sh, getent, awk, sleep, redis-cli) and an entrypoint
  # of the official image's name that runs its arguments, in /data as the official image does.
  mkdir -p "$tmp/redis/data" "$tmp/redis/tmp" "$tmp/redis/etc" "$tmp/redis/usr/local/bin"
  pack "$tmp/redis" /bin/sh /usr/bin/getent /bin/sleep "$(readlink -f /usr/bin/awk)" "$(readlink -f "$REDIS_BIN")" "$(command -v redis-cli)"
  [ -e "$tmp/redis/usr/bin/awk" ] || ln -s "$(basename "$(readlink -f /usr/bin/awk)")" "$tmp/redis/usr/bin/awk"
  # Under the name the compose file runs, pointing at the binary's own path (a library it finds beside
  # itself, $ORIGIN, is then found in the image too).
  [ "$(readlink -f "$REDIS_BIN")" = /usr/bin/redis-server ] || ln -sf "$(readlink -f "$REDIS_BIN")" "$tmp/redis/usr/bin/redis-server"
  echo 'hosts: files dns' > "$tmp/redis/etc/nsswitch.conf"
  printf '#!/bin/sh\nexec "$@"\n' > "$tmp/redis/usr/local/bin/docker-entrypoint.sh"
  chmod 755 "$tmp/redis/usr/local/bin/docker-entrypoint.sh"
  chmod 1777 "$tmp/redis/tmp"
  tar -C "$tmp/redis" -c . | docker import \
    --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' --change 'WORKDIR /data' --change 'CMD ["redis-server"]' \
    --message "redis-server $redis_version from $REDIS_BIN" - "$redis_image" >/dev/null \
    || die "docker import of $redis_image failed"
  # Toxiproxy: the binary at the path the official image has it, as its entrypoint.
  mkdir -p "$tmp/toxi"
  pack "$tmp/toxi" "$TOXIPROXY_BIN"
  cp -L "$TOXIPROXY_BIN" "$tmp/toxi/toxiproxy"
  rm -rf "$tmp/toxi${TOXIPROXY_BIN%/*}"
  tar -C "$tmp/toxi" -c . | docker import \
    --change 'ENTRYPOINT ["/toxiproxy"]' --change 'CMD ["-host=0.0.0.0"]' \
    --message "toxiproxy-server $toxiproxy_version from $TOXIPROXY_BIN" - "$toxi_image" >/dev/null \
    || die "docker import of $toxi_image failed"
  echo "CHAOSLUA_REDIS_IMAGE=$redis_image"
  echo "CHAOSLUA_TOXIPROXY_IMAGE=$toxi_image"
}

# --- undo --------------------------------------------------------------------------------------
undo() {
  local dir="$1" cg pid mnt
  [ -n "$dir" ] && [ "$dir" != / ] || usage "undo needs the engine's folder"
  cg="$(cgroup_name "$dir")"
  [ ! -s "$dir/cmd.pgid" ] || kill -KILL -- "-$(cat "$dir/cmd.pgid")" 2>/dev/null || true
  # dockerd and containerd (the harness kills them first; again here for a direct call), then the
  # shims, whose command lines name the folder, then every process left in the engine's cgroups.
  for pid in $(cat "$dir/dockerd.pid" "$dir/exec/containerd/containerd.pid" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null || true; done
  for pid in $(grep -l -F -- "$dir/" /proc/[0-9]*/cmdline 2>/dev/null | cut -d/ -f3); do
    [ "$pid" = $$ ] || kill -KILL "$pid" 2>/dev/null || true
  done
  # cgroup v1 has a tree per controller (/sys/fs/cgroup/pids/...), v2 one tree (/sys/fs/cgroup/...).
  for pid in $(cat /sys/fs/cgroup/"$cg"/*/cgroup.procs /sys/fs/cgroup/*/"$cg"/*/cgroup.procs /sys/fs/cgroup/*/"$cg"/cgroup.procs 2>/dev/null | sort -u); do
    kill -KILL "$pid" 2>/dev/null || true
  done
  # The bridges of the engine's networks (br- and the network id's first 12 digits), which outlive a
  # dockerd killed outright: their names are in its network store.
  for link in $(grep -aoE 'br-[0-9a-f]{12}' "$dir/data/network/files/local-kv.db" 2>/dev/null | sort -u); do
    ip link delete "$link" 2>/dev/null || true
  done
  # Mounts under the folder (overlays, shm, network namespaces, the data root itself), deepest first.
  for _ in 1 2 3; do
    for mnt in $(awk -v d="$dir" '$5 == d || index($5, d "/") == 1 {print $5}' /proc/self/mountinfo | sort -r); do
      umount -l "$mnt" 2>/dev/null || true
    done
  done
  # A cgroup goes once its killed processes have exited (SIGKILL is delivered, not awaited): 2 s at most.
  local tries=0
  while [ "$tries" -lt 20 ]; do
    for c in /sys/fs/cgroup/"$cg" /sys/fs/cgroup/*/"$cg"; do
      [ ! -d "$c" ] || find "$c" -depth -type d -exec rmdir {} + 2>/dev/null || true
    done
    ls -d /sys/fs/cgroup/"$cg" /sys/fs/cgroup/*/"$cg" >/dev/null 2>&1 || break
    tries=$((tries + 1))
    sleep 0.1
  done
  rm -rf "$dir"
}

engine_env() {
  local dir="$1"
  echo "DOCKER_HOST=unix://$dir/docker.sock"
  echo "DOCKER_CONFIG=$DOCKER_CONFIG_DIR"
  # testcontainers, in a machine that is itself a container (/.dockerenv), looks for the engine's
  # default bridge network (none here) to find the host: the ports are published on 127.0.0.1. Its
  # reaper container (Ryuk) would be pulled from a registry; this engine's teardown is the reaper.
  echo "TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1"
  echo "TESTCONTAINERS_RYUK_DISABLED=true"
}

# --- run ---------------------------------------------------------------------------------------
stop_cmd() {
  kill -TERM "$CMD_PID" 2>/dev/null || true
  wait "$CMD_PID" 2>/dev/null || true
  exit "$1"
}

run_with_engine() {
  [ $# -gt 0 ] || usage "run needs a command, e.g. run -- npx chaoslua certify --cluster compose"
  command -v dockerd >/dev/null && [ -x "$DOCKER_CONFIG_DIR/cli-plugins/docker-compose" ] \
    || die "the engine or the compose plugin is missing: run scripts/bootstrap.sh --docker"
  local dir
  dir="$(mktemp -d "${CHAOSLUA_TMPDIR:-/tmp}/chaoslua-docker-XXXXXX")"
  # A watchdog takes the engine down if this script is killed outright (no trap runs then).
  setsid sh -c 'while kill -0 "$1" 2>/dev/null && [ -d "$2" ]; do sleep 0.2; done; [ -d "$2" ] && bash "$3" undo "$2"' \
    docker-engine-watchdog "$$" "$dir" "$SELF" </dev/null >/dev/null 2>&1 &
  trap 'undo "$dir"' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  trap 'exit 129' HUP
  setpriv --pdeathsig SIGKILL -- bash "$SELF" daemon "$dir" >"$dir/dockerd.log" 2>&1 &
  disown
  local i=0
  until DOCKER_HOST="unix://$dir/docker.sock" docker version >/dev/null 2>&1; do
    i=$((i + 1))
    [ "$i" -lt 150 ] || die "dockerd did not answer within 30 s: $(tail -n 3 "$dir/dockerd.log" | tr '\n' ' ')"
    sleep 0.2
  done
  while IFS= read -r line; do export "${line?}"; done < <(engine_env "$dir")
  local images
  images="$(build_images)" || exit 3
  while IFS= read -r line; do export "${line?}"; done <<<"$images"
  say "engine at $DOCKER_HOST; images $CHAOSLUA_REDIS_IMAGE, $CHAOSLUA_TOXIPROXY_IMAGE"
  # CMD in the background so that a signal reaches this script at once and is passed on (as SIGTERM:
  # a background job of a script ignores SIGINT). In a process group of its own, which `undo` kills
  # whole: whatever CMD started and left running goes with the engine, even if this script is killed.
  setsid setpriv --pdeathsig SIGKILL -- "$@" &
  CMD_PID=$!
  echo "$CMD_PID" > "$dir/cmd.pgid"
  trap 'stop_cmd 130' INT
  trap 'stop_cmd 143' TERM
  trap 'stop_cmd 129' HUP
  local code=0
  wait "$CMD_PID" || code=$?
  exit "$code"
}

case "${1:-}" in
  install)
    case "${2:-both}" in engine|compose|both) install_engine "${2:-both}" ;; *) usage "install takes engine or compose, not '$2'" ;; esac ;;
  daemon) [ -n "${2:-}" ] || usage "daemon needs a folder"; run_daemon "$2" ;;
  images) build_images ;;
  undo) undo "${2:-}" ;;
  env) [ -n "${2:-}" ] || usage "env needs a folder"; engine_env "$2" ;;
  run) shift; [ "${1:-}" != -- ] || shift; run_with_engine "$@" ;;
  -h|--help|"") sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; [ -n "${1:-}" ] || exit 2 ;;
  *) usage "unknown command '$1' (try --help)" ;;
esac
