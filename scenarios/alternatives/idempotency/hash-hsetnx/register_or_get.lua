#!lua
-- register_or_get, alternative: claim the key by creating its state field with HSETNX; report an
-- existing record with one HMGET of the fields the reply carries.
-- KEYS[1] = scoped idempotency key
-- ARGV[1] = fingerprint  ARGV[2] = owner  ARGV[3] = lease in milliseconds
-- Returns: {'fresh'} | {'hit', state, fingerprint, status, body}
if redis.call('HSETNX', KEYS[1], 'state', 'pending') == 1 then
  -- The state field did not exist, so neither did the record (every record has one).
  redis.call('HSET', KEYS[1], 'fingerprint', ARGV[1], 'owner', ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return {'fresh'}
end
local f = redis.call('HMGET', KEYS[1], 'state', 'fingerprint', 'status', 'body')
-- HMGET gives false for a field the hash lacks (status and body while pending).
return {'hit', f[1] or '', f[2] or '', f[3] or '', f[4] or ''}
