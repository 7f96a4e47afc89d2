#!lua
-- claim (alternative layout): the first job of the document that is ready, or claimed with its
-- lease run out, leased to the worker for visibilityMs. The array is in enqueue order, so the first
-- one found is the oldest: no sequence numbers.
-- KEYS[1] = the queue (see enqueue.lua)
-- ARGV[1] = worker
-- ARGV[2] = visibilityMs, the lease in milliseconds
-- Returns: the job id | nil when no job is available
local RETENTION_MS = 600000
local visibility = tonumber(ARGV[2])
if not visibility or visibility < 1 then
  return redis.error_reply('ERR job-queue claim: visibilityMs must be a positive integer')
end
local raw = redis.call('GET', KEYS[1])
if not raw then
  return nil
end
-- chaoslua-lint: allow nondeterminism (deadlines are on the server clock; Redis 7 replicates a script's effects)
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local jobs = cjson.decode(raw)
for _, job in ipairs(jobs) do
  if job.state == 'ready' or (job.state == 'claimed' and job.deadline <= now) then
    job.state, job.deadline, job.worker = 'claimed', now + visibility, ARGV[1]
    redis.call('SET', KEYS[1], cjson.encode(jobs), 'PX', RETENTION_MS)
    return job.id
  end
end
return nil
