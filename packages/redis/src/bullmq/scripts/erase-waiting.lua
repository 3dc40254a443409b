-- Removes a hook's waiting or held events that an erasure reaches, a window of the wait list at a time.
-- KEYS: the queue's wait list. ARGV: job key prefix, 'call_id' | 'number', the value, first index, how many,
-- the personal fields (JSON kind -> names, or '').
-- Workers take from the right and producers add at the left, so a cursor from the left never skips an entry
-- (an add shifts the window right: some entries are looked at twice, which finds nothing the second time).
-- Active jobs are not here: the attempt script's fence refuses them. The deduplication key stays (ids only;
-- cut to 55 s once the event's inbox entry is done, which outlasts any fan-out still allowed to add: see
-- fenced-add.lua), so a repeated fan-out cannot bring an erased event back.
-- Returns {next index or -1 when the list is done, jobId, job data, ...} of the removed jobs.
--!include erasure-match.lua
local start, count = tonumber(ARGV[4]), tonumber(ARGV[5])
local personal = erasure_personal(ARGV[6])
local ids = redis.call('LRANGE', KEYS[1], start, start + count - 1)
local removed = {}
for _, id in ipairs(ids) do
  local jobKey = ARGV[1] .. id
  local data = redis.call('HGET', jobKey, 'data')
  local ok, job = pcall(cjson.decode, data or '')
  if ok and type(job) == 'table' and type(job.event) == 'table'
    and erasure_matches(ARGV[2], ARGV[3], job.event.fields, personal, job.event.type) then
    redis.call('LREM', KEYS[1], 0, id)
    redis.call('DEL', jobKey, jobKey .. ':logs', jobKey .. ':dependencies', jobKey .. ':processed',
      jobKey .. ':failed', jobKey .. ':unsuccessful')
    removed[#removed + 1] = id
    removed[#removed + 1] = data
  end
end
local nextIndex = start + #ids - #removed / 2
if #ids < count then nextIndex = -1 end
local reply = {nextIndex}
for _, item in ipairs(removed) do reply[#reply + 1] = item end
return reply
