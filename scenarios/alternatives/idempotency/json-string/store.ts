import type { Cluster } from 'ioredis';

/**
 * Idempotency store, alternative: the record is one JSON string created by SET NX PX and rewritten
 * whole by small scripts (cjson), called through ioredis commands (EVALSHA, EVAL on NOSCRIPT).
 * Same contract as the reference hash scripts, different data type and commands.
 */
const LOAD = `local raw = redis.call('GET', KEYS[1])
if not raw then return nil end
return cjson.decode(raw)`;

const SCRIPTS = {
  idemJsonRegister: `local record = cjson.encode({state = 'pending', fingerprint = ARGV[1], owner = ARGV[2]})
if redis.call('SET', KEYS[1], record, 'NX', 'PX', ARGV[3]) then return {'fresh'} end
local r = cjson.decode(redis.call('GET', KEYS[1]))
return {'hit', r.state, r.fingerprint, r.status or '', r.body or ''}`,
  idemJsonComplete: `local r = (function() ${LOAD} end)()
if not r or r.owner ~= ARGV[1] then return 0 end
r.state, r.status, r.body = 'completed', ARGV[2], ARGV[3]
redis.call('SET', KEYS[1], cjson.encode(r), 'PX', ARGV[4])
return 1`,
  idemJsonRelease: `local r = (function() ${LOAD} end)()
if not r or r.owner ~= ARGV[1] or r.state ~= 'pending' then return 0 end
return redis.call('DEL', KEYS[1])`,
  idemJsonRenew: `local r = (function() ${LOAD} end)()
if not r or r.owner ~= ARGV[1] or r.state ~= 'pending' then return 0 end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])`,
};

type Call = (key: string, ...args: (string | number)[]) => Promise<unknown>;

export function createStore(redis: Cluster) {
  const call = {} as Record<keyof typeof SCRIPTS, Call>;
  for (const [name, lua] of Object.entries(SCRIPTS) as [keyof typeof SCRIPTS, string][]) {
    redis.defineCommand(name, { numberOfKeys: 1, lua });
    const command = (redis as unknown as Record<string, Call>)[name];
    call[name] = (key, ...args) => command.call(redis, key, ...args);
  }
  return {
    registerOrGet: (key: string, fingerprint: string, owner: string, leaseMs: number) =>
      call.idemJsonRegister(key, fingerprint, owner, leaseMs),
    complete: (key: string, owner: string, status: string, body: string, ttlMs: number) =>
      call.idemJsonComplete(key, owner, status, body, ttlMs),
    release: (key: string, owner: string) => call.idemJsonRelease(key, owner),
    renew: (key: string, owner: string, leaseMs: number) => call.idemJsonRenew(key, owner, leaseMs),
  };
}
