#!lua
-- ack: settle a job for good; only the worker holding a live lease on it may. An ack after the
-- lease ran out is refused even when nobody claimed the job since: the job may be handed out
-- again at any moment, and the worker must treat its work as possibly duplicated.
-- KEYS[1] = the queue (see enqueue.lua for the layout)
-- ARGV[1] = worker
-- ARGV[2] = job id
-- Returns: 1 acked | -1 not claimed by this worker, or its lease ran out | nil unknown job
local RETENTION_MS = 600000
local field = 'job:' .. ARGV[2]
local record = redis.call('HGET', KEYS[1], field)
if not record then
  return nil
end
local seq, state, deadline, worker = string.match(record, '^(%d+)|(%a+)|(%d+)|(.*)$')
if state ~= 'claimed' or worker ~= ARGV[1] then
  return -1
end
-- chaoslua-lint: allow nondeterminism (deadlines are on the server clock; Redis 7 replicates a script's effects)
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if tonumber(deadline) <= now then
  return -1
end
-- An acked job keeps its field (no deadline, no worker): its id stays known, so it is never queued again.
redis.call('HSET', KEYS[1], field, seq .. '|acked|0|')
redis.call('PEXPIRE', KEYS[1], RETENTION_MS)
return 1
