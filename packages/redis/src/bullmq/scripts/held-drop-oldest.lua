-- Takes the oldest held events off a paused hook's queue, atomically, so that two callers (two producers
-- over the cap at once, or a discard racing the cap) never drop or record the same event twice.
-- BullMQ 6 keeps a paused queue's jobs in its `wait` list (LPUSH on add, workers pop from the right), so the
-- oldest is at the right. The job's keys go in the same script (BullMQ's removeJobKeys set): removing each
-- through BullMQ would scan the whole list per job.
-- KEYS: queue meta, wait list. ARGV: how many to keep, most to drop now, job key prefix, the paused field, and
-- optionally a time (ms): only events accepted before it are dropped (the job data's acceptedAt; held events are in acceptance
-- order, so the first one accepted at or after it ends the run).
-- Returns [jobId, job data JSON, ...], oldest first.
if redis.call('HEXISTS', KEYS[1], ARGV[4]) == 0 then return {} end
local excess = redis.call('LLEN', KEYS[2]) - tonumber(ARGV[1])
if excess <= 0 then return {} end
local before = tonumber(ARGV[5] or '')
local dropped = {}
for _ = 1, math.min(excess, tonumber(ARGV[2])) do
  local id = redis.call('LINDEX', KEYS[2], -1)
  if not id then break end
  local jobKey = ARGV[3] .. id
  local data = redis.call('HGET', jobKey, 'data') or ''
  if before then
    local ok, job = pcall(cjson.decode, data)
    local acceptedAt = ok and type(job) == 'table' and tonumber(job.acceptedAt) or nil
    -- A job without a readable time is older than any choice: it was held before the change that wrote it.
    if acceptedAt and acceptedAt >= before then break end
  end
  redis.call('RPOP', KEYS[2])
  dropped[#dropped + 1] = id
  dropped[#dropped + 1] = data
  redis.call('DEL', jobKey, jobKey .. ':logs', jobKey .. ':dependencies', jobKey .. ':processed',
    jobKey .. ':failed', jobKey .. ':unsuccessful')
end
return dropped
