"""aws-lambda-powertools 3.37.0 idempotency on Redis, alone (no chaoslua): a handler that outlives its
in-progress expiry still stores its result with save_success(), an unconditional SET, over the record of
the request that took the key over while that request is still running.

Run from the adapter's venv, with redis-server on the PATH:
    ../.venv/bin/python reproduce.py
Exit 1 and a line REPRODUCED when a reader saw A's result stored while B still ran; exit 0 when not.
"""
import sys
from pathlib import Path
import time

import redis

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "support"))
from redis_servers import standalone  # noqa: E402
from aws_lambda_powertools.utilities.idempotency import IdempotencyConfig
from aws_lambda_powertools.utilities.idempotency.persistence.redis import RedisCachePersistenceLayer

seen = (None, None)
port, stop = standalone()
try:
    client = redis.Redis(port=port, decode_responses=True)

    def layer():  # each Lambda invocation builds its own, as a cold start would
        p = RedisCachePersistenceLayer(client=client)
        p.configure(IdempotencyConfig(event_key_jmespath="order", expires_after_seconds=60), function_name="charge")
        return p

    event = {"order": "o-1"}
    a, b, c = layer(), layer(), layer()
    a.save_inprogress(event, remaining_time_in_millis=200)  # request A: 200 ms of Lambda time left
    print("A: in progress")
    time.sleep(0.3)                                          # A outlives it (a slow downstream call)
    b.save_inprogress(event, remaining_time_in_millis=60_000)
    print("B: in progress (took over A's expired record)")
    a.save_success(event, {"charged_by": "A"})               # A finishes anyway
    print("A: save_success returned")
    record = c.get_record(event)
    seen = (record.status, record.response_json_as_dict())
    print("C, while B still runs, reads:", *seen)
    b.save_success(event, {"charged_by": "B"})
    print("B: save_success returned; now:", c.get_record(event).response_json_as_dict())
finally:
    stop()

if seen[0] == "COMPLETED" and seen[1] == {"charged_by": "A"}:
    print("REPRODUCED: A's save_success overwrote the record of B, which was still in progress")
    sys.exit(1)
print("not reproduced: C did not read A's result while B ran")
