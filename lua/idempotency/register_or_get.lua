#!lua
-- register_or_get: claim an idempotency key for this attempt, or report the record already stored.
-- KEYS[1] = scoped idempotency key (a hash: state, fingerprint, owner, status, body)
-- ARGV[1] = fingerprint of the canonical request body
-- ARGV[2] = owner token of this attempt
-- ARGV[3] = lease in milliseconds
-- Returns: {'fresh'} | {'hit', state, fingerprint, status, body} ('' for a missing field)
local flat = redis.call('HGETALL', KEYS[1])
if #flat > 0 then
  local record = {}
  for i = 1, #flat, 2 do
    record[flat[i]] = flat[i + 1]
  end
  return {'hit', record.state or '', record.fingerprint or '', record.status or '', record.body or ''}
end
-- The read above and this write run as one unit: no second caller can also see the key absent.
redis.call('HSET', KEYS[1], 'state', 'pending', 'fingerprint', ARGV[1], 'owner', ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
return {'fresh'}
