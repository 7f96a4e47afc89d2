"""pottery 3.0.1's Redlock as a chaoslua lock, over one redis-py RedisCluster (the kit's)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "kits" / "python"))
from chaoslua_kit import Adapter, Handle, Refused, gave_back, serve  # noqa: E402
from importlib.metadata import version  # noqa: E402
from pottery import ExtendUnlockedLock, Redlock, ReleaseUnlockedLock, TooManyExtensions  # noqa: E402


class PotteryRedlock(Adapter):
    name, version = "pottery-redlock", version("pottery")
    declares = {"lock": {
        # acquire() answers a bool and the Redlock object is the holder; every False follows pottery's
        # own release of the value it just tried (the validity rule), hence givesBack.
        "capabilities": {"acquire": {"level": "boolean", "handle": True, "givesBack": True}, "release": "boolean", "extend": "boolean"},
        "keys": ["redlock:{key}"],
    }}

    def open(self, pattern, cluster, hello):
        # One cluster client as the one "master": a Redis Cluster is one Redis deployment to pottery.
        self.masters = {cluster}

    def call(self, op, key, args):
        if op == "acquire":
            lock = Redlock(key=key, masters=self.masters, auto_release_time=args["ttlMs"] / 1000)
            return Handle(True, lock) if lock.acquire(blocking=False) else gave_back(False)
        lock = args.get("handle")
        if lock is None:  # this holder never acquired here: the library has no object to call
            raise Refused("no Redlock object for this holder")
        if op == "release":
            try:
                lock.release()
                return True
            except ReleaseUnlockedLock:
                return False
        # extend() renews by the object's auto_release_time: the extend's ttlMs is set there first.
        lock.auto_release_time = args["ttlMs"] / 1000
        try:
            lock.extend()
            return True
        except TooManyExtensions as e:  # counted on the object, before any command
            raise Refused(f"TooManyExtensions: {e}")
        except ExtendUnlockedLock:
            return False


if __name__ == "__main__":
    sys.exit(serve(PotteryRedlock()))
