"""The Python kit's own tests (stdlib unittest; redis-py from the example's venv): error texts keep
Redis's codes, and the protocol loop answers refusals, give-backs, handles and computed keys as the
protocol says. Run: examples/python-redis-py/.venv/bin/python -m unittest discover examples/kits/python"""

import io
import json
import sys
import unittest
from unittest import mock

import redis
from redis._parsers.base import BaseParser

import chaoslua_kit as kit


class ErrorText(unittest.TestCase):
    def test_codes_redis_py_knows_are_put_back(self):
        e = BaseParser.parse_error("NOSCRIPT No matching script. Please use EVAL.")
        self.assertEqual(kit.error_text(e), "NOSCRIPT No matching script. Please use EVAL.")

    def test_codes_it_does_not_know_stay_first_busy_is_a_refusal(self):
        e = BaseParser.parse_error("BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.")
        self.assertFalse(getattr(e, "status_code", None))
        self.assertTrue(kit.error_text(e).startswith("BUSY Redis is busy"))

    def test_client_side_failures_are_indeterminate(self):
        self.assertEqual(kit.error_text(redis.exceptions.TimeoutError("Timeout reading from socket")), "client error: TimeoutError: Timeout reading from socket")


class Lock(kit.Adapter):
    name, version = "kit-test", "1.0"
    declares = {"lock": {"capabilities": {"acquire": {"level": "boolean", "handle": True, "givesBack": True}, "release": "boolean"}, "keys": {"computed": True}}}

    def open(self, pattern, cluster, hello):
        self.held = getattr(self, "held", {})  # kept across the conversations of one test

    def call(self, op, key, args):
        if op == "acquire" and args["token"] == "slow":
            return kit.gave_back()
        if op == "acquire":
            if key in self.held:
                raise kit.Refused("held (the library's own state)")
            self.held[key] = object()
            return kit.Handle(True, self.held[key])
        return args.get("handle") is self.held.pop(key, None)

    def keys(self, key):
        return [f"f#{key}", f"{key}:lock"]


def converse(adapter, *messages):
    hello = {"type": "hello", "protocol": kit.PROTOCOL_1, "versions": [kit.PROTOCOL_1, kit.PROTOCOL_1_1], "pattern": "lock", "seeds": [], "natMap": {}, "options": {"clients": 1}}
    stdin = io.StringIO("".join(json.dumps(m) + "\n" for m in (hello, *messages)))
    stdout = io.StringIO()
    with mock.patch.object(sys, "stdin", stdin), mock.patch.object(sys, "stdout", stdout):
        code = kit.serve(adapter, connect=lambda hello: None)
    return code, [json.loads(line) for line in stdout.getvalue().splitlines()]


def request(rid, op, key, **args):
    return {"type": "request", "id": rid, "client": 0, "op": op, "key": key, "args": args}


class Loop(unittest.TestCase):
    def test_hello_declares_and_requests_are_answered_as_the_protocol_says(self):
        code, out = converse(Lock(), request(1, "keys", "k"), request(2, "acquire", "k", token="a", ttlMs=1000))
        self.assertEqual(code, 0)
        self.assertEqual(out[0]["protocol"], kit.PROTOCOL_1_1)
        self.assertEqual(out[0]["keys"], {"computed": True})
        self.assertEqual(out[1], {"type": "response", "id": 1, "ok": True, "result": ["f#k", "k:lock"]})
        self.assertEqual(out[2]["result"]["answer"], True)
        self.assertIsInstance(out[2]["result"]["handle"], str)

    def test_refusals_give_backs_and_handles(self):
        adapter = Lock()
        hid = None

        def run(*messages):
            return sorted(converse(adapter, *messages)[1][1:], key=lambda m: m["id"])

        first = run(request(1, "acquire", "k", token="a", ttlMs=1000))
        hid = first[0]["result"]["handle"]
        out = run(request(2, "acquire", "k", token="b", ttlMs=1000), request(3, "acquire", "j", token="slow", ttlMs=1000))
        self.assertEqual(out[0], {"type": "response", "id": 2, "ok": False, "refused": True, "error": "held (the library's own state)"})
        self.assertEqual(out[1]["result"], {"answer": False, "gaveBack": True})
        # A handle id from another session is unknown here: the release gets None and answers false.
        self.assertEqual(run(request(4, "release", "k", token="a", handle=hid))[0]["result"], False)

    def test_an_unknown_pattern_is_refused(self):
        class Other(Lock):
            declares = {"semaphore": {}}

        code, out = converse(Other())
        self.assertEqual(code, 1)
        self.assertEqual(out[0]["type"], "refuse")


if __name__ == "__main__":
    unittest.main()
