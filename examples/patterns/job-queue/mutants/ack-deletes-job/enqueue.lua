#!lua
-- enqueue: add a job to the queue, once: a job id the queue knows (queued, claimed or acked) is
-- never queued again, so a producer may retry an enqueue whose reply it lost.
-- KEYS[1] = the queue: a hash; field 'seq' = the number of the last enqueue, and one field
--           'job:<id>' per job = "<seq>|<state>|<deadline ms>|<worker>", state ready, claimed or acked
-- ARGV[1] = job id
-- Returns: 1 queued | 0 already known
-- Every write refreshes the queue's retention (10 minutes): a queue nobody writes to goes away.
local RETENTION_MS = 600000
local field = 'job:' .. ARGV[1]
if redis.call('HEXISTS', KEYS[1], field) == 1 then
  return 0
end
local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
redis.call('HSET', KEYS[1], field, seq .. '|ready|0|')
redis.call('PEXPIRE', KEYS[1], RETENTION_MS)
return 1
