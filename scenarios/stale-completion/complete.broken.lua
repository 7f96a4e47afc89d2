-- complete, BROKEN: stores whatever response arrives, without asking who owns the key.
-- KEYS[1] = scoped idempotency key
-- ARGV[1] = owner  ARGV[2] = status  ARGV[3] = body  ARGV[4] = ttl ms
-- Returns: 1, always. A stale attempt (its lease ran out while it was frozen, and a newer attempt
-- registered and completed) overwrites the newer attempt's stored response.
redis.call('HSET', KEYS[1], 'state', 'completed', 'status', ARGV[2], 'body', ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[4]))
return 1
