-- Takes the oldest held events off a paused hook's queue, atomically, so that two callers (two producers
-- over the cap at once, or a discard racing the cap) never drop or record the same event twice.
-- BullMQ 6 keeps a paused queue's jobs in its `wait` list (LPUSH on add, workers pop from the right), so the
-- oldest is at the right. The job's keys go in the same script (BullMQ's removeJobKeys set): removing each
-- through BullMQ would scan the whole list per job.
-- KEYS: queue meta, wait list. ARGV: how many to keep, most to drop now, job key prefix.
-- Returns [jobId, job data JSON, ...], oldest first.
if redis.call('HEXISTS', KEYS[1], 'paused') == 0 then return {} end
local excess = redis.call('LLEN', KEYS[2]) - tonumber(ARGV[1])
if excess <= 0 then return {} end
local dropped = {}
for _ = 1, math.min(excess, tonumber(ARGV[2])) do
  local id = redis.call('RPOP', KEYS[2])
  if not id then break end
  local jobKey = ARGV[3] .. id
  dropped[#dropped + 1] = id
  dropped[#dropped + 1] = redis.call('HGET', jobKey, 'data') or ''
  redis.call('DEL', jobKey, jobKey .. ':logs', jobKey .. ':dependencies', jobKey .. ':processed',
    jobKey .. ':failed', jobKey .. ':unsuccessful')
end
return dropped
