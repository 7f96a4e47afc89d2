"""The Lua state machines behind one small store class, as seed 000 step 4 shapes it:
scripts loaded once, called by SHA, reloaded after NOSCRIPT and retried exactly once."""

import time
from pathlib import Path

import redis
from redis.cluster import RedisCluster

# op -> (script file, argument names in ARGV order), per pattern; KEYS[1] is always the key.
OPS = {
    "idempotency": {
        "register": ("register_or_get", ("fingerprint", "owner", "leaseMs")),
        "complete": ("complete", ("owner", "status", "body", "ttlMs")),
        "release": ("release", ("owner",)),
        "renew": ("renew", ("owner", "leaseMs")),
    },
    "lock": {
        "acquire": ("acquire", ("token", "ttlMs")),
        "release": ("remove_if_matches", ("token",)),
        "extend": ("extend_if_matches", ("token", "ttlMs")),
    },
    "ratelimit": {
        "hit": ("fixed_window", ("limit", "windowSeconds")),
    },
}


# --mutant lease-by-client-clock: the lease's end kept on the caller's clock (time.time()). With one
# clock it is the reference; when clients' clocks disagree, a caller whose clock is ahead takes over
# a lease that has not ended, and two owners run the request (chaoslua's client-clock fault finds it).
CLIENT_LEASE_SCRIPTS = {
    "register": ("register_client_lease", """
-- KEYS[1] = the record; ARGV = fingerprint, owner, lease ms, the caller's now (ms)
local now = tonumber(ARGV[4])
local leaseMs = tonumber(ARGV[3])
local state = redis.call('HGET', KEYS[1], 'state')
if state then
  local leaseEnd = tonumber(redis.call('HGET', KEYS[1], 'leaseEnd') or '0')
  if state ~= 'pending' or leaseEnd > now then
    local f = redis.call('HMGET', KEYS[1], 'state', 'fingerprint', 'status', 'body')
    return {'hit', f[1] or '', f[2] or '', f[3] or '', f[4] or ''}
  end
  redis.call('DEL', KEYS[1])
end
redis.call('HSET', KEYS[1], 'state', 'pending', 'fingerprint', ARGV[1], 'owner', ARGV[2], 'leaseEnd', now + leaseMs)
redis.call('PEXPIRE', KEYS[1], leaseMs)
return {'fresh'}
"""),
    "renew": ("renew_client_lease", """
-- KEYS[1] = the record; ARGV = owner, lease ms, the caller's now (ms)
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] or redis.call('HGET', KEYS[1], 'state') ~= 'pending' then
  return 0
end
redis.call('HSET', KEYS[1], 'leaseEnd', tonumber(ARGV[3]) + tonumber(ARGV[2]))
return redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
"""),
}


class LuaStore:
    def __init__(self, client: RedisCluster, lua_dir: Path, pattern: str, mutant: str | None = None):
        self.r, self.ops, self.mutant = client, OPS[pattern], mutant
        names = {script for script, _ in self.ops.values()}
        self._src = {name: (lua_dir / pattern / f"{name}.lua").read_text() for name in names}
        if mutant == "lease-by-client-clock" and pattern == "idempotency":
            self._src.update(CLIENT_LEASE_SCRIPTS.values())
        # In a cluster, SCRIPT LOAD goes to every primary: any key's shard has the script.
        self._sha = {name: client.script_load(src) for name, src in self._src.items()}

    def call(self, op: str, key: str, args: dict):
        if op not in self.ops:
            raise ValueError(f"unknown op {op!r}")
        if self.mutant == "complete-skips-owner-check" and op == "complete":
            return self._complete_without_owner_check(key, args)
        script, names = self.ops[op]
        argv = [args[n] for n in names]
        if self.mutant == "lease-by-client-clock" and op in CLIENT_LEASE_SCRIPTS:
            # What this process's clock says now, as a library would read it.
            return self._eval(CLIENT_LEASE_SCRIPTS[op][0], key, argv + [int(time.time() * 1000)])
        return self._eval(script, key, argv)

    def _eval(self, name: str, key: str, argv: list):
        try:
            return self.r.evalsha(self._sha[name], 1, key, *argv)
        except redis.exceptions.NoScriptError:
            # A failover, restart or SCRIPT FLUSH emptied the cache: reload and retry once.
            # A second NOSCRIPT is a real error and goes back to the caller.
            self._sha[name] = self.r.script_load(self._src[name])
            return self.r.evalsha(self._sha[name], 1, key, *argv)

    def _complete_without_owner_check(self, key: str, args: dict):
        """The bug seed 000's failure table warns about, kept to prove certification catches it:
        a stale attempt overwrites whatever record the key holds now."""
        self.r.hset(key, mapping={"state": "completed", "status": args["status"], "body": args["body"]})
        self.r.pexpire(key, args["ttlMs"])
        return 1
