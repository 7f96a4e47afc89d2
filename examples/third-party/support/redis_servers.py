"""A throwaway standalone redis-server for a finding's reproduction in Python: on a free loopback port,
in a temp folder, ready only when the server answering is our own child (its process_id), since
another program may take the port between the probe and the bind. Plain redis-py and the
redis-server on the PATH: a reproduction uses the library alone, nothing of chaoslua.
"""
import shutil
import socket
import subprocess
import tempfile
import time

import redis


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ready(port, server):
    probe = redis.Redis(port=port)
    for _ in range(200):
        if server.poll() is not None:
            return False
        try:
            if probe.info("server").get("process_id") == server.pid:
                return True
        except redis.ConnectionError:
            pass
        time.sleep(0.05)
    return False


def standalone(*extra_args):
    """Start one redis-server; returns (port, stop). A taken port is retried on a new one, 5 times."""
    workdir = tempfile.mkdtemp(prefix="repro-redis-")
    for _ in range(5):
        port = _free_port()
        server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                   "--appendonly", "no", "--dir", workdir, *extra_args], stdout=subprocess.DEVNULL)
        if _ready(port, server):
            def stop(server=server):
                server.terminate()
                server.wait()
                shutil.rmtree(workdir, ignore_errors=True)
            return port, stop
        server.kill()
        server.wait()
    shutil.rmtree(workdir, ignore_errors=True)
    raise RuntimeError("environment: redis-server did not start on a free port in 5 attempts")
