-- Empties the data of a hook's finished jobs (kept for the admin area) that an erasure reaches, a window of
-- the completed or failed set at a time. The job stays listed with its id, name and outcome.
-- KEYS: the completed or failed sorted set. ARGV: job key prefix, 'call_id' | 'number', the value, first index,
-- how many, the data to put in place (ids only), the personal fields (JSON kind -> names, or '').
-- Returns {next index or -1 when the set is done, event ids of the emptied jobs...}.
--!include erasure-match.lua
local start, count = tonumber(ARGV[4]), tonumber(ARGV[5])
local personal = erasure_personal(ARGV[7])
local ids = redis.call('ZRANGE', KEYS[1], start, start + count - 1)
local reply = {#ids < count and -1 or start + #ids}
for _, id in ipairs(ids) do
  local jobKey = ARGV[1] .. id
  local ok, job = pcall(cjson.decode, redis.call('HGET', jobKey, 'data') or '')
  if ok and type(job) == 'table' and type(job.event) == 'table'
    and erasure_matches(ARGV[2], ARGV[3], job.event.fields, personal, job.event.type) then
    local stub = cjson.decode(ARGV[6])
    stub.eventId = job.event.id
    redis.call('HSET', jobKey, 'data', cjson.encode(stub))
    reply[#reply + 1] = tostring(job.event.id)
  end
end
return reply
