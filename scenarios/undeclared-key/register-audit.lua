-- register_with_audit, REMEDIATED: the audit list is passed in KEYS, under the record's hash tag.
-- KEYS[1] = scoped idempotency key       idem:v1:{cred:route:key}
-- KEYS[2] = its audit list               idem:v1:audit:{cred:route:key}  (same tag, same slot)
-- ARGV[1] = fingerprint  ARGV[2] = owner  ARGV[3] = lease ms
-- Returns: {'fresh'} | {'hit', state}
local state = redis.call('HGET', KEYS[1], 'state')
if state then
  return {'hit', state}
end
redis.call('HSET', KEYS[1], 'state', 'pending', 'fingerprint', ARGV[1], 'owner', ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[3]))
return {'fresh'}
