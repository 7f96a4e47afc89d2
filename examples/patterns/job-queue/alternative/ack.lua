#!lua
-- ack (alternative layout): settle a job for the worker holding a live lease on it, and nobody else.
-- KEYS[1] = the queue (see enqueue.lua)
-- ARGV[1] = worker
-- ARGV[2] = job id
-- Returns: 1 acked | -1 not claimed by this worker, or its lease ran out | nil unknown job
local RETENTION_MS = 600000
local raw = redis.call('GET', KEYS[1])
if not raw then
  return nil
end
local jobs = cjson.decode(raw)
for _, job in ipairs(jobs) do
  if job.id == ARGV[2] then
    if job.state ~= 'claimed' or job.worker ~= ARGV[1] then
      return -1
    end
    -- chaoslua-lint: allow nondeterminism (deadlines are on the server clock; Redis 7 replicates a script's effects)
    local t = redis.call('TIME')
    local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
    if job.deadline <= now then
      return -1
    end
    -- The acked job stays in the document: its id is known, so it is never queued again.
    job.state, job.deadline, job.worker = 'acked', 0, ''
    redis.call('SET', KEYS[1], cjson.encode(jobs), 'PX', RETENTION_MS)
    return 1
  end
end
return nil
