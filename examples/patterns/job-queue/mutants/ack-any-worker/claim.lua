#!lua
-- claim: lease the oldest available job (enqueue order) to a worker for visibilityMs. A job is
-- available when it is ready, or claimed but its lease ran out (its worker died or stalled): it is
-- then handed out again, so a job is delivered at least once until it is acked.
-- KEYS[1] = the queue (see enqueue.lua for the layout)
-- ARGV[1] = worker
-- ARGV[2] = visibilityMs, the lease in milliseconds
-- Returns: the job id | nil when no job is available
-- Deadlines are on the server's clock: the workers' clocks never decide whose lease is live.
local RETENTION_MS = 600000
local visibility = tonumber(ARGV[2])
if not visibility or visibility < 1 then
  return redis.error_reply('ERR job-queue claim: visibilityMs must be a positive integer')
end
-- chaoslua-lint: allow nondeterminism (deadlines are on the server clock; Redis 7 replicates a script's effects)
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local fields = redis.call('HGETALL', KEYS[1])
local best, bestSeq
for i = 1, #fields, 2 do
  if string.sub(fields[i], 1, 4) == 'job:' then
    local seq, state, deadline = string.match(fields[i + 1], '^(%d+)|(%a+)|(%d+)|')
    seq = tonumber(seq)
    local available = state == 'ready' or (state == 'claimed' and tonumber(deadline) <= now)
    if available and (bestSeq == nil or seq < bestSeq) then
      best, bestSeq = fields[i], seq
    end
  end
end
if best == nil then
  return nil
end
redis.call('HSET', KEYS[1], best, string.format('%d|claimed|%d|%s', bestSeq, now + visibility, ARGV[1]))
redis.call('PEXPIRE', KEYS[1], RETENTION_MS)
return string.sub(best, 5)
