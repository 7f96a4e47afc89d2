#!lua
-- complete, alternative: one HMGET for the owner, then the response and the full TTL.
-- KEYS[1] = scoped idempotency key
-- ARGV[1] = owner  ARGV[2] = status  ARGV[3] = body  ARGV[4] = ttl in milliseconds
-- Returns: 1 completed | 0 absent or another owner's
local stored = redis.call('HMGET', KEYS[1], 'owner')
if stored[1] ~= ARGV[1] then
  return 0
end
redis.call('HSET', KEYS[1], 'state', 'completed', 'status', ARGV[2], 'body', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
