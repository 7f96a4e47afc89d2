-- release, BROKEN: checks the owner but not the state, so an attempt may delete its own completed record.
-- KEYS[1] = scoped idempotency key
-- ARGV[1] = owner token of the attempt giving up
-- Returns: 1 deleted | 0 another owner holds it or it is absent
-- A slow attempt that completed and then fails on its way out (its caller timed out, the response
-- could not be sent) releases the key: the completed response is gone and a retry runs the operation again.
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then
  return 0
end
return redis.call('DEL', KEYS[1])
