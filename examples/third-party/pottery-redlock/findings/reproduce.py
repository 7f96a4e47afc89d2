"""pottery 3.0.1 alone (no chaoslua): Redlock.release() on a server that answers BUSY raises
ReleaseUnlockedLock, "not locked", while the lock is still held until its TTL.

Run from the adapter's venv, with redis-server on the PATH:
    ../.venv/bin/python reproduce.py
Exit 1 and a line REPRODUCED when release() said "not locked" while the key still holds this lock's
token; exit 0 when it did not.
"""
import sys
from pathlib import Path
import threading
import time

import redis

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "support"))
from redis_servers import standalone  # noqa: E402
from pottery import Redlock, ReleaseUnlockedLock

said_not_locked = still_held = False
port, stop = standalone("--busy-reply-threshold", "50")
try:
    r = redis.Redis(port=port, decode_responses=True)
    lock = Redlock(key="printer", masters={r}, auto_release_time=10)
    print("acquire():", lock.acquire(blocking=False))

    # Another client runs a script for about two seconds: past busy-reply-threshold the server
    # answers every other command BUSY (a real deployment sees this with any slow script).
    busy = threading.Thread(target=lambda: redis.Redis(port=port).eval("for i = 1, 200000000 do end return 1", 0))
    busy.start()
    # Wait until the server answers BUSY (the script is past the threshold) rather than for a fixed
    # time, which a loaded machine can outlast before the script has even started.
    probe = redis.Redis(port=port)
    for _ in range(200):
        try:
            probe.ping()
            time.sleep(0.02)
        except redis.exceptions.ResponseError as e:
            if str(e).startswith("BUSY"):
                break
            raise
    said_not_locked = False
    try:
        lock.release()
        print("release(): returned (released)")
    except ReleaseUnlockedLock as e:
        said_not_locked = True
        print("release(): raised", type(e).__name__, "(pottery: the lock was not held)")
    busy.join()
    pttl = r.pttl("redlock:printer")
    print("after the script: GET redlock:printer =", r.get("redlock:printer"), "PTTL =", pttl, "ms")
    still_held = lock.locked()
    print("lock.locked() =", still_held, "(seconds of validity left: still held)")
finally:
    stop()

if said_not_locked and still_held:
    print("REPRODUCED: release() raised ReleaseUnlockedLock while the lock stayed held until its TTL")
    sys.exit(1)
print("not reproduced: release() did not report an unheld lock that was still held")
