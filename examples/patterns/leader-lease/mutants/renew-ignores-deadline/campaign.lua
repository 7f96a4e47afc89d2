#!lua
-- campaign: become the leader while no other leader's lease is live, and get a fencing token.
-- KEYS[1] = the election's hash: leader, deadline (server ms), term (the last token issued)
-- ARGV[1] = candidate
-- ARGV[2] = ttlMs, the lease's length
-- Returns: the fencing token (>= 1) | 0 another leader's lease is live
-- A vacant or lapsed lease: the term grows by one and is the new leader's token. The live leader
-- campaigning again renews its lease and gets its own token back (its fencing stays valid).
-- The term outlives every lease, so the hash keeps a retention TTL far longer than any lease,
-- refreshed on every write: a term that expired would start again at 1 and repeat old tokens.
local RETENTION_MS = 600000
local ttl = tonumber(ARGV[2])
if not ttl or ttl < 1 or ttl % 1 ~= 0 then
  return redis.error_reply('ERR ttlMs must be a whole number of ms >= 1')
end
-- chaoslua-lint: allow nondeterminism (the lease is judged by the server's clock; Redis 7 replicates the writes, not the script)
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local h = redis.call('HMGET', KEYS[1], 'leader', 'deadline', 'term')
local leader, deadline = h[1], tonumber(h[2])
local live = leader and deadline and now < deadline
if live and leader ~= ARGV[1] then
  return 0
end
local term
if live then
  term = tonumber(h[3])
else
  term = redis.call('HINCRBY', KEYS[1], 'term', 1)
end
redis.call('HSET', KEYS[1], 'leader', ARGV[1], 'deadline', now + ttl)
redis.call('PEXPIRE', KEYS[1], math.max(RETENTION_MS, 10 * ttl))
return term
