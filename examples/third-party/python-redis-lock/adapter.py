"""python-redis-lock 4.0.1's Lock as a chaoslua lock, over one redis-py RedisCluster (the kit's)."""
import sys
from importlib.metadata import version
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "kits" / "python"))
import redis_lock  # noqa: E402
from chaoslua_kit import Adapter, Refused, serve  # noqa: E402


def seconds(ms: int) -> int:
    # The library takes whole seconds (int(expire)); 0 would mean "never expires". Run with
    # --set lease=1000 --set lease2=2000: anything else is refused before any command.
    if ms <= 0 or ms % 1000:
        raise Refused(f"python-redis-lock counts whole seconds, not {ms} ms")
    return ms // 1000


class PythonRedisLock(Adapter):
    name, version = "python-redis-lock", version("python-redis-lock")
    declares = {"lock": {
        "capabilities": {"acquire": "boolean", "release": "boolean", "extend": "boolean"},
        # Lock(name) keeps lock:<name>, and release() signals waiters on lock-signal:<name>.
        "keys": ["lock:{key}", "lock-signal:{key}"],
    }}

    def open(self, pattern, cluster, hello):
        self.r = cluster

    def lock(self, key, token, ttl_ms=None):
        # id= is the documented way to act on a lock acquired elsewhere; strict=False because a
        # RedisCluster is not a StrictRedis (the constructor's own check).
        return redis_lock.Lock(self.r, key, expire=None if ttl_ms is None else seconds(ttl_ms), id=token, strict=False)

    def call(self, op, key, args):
        try:
            if op == "acquire":
                return self.lock(key, args["token"], args["ttlMs"]).acquire(blocking=False)
            if op == "release":
                self.lock(key, args["token"]).release()
            else:
                self.lock(key, args["token"]).extend(expire=seconds(args["ttlMs"]))
            return True
        except redis_lock.AlreadyAcquired as e:  # its GET found its own id: nothing written
            raise Refused(f"AlreadyAcquired: {e}")
        except redis_lock.NotAcquired:
            return False


if __name__ == "__main__":
    sys.exit(serve(PythonRedisLock()))
