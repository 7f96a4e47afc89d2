"""The chaoslua process protocol for Python adapters (docs/process-protocol.md), over redis-py.

A library's adapter is mapping only: it says which patterns it serves and what it declares, and maps
each request to the library's call. The kit does the rest: the hello (chaoslua-process/1.1 when the
adapter declares anything), a RedisCluster that dials through the harness's natMap and never resends,
one thread per request in flight, error texts that keep Redis's codes (so BUSY, NOSCRIPT, MOVED stay
refusals), refusals, calls given back, holder handles kept as live objects, computed key names.

    from chaoslua_kit import Adapter, Refused, gave_back, serve

    class Lock(Adapter):
        name, version = "my-lock", "1.0.0"
        declares = {"lock": {"capabilities": {"acquire": "boolean", "release": "boolean"}}}
        def open(self, pattern, cluster, hello): self.r = cluster
        def call(self, op, key, args): ...

    serve(Lock())
"""

from __future__ import annotations

import json
import sys
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

PROTOCOL_1 = "chaoslua-process/1"
PROTOCOL_1_1 = "chaoslua-process/1.1"


class Refused(Exception):
    """The library refused and wrote nothing: recorded as failed, certainly without effect. Raise it
    only when the library cannot have sent a write (it answered from its own state, or rejected an
    argument before any command)."""


def gave_back(answer: Any = False) -> dict:
    """The answer of an operation the library undid inside the same call (Redlock's validity rule);
    its capability must declare givesBack."""
    return {"answer": answer, "gaveBack": True}


class Handle:
    """An answer with a holder handle: any Python object (a library's Lock). The kit keeps the object
    and sends an id; later requests of the same holder receive the object back in args["handle"]."""

    def __init__(self, answer: Any, handle: Any):
        self.answer, self.handle = answer, handle


class Adapter:
    """One library's mapping. `declares`: pattern -> {"capabilities": ..., "keys": ...} (each optional;
    an empty dict serves the pattern exactly, as the reference scripts answer)."""

    name = "adapter"
    version = "0.0.0"
    declares: dict[str, dict] = {}

    def open(self, pattern: str, cluster: Any, hello: dict) -> None:
        """Build the library's objects; `cluster` is a ready redis-py RedisCluster (see redis_cluster)."""

    def call(self, op: str, key: str, args: dict) -> Any:
        """Run one operation; return its answer (JSON-able), a Handle, or gave_back(...); raise Refused."""
        raise NotImplementedError

    def keys(self, key: str) -> list[str]:
        """With keys {"computed": true}: the Redis keys the library keeps `key`'s state under."""
        raise NotImplementedError

    def close(self) -> None:
        pass


_out = threading.Lock()


def send(message: dict) -> None:
    line = json.dumps(message, separators=(",", ":"))
    with _out:  # one whole line at a time, from any thread
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def log(*parts: Any) -> None:
    print(*parts, file=sys.stderr, flush=True)


def error_text(e: BaseException) -> str:
    """The Redis error as the server sent it, code first: the harness reads the first word to tell
    "certainly did not run" (NOSCRIPT, BUSY, MOVED, ...) from "may have run". redis-py strips the
    codes it knows into status_code and leaves the others (BUSY among them) in the message, with
    status_code empty; both ways the code is put back in front. Anything not from the server gets
    a text no Redis error starts with: indeterminate."""
    import redis

    if isinstance(e, redis.exceptions.ResponseError):
        code = getattr(e, "status_code", None)
        return f"{code} {e}" if code else str(e)
    return f"client error: {type(e).__name__}: {e}"


def redis_cluster(hello: dict, **overrides: Any):
    """A RedisCluster for the harness's cluster: every announced address dialled through natMap,
    2 s socket timeouts (well under the request timeout), and no resend after a timeout or a cut
    connection (the command may already have run; running it twice is another history). MOVED,
    ASK and TRYAGAIN, which prove nothing ran, are still followed inside redis-py."""
    from redis.backoff import NoBackoff
    from redis.cluster import ClusterNode, RedisCluster
    from redis.retry import Retry

    nat = {k: (v["host"], v["port"]) for k, v in hello["natMap"].items()}
    clients = int(hello.get("options", {}).get("clients", 8))
    options = dict(
        startup_nodes=[ClusterNode(s["host"], s["port"]) for s in hello["seeds"]],
        address_remap=lambda addr: nat.get(f"{addr[0]}:{addr[1]}", addr),
        decode_responses=True,
        socket_timeout=2,
        socket_connect_timeout=1,
        max_connections=8 * clients,
        retry=Retry(NoBackoff(), 0),
    )
    options.update(overrides)
    return RedisCluster(**options)


class _Handles:
    """Live handle objects by the id sent for them."""

    def __init__(self):
        self._by_id: dict[str, Any] = {}
        self._lock = threading.Lock()

    def put(self, obj: Any) -> str:
        hid = uuid.uuid4().hex[:12]
        with self._lock:
            self._by_id[hid] = obj
        return hid

    def get(self, hid: Any) -> Any:
        with self._lock:
            return self._by_id.get(hid) if isinstance(hid, str) else None


def _respond(adapter: Adapter, handles: _Handles, request: dict) -> None:
    rid, op, key, args = request["id"], request["op"], request["key"], dict(request.get("args") or {})
    try:
        if op == "keys":
            send({"type": "response", "id": rid, "ok": True, "result": adapter.keys(key)})
            return
        if "handle" in args:
            args["handle"] = handles.get(args["handle"])
        result = adapter.call(op, key, args)
        if isinstance(result, Handle):
            result = {"answer": result.answer, "handle": None if result.handle is None else handles.put(result.handle)}
        send({"type": "response", "id": rid, "ok": True, "result": result})
    except Refused as e:
        send({"type": "response", "id": rid, "ok": False, "refused": True, "error": str(e) or "refused"})
    except Exception as e:  # every request gets exactly one answer, whatever happens
        send({"type": "response", "id": rid, "ok": False, "error": error_text(e)})


def _hello(adapter: Adapter, hello: dict, connect) -> bool:
    accepted = hello.get("versions") or [hello.get("protocol")]
    pattern = hello.get("pattern")
    if hello.get("type") != "hello" or PROTOCOL_1 not in accepted:
        send({"type": "refuse", "reason": f"{adapter.name} speaks {PROTOCOL_1}(.1), got {hello.get('protocol')!r}"})
        return False
    if pattern not in adapter.declares:
        send({"type": "refuse", "reason": f"{adapter.name} does not serve pattern {pattern!r} (it serves {', '.join(adapter.declares)})"})
        return False
    declared = {k: v for k, v in adapter.declares[pattern].items() if k in ("capabilities", "keys")}
    protocol = PROTOCOL_1_1 if declared and PROTOCOL_1_1 in accepted else PROTOCOL_1
    try:
        adapter.open(pattern, connect(hello), hello)
    except Exception as e:
        send({"type": "refuse", "reason": f"{adapter.name} could not start: {error_text(e)}"})
        return False
    send({"type": "hello", "protocol": protocol, "name": adapter.name, "version": adapter.version,
          "patterns": sorted(adapter.declares), **(declared if protocol == PROTOCOL_1_1 else {})})
    return True


def serve(adapter: Adapter, connect=redis_cluster) -> int:
    """Speak the protocol on stdin/stdout until shutdown or end of input; returns the exit code."""
    first = sys.stdin.readline()
    if not first:
        return 0
    hello = json.loads(first)
    if not _hello(adapter, hello, connect):
        return 1
    handles = _Handles()
    clients = int(hello.get("options", {}).get("clients", 8))
    # Leaving the with-block waits for requests still running, so each gets its answer.
    with ThreadPoolExecutor(max_workers=2 * clients) as pool:
        for line in sys.stdin:  # ends at EOF: the harness is gone or done
            message = json.loads(line)
            if message.get("type") == "request":
                pool.submit(_respond, adapter, handles, message)
            elif message.get("type") == "shutdown":
                break
    adapter.close()
    return 0
