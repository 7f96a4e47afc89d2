#!/usr/bin/env bash
# Prepares the example implementations of examples/ for `chaoslua certify --impl cmd:...`.
# Idempotent: a second run does nothing.
#   examples/python-redis-py -> .venv with requirements.txt installed (again only when it changed)
#   examples/go-go-redis     -> chaoslua-go-example binary (rebuilt only when a source is newer)
#   examples/patterns/*      -> chaoslua packed into .tools/pack/chaoslua.tgz (again only when a
#                               packaged file changed), installed into each example as a team would
#   examples/third-party/*   -> each adapter's pinned library: npm ci (package-lock.json), a .venv
#                               (requirements.txt), go build (go.mod), mvn package (pom.xml); again only
#                               when its pins or sources changed
# Exit codes: 0 ready, 3 a toolchain is missing or a step failed (the message says which).
set -uo pipefail

QUIET=0
for arg in "$@"; do
  case "$arg" in
    --quiet) QUIET=1 ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bootstrap-examples: unknown option '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
say() { [ "$QUIET" = 1 ] || echo "bootstrap-examples: $*"; }
FAILED=0
fail() { echo "bootstrap-examples: $*" >&2; FAILED=1; }

# --- Python: redis-py in a venv --------------------------------------------------------
python_example() {
  local dir="$ROOT/examples/python-redis-py" venv="$ROOT/examples/python-redis-py/.venv"
  command -v python3 >/dev/null || { fail "python3 is missing: install Python >= 3.10 to run examples/python-redis-py"; return; }
  python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))' \
    || { fail "python3 is $(python3 -V 2>&1 | cut -d' ' -f2); examples/python-redis-py needs Python >= 3.10"; return; }
  # The stamp is a copy of the requirements last installed: any edit reinstalls.
  if [ -x "$venv/bin/python" ] && cmp -s "$dir/requirements.txt" "$venv/requirements.installed"; then
    say "python-redis-py: venv up to date"
    return
  fi
  say "python-redis-py: installing requirements.txt into examples/python-redis-py/.venv"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv" \
    || { fail "python3 -m venv failed (Debian: apt-get install python3-venv)"; return; }
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$dir/requirements.txt" \
    || { fail "pip install failed; run '$venv/bin/pip install -r $dir/requirements.txt' to see why"; return; }
  cp "$dir/requirements.txt" "$venv/requirements.installed"
}

# --- Go: go-redis binary ------------------------------------------------------------------
go_example() {
  local dir="$ROOT/examples/go-go-redis" bin="$ROOT/examples/go-go-redis/chaoslua-go-example" go
  go="$(command -v go || { [ -x /usr/local/go/bin/go ] && echo /usr/local/go/bin/go; })"
  [ -n "$go" ] || { fail "Go is missing: install Go >= 1.22 (https://go.dev/dl) to build examples/go-go-redis"; return; }
  # The Go kit (examples/kits/go) is part of the build: a change there rebuilds too.
  if [ -x "$bin" ] && [ -z "$(find "$dir" "$ROOT/examples/kits/go" -maxdepth 1 \( -name '*.go' -o -name go.mod -o -name go.sum \) -newer "$bin")" ]; then
    say "go-go-redis: binary up to date"
    return
  fi
  say "go-go-redis: building examples/go-go-redis/chaoslua-go-example"
  (cd "$dir" && "$go" build -buildvcs=false -o chaoslua-go-example .) \
    || { fail "go build failed; run 'cd $dir && go build .' to see why"; return; }
}

# --- Node: the third-party libraries, each pinned in its adapter's own package.json ---------------
third_party() {
  local dir
  for dir in "$ROOT"/examples/third-party/*/; do
    [ -f "$dir/package-lock.json" ] || continue
    local name; name="$(basename "$dir")"
    # The stamp is a copy of the lock file last installed: any edit reinstalls.
    if [ -d "$dir/node_modules" ] && cmp -s "$dir/package-lock.json" "$dir/node_modules/.lock.installed"; then
      say "third-party/$name: up to date"
      continue
    fi
    say "third-party/$name: npm ci"
    (cd "$dir" && npm ci --silent --no-audit --no-fund >/dev/null) \
      || { fail "npm ci failed in examples/third-party/$name; run it there to see why"; continue; }
    cp "$dir/package-lock.json" "$dir/node_modules/.lock.installed"
  done
}

# --- Python: each third-party adapter with a requirements.txt, in a .venv of its own ----------------
third_party_python() {
  local dir
  for dir in "$ROOT"/examples/third-party/*/; do
    [ -f "$dir/requirements.txt" ] || continue
    local name venv; name="$(basename "$dir")"; venv="$dir/.venv"
    if [ -x "$venv/bin/python" ] && cmp -s "$dir/requirements.txt" "$venv/requirements.installed"; then
      say "third-party/$name: venv up to date"
      continue
    fi
    say "third-party/$name: pip install -r requirements.txt"
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv" || { fail "python3 -m venv failed for examples/third-party/$name"; continue; }
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$dir/requirements.txt" \
      || { fail "pip install failed in examples/third-party/$name; run '$venv/bin/pip install -r requirements.txt' there"; continue; }
    cp "$dir/requirements.txt" "$venv/requirements.installed"
  done
}

# --- Go: each third-party adapter with a go.mod, built into an 'adapter' binary beside it ------------
third_party_go() {
  local dir go
  go="$(command -v go || { [ -x /usr/local/go/bin/go ] && echo /usr/local/go/bin/go; })"
  for dir in "$ROOT"/examples/third-party/*/; do
    [ -f "$dir/go.mod" ] || continue
    local name; name="$(basename "$dir")"
    [ -n "$go" ] || { fail "Go is missing: install Go >= 1.22 to build examples/third-party/$name"; continue; }
    if [ -x "$dir/adapter" ] && [ -z "$(find "$dir" "$ROOT/examples/kits/go" -maxdepth 1 \( -name '*.go' -o -name go.mod -o -name go.sum \) -newer "$dir/adapter")" ]; then
      say "third-party/$name: binary up to date"
      continue
    fi
    say "third-party/$name: go build"
    (cd "$dir" && "$go" build -buildvcs=false -o adapter .) \
      || { fail "go build failed in examples/third-party/$name; run 'go build .' there to see why"; continue; }
  done
}

# --- Java: the kit into the local Maven repository, then each adapter with a pom.xml into a jar ------
third_party_java() {
  local dir kit="$ROOT/examples/kits/java" stamp
  ls "$ROOT"/examples/third-party/*/pom.xml >/dev/null 2>&1 || return 0
  command -v mvn >/dev/null && command -v java >/dev/null \
    || { fail "Java 17 and Maven are missing: install them to build the Java adapters of examples/third-party"; return; }
  stamp="$kit/target/.installed"
  if [ ! -f "$stamp" ] || [ -n "$(find "$kit/pom.xml" "$kit/src" -newer "$stamp" -type f)" ]; then
    say "kits/java: mvn install"
    (cd "$kit" && mvn -q -B -Dstyle.color=never install >/dev/null) || { fail "mvn install failed in examples/kits/java; run it there to see why"; return; }
    touch "$stamp"
  fi
  for dir in "$ROOT"/examples/third-party/*/; do
    [ -f "$dir/pom.xml" ] || continue
    local name; name="$(basename "$dir")"
    if [ -f "$dir/target/adapters.jar" ] && [ -z "$(find "$dir/pom.xml" "$dir/src" "$stamp" -newer "$dir/target/adapters.jar" -type f)" ]; then
      say "third-party/$name: jar up to date"
      continue
    fi
    say "third-party/$name: mvn package"
    (cd "$dir" && mvn -q -B -Dstyle.color=never package >/dev/null) || { fail "mvn package failed in examples/third-party/$name; run it there to see why"; continue; }
  done
}

# --- The custom-pattern examples: chaoslua packed as npm publishes it, installed in each ------------
pattern_examples() {
  local pack="$ROOT/.tools/pack" tgz="$ROOT/.tools/pack/chaoslua.tgz" dir
  ls -d "$ROOT"/examples/patterns/*/ >/dev/null 2>&1 || return 0
  mkdir -p "$pack"
  # What the package holds (package.json "files" and the build's inputs): any newer file repacks.
  if [ ! -f "$tgz" ] || [ -n "$(find "$ROOT/src" "$ROOT/bin" "$ROOT/lua" "$ROOT/native" "$ROOT/scenarios" "$ROOT/scripts" "$ROOT/package.json" -newer "$tgz" -type f -print -quit)" ]; then
    say "patterns: npm pack into .tools/pack"
    local out
    out="$(cd "$ROOT" && npm pack --silent --pack-destination "$pack" 2>/dev/null | tail -1)" && [ -f "$pack/$out" ] \
      || { fail "npm pack failed; run 'npm pack' at $ROOT to see why"; return; }
    mv -f "$pack/$out" "$tgz"
  fi
  for dir in "$ROOT"/examples/patterns/*/; do
    [ -f "$dir/package.json" ] || continue
    local name; name="$(basename "$dir")"
    if [ -f "$dir/node_modules/.pack.installed" ] && cmp -s "$tgz" "$dir/node_modules/.pack.installed"; then
      say "patterns/$name: up to date"
      continue
    fi
    say "patterns/$name: npm install (the packed chaoslua)"
    (cd "$dir" && npm install --silent --no-audit --no-fund --no-package-lock >/dev/null) \
      || { fail "npm install failed in examples/patterns/$name; run it there to see why"; continue; }
    cp "$tgz" "$dir/node_modules/.pack.installed"
  done
}

python_example
go_example
pattern_examples
third_party
third_party_python
third_party_go
third_party_java
[ "$FAILED" = 0 ] || exit 3
