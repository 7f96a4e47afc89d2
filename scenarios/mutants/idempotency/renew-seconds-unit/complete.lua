#!lua
-- complete: store the response of the owning attempt and keep it for the full TTL.
-- KEYS[1] = scoped idempotency key
-- ARGV[1] = owner token of the attempt that finished
-- ARGV[2] = status (e.g. HTTP status code)
-- ARGV[3] = body (serialised response)
-- ARGV[4] = ttl in milliseconds
-- Returns: 1 completed | 0 the key is absent or another owner holds it
-- A stale attempt (its lease ran out and a newer attempt registered) must not overwrite the newer one.
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then
  return 0
end
redis.call('HSET', KEYS[1], 'state', 'completed', 'status', ARGV[2], 'body', ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[4]))
return 1
