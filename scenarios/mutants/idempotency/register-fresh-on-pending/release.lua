#!lua
-- release: give up a pending key so the next attempt may run (the handler failed).
-- KEYS[1] = scoped idempotency key
-- ARGV[1] = owner token of the attempt giving up
-- Returns: 1 deleted | 0 another owner holds it, or it is absent, or it is not pending
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then
  return 0
end
-- Deleting a completed key would resurrect an operation that already ran.
if redis.call('HGET', KEYS[1], 'state') ~= 'pending' then
  return 0
end
return redis.call('DEL', KEYS[1])
