"""A chaoslua process-protocol implementation (docs/process-protocol.md) over redis-py's RedisCluster,
built on the Python kit (examples/kits/python): the kit speaks the protocol, dials through natMap,
keeps Redis's error codes (a BUSY refusal stays a refusal); this file only maps requests onto the
project's Lua scripts (store.py)."""

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "kits" / "python"))

from chaoslua_kit import Adapter, serve  # noqa: E402
from store import OPS, LuaStore  # noqa: E402


class ReferenceScripts(Adapter):
    name, version = "python-redis-py", "0.2.0"
    # Every pattern exactly as the reference scripts answer: nothing to declare.
    declares = {pattern: {} for pattern in OPS}

    def __init__(self, lua_dir: Path, mutant: str | None):
        self.lua_dir, self.mutant = lua_dir, mutant

    def open(self, pattern, cluster, hello):
        self.store = LuaStore(cluster, self.lua_dir, pattern, self.mutant)

    def call(self, op, key, args):
        return self.store.call(op, key, args)

    def close(self):
        self.store.r.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lua-dir", type=Path, default=HERE.parent.parent / "lua", help="the project's lua/ folder")
    parser.add_argument("--mutant", choices=["complete-skips-owner-check", "lease-by-client-clock"], help="inject a known bug (for testing the harness)")
    options = parser.parse_args()
    return serve(ReferenceScripts(options.lua_dir, options.mutant))


if __name__ == "__main__":
    sys.exit(main())
