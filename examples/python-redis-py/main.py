"""A chaoslua-process/1 implementation (docs/process-protocol.md) over redis-py's RedisCluster.

stdin carries one JSON message per line from the harness, stdout one reply per line; logs go to
stderr. Requests run on a thread pool, so many are in flight at once and answers come back in
whatever order they finish."""

import argparse
import json
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import redis
from redis.backoff import NoBackoff
from redis.cluster import ClusterNode, RedisCluster
from redis.retry import Retry

from store import OPS, LuaStore

PROTOCOL = "chaoslua-process/1"
NAME, VERSION = "python-redis-py", "0.1.0"

_stdout_lock = threading.Lock()


def send(message: dict) -> None:
    line = json.dumps(message, separators=(",", ":"))
    with _stdout_lock:  # one whole line at a time, from any thread
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def error_text(e: Exception) -> str:
    """The Redis error as the server sent it ("NOSCRIPT No matching script..."): the harness reads
    its first word. redis-py strips that word off into status_code, so put it back. Client-side
    failures (timeouts, dropped connections) get a text no Redis error starts with: indeterminate."""
    code = getattr(e, "status_code", None)
    if isinstance(e, redis.exceptions.ResponseError) and code:
        return f"{code} {e}"
    return f"{type(e).__name__}: {e}"


def connect(hello: dict, clients: int) -> RedisCluster:
    nat = {k: (v["host"], v["port"]) for k, v in hello["natMap"].items()}
    return RedisCluster(
        startup_nodes=[ClusterNode(s["host"], s["port"]) for s in hello["seeds"]],
        # The cluster announces addresses clients cannot dial directly; natMap says where to go.
        address_remap=lambda addr: nat.get(f"{addr[0]}:{addr[1]}", addr),
        decode_responses=True,
        socket_timeout=2,
        socket_connect_timeout=1,
        max_connections=4 * clients,
        # No blind retry after a timeout or dropped connection: the script may already have run,
        # and running it twice is a different history. MOVED/ASK/TRYAGAIN (never ran) are still
        # followed inside redis-py.
        retry=Retry(NoBackoff(), 0),
    )


def handshake(hello: dict, mutant: str | None, lua_dir: Path):
    """The hello reply, or a refusal; returns (store, clients) when ready."""
    if hello.get("type") != "hello" or hello.get("protocol") != PROTOCOL:
        send({"type": "refuse", "reason": f"{NAME} speaks {PROTOCOL} only, got {hello.get('protocol')!r}"})
        return None
    pattern = hello["pattern"]
    if pattern not in OPS:
        send({"type": "refuse", "reason": f"{NAME} does not implement pattern {pattern!r}"})
        return None
    clients = int(hello.get("options", {}).get("clients", 8))
    store = LuaStore(connect(hello, clients), lua_dir, pattern, mutant)
    send({"type": "hello", "protocol": PROTOCOL, "name": NAME, "version": VERSION, "patterns": sorted(OPS)})
    return store, clients


def serve(store: LuaStore, request: dict) -> None:
    rid = request["id"]
    try:
        result = store.call(request["op"], request["key"], request["args"])
        send({"type": "response", "id": rid, "ok": True, "result": result})
    except Exception as e:  # every request gets exactly one answer, whatever happens
        send({"type": "response", "id": rid, "ok": False, "error": error_text(e)})


def main() -> int:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lua-dir", type=Path, default=here.parent.parent / "lua", help="the project's lua/ folder")
    parser.add_argument("--mutant", choices=["complete-skips-owner-check"], help="inject a known bug (for testing the harness)")
    options = parser.parse_args()

    first = sys.stdin.readline()
    if not first:
        return 0
    ready = handshake(json.loads(first), options.mutant, options.lua_dir)
    if ready is None:
        return 1
    store, clients = ready
    # Leaving the with-block waits for requests still running, so each gets its answer.
    with ThreadPoolExecutor(max_workers=clients) as pool:
        for line in sys.stdin:  # ends at EOF: the harness is gone or done
            message = json.loads(line)
            if message["type"] == "request":
                pool.submit(serve, store, message)
            elif message["type"] == "shutdown":
                break
    store.r.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
