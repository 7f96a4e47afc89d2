#!lua
-- campaign, written differently: the election is one JSON record in a string key,
-- {"term": last token issued, "leader": candidate, "until": deadline in server ms}, rather
-- than hash fields. A lapsed lease is cleared from the record when it is next written.
-- KEYS[1] = the election's record
-- ARGV[1] = candidate
-- ARGV[2] = ttlMs, the lease's length
-- Returns: the fencing token (>= 1) | 0 another leader's lease is live
-- The record keeps a retention TTL far longer than any lease (SET ... PX), renewed by every
-- write: the term must outlive the leases, or tokens would start again at 1.
local RETENTION_MS = 600000
local ttl = tonumber(ARGV[2])
if not ttl or ttl < 1 or ttl % 1 ~= 0 then
  return redis.error_reply('ERR ttlMs must be a whole number of ms >= 1')
end
-- chaoslua-lint: allow nondeterminism (the lease is judged by the server's clock; Redis 7 replicates the writes, not the script)
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local raw = redis.call('GET', KEYS[1])
local record = raw and cjson.decode(raw) or { term = 0 }
-- cjson writes numbers with 14 significant digits: a ms clock (13 digits) survives the round trip.
if record.leader and record.leader ~= ARGV[1] and now < record['until'] then
  return 0
end
if not (record.leader == ARGV[1] and now < record['until']) then
  record.term = record.term + 1
end
record.leader = ARGV[1]
record['until'] = now + ttl
redis.call('SET', KEYS[1], cjson.encode(record), 'PX', math.max(RETENTION_MS, 10 * ttl))
return record.term
