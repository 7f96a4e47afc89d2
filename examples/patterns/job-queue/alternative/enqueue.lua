#!lua
-- enqueue (alternative layout): the queue as one JSON document, the jobs in enqueue order.
-- KEYS[1] = the queue: a string holding a JSON array, in enqueue order, of
--           { "id": job, "state": "ready" | "claimed" | "acked", "deadline": ms, "worker": name }
-- ARGV[1] = job id
-- Returns: 1 queued | 0 already known (queued, claimed or acked)
-- Each write is a SET with PX: the document is replaced whole and its retention (10 minutes) renewed.
local RETENTION_MS = 600000
local raw = redis.call('GET', KEYS[1])
local jobs = raw and cjson.decode(raw) or {}
for _, job in ipairs(jobs) do
  if job.id == ARGV[1] then
    return 0
  end
end
jobs[#jobs + 1] = { id = ARGV[1], state = 'ready', deadline = 0, worker = '' }
redis.call('SET', KEYS[1], cjson.encode(jobs), 'PX', RETENTION_MS)
return 1
