import type { Cluster } from 'ioredis';
import { referenceCommand } from '../../support/reference-commands.ts';

/**
 * MUTANT (slip): the lease's end is kept on the client's clock. register_or_get stores the caller's
 * Date.now() + leaseMs with the pending record, and a later register takes the record over once its
 * own caller's Date.now() has passed that end (renew moves it the same way), besides the key's TTL.
 * With one clock this is the reference; when clients' clocks disagree, a caller whose clock is ahead
 * takes over a lease that has not ended, and two owners run the request. complete and release are
 * the reference scripts.
 */
const REGISTER_CLIENT_LEASE = `#!lua
-- KEYS[1] = the record; ARGV = fingerprint, owner, lease ms, the caller's now (ms)
local now = tonumber(ARGV[4])
local leaseMs = tonumber(ARGV[3])
local flat = redis.call('HGETALL', KEYS[1])
if #flat > 0 then
  local record = {}
  for i = 1, #flat, 2 do
    record[flat[i]] = flat[i + 1]
  end
  if record.state ~= 'pending' or tonumber(record.leaseEnd or '0') > now then
    return {'hit', record.state or '', record.fingerprint or '', record.status or '', record.body or ''}
  end
  redis.call('DEL', KEYS[1])
end
redis.call('HSET', KEYS[1], 'state', 'pending', 'fingerprint', ARGV[1], 'owner', ARGV[2], 'leaseEnd', now + leaseMs)
redis.call('PEXPIRE', KEYS[1], leaseMs)
return {'fresh'}
`;

const RENEW_CLIENT_LEASE = `#!lua
-- KEYS[1] = the record; ARGV = owner, lease ms, the caller's now (ms)
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then
  return 0
end
if redis.call('HGET', KEYS[1], 'state') ~= 'pending' then
  return 0
end
redis.call('HSET', KEYS[1], 'leaseEnd', tonumber(ARGV[3]) + tonumber(ARGV[2]))
return redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
`;

type Command = (...args: unknown[]) => Promise<unknown>;

export function createStore(redis: Cluster) {
  redis.defineCommand('registerClientLease', { numberOfKeys: 1, lua: REGISTER_CLIENT_LEASE });
  redis.defineCommand('renewClientLease', { numberOfKeys: 1, lua: RENEW_CLIENT_LEASE });
  const commands = redis as unknown as Record<string, Command>;
  const complete = referenceCommand(redis, 'idempotency', 'complete');
  const release = referenceCommand(redis, 'idempotency', 'release');
  return {
    registerOrGet: (key: string, fingerprint: string, owner: string, leaseMs: number) =>
      commands.registerClientLease.call(redis, key, fingerprint, owner, leaseMs, Date.now()),
    complete: (key: string, owner: string, status: string, body: string, ttlMs: number) =>
      complete(key, owner, status, body, ttlMs),
    release: (key: string, owner: string) => release(key, owner),
    renew: (key: string, owner: string, leaseMs: number) =>
      commands.renewClientLease.call(redis, key, owner, leaseMs, Date.now()),
  };
}
