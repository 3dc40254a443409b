-- Removes a hook's active job that an erasure reaches when its holder is gone (its lock expired: the worker
-- died or froze). Nobody else would empty it: the erasure's waiting-list windows never see an active job, and
-- a worker empties a job's data only when it records an outcome. Left there, the job would keep the event's
-- fields until a worker took the hook over, and one doing so after the erasure is done (its fence down) would
-- send the erased event. A job whose holder is alive is left to it: the fence refuses its request, or the
-- request already on the wire ends with an outcome that empties the job (and the record, the second pass).
-- KEYS: the queue's active list, the hook's attempt key. ARGV: job key prefix, 'call_id' | 'number', the value,
-- the personal fields (JSON kind -> names, or '').
-- Returns {} when there is nothing to remove, {'held'} when a matching job has a live holder, else
-- {'removed', jobId, job data, '1' when its attempt had begun (it may have reached the endpoint) or '0'}.
--!include erasure-match.lua
local personal = erasure_personal(ARGV[4])
-- A hook queue has at most one active job (global concurrency 1); a short list either way.
for _, id in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do
  local jobKey = ARGV[1] .. id
  local data = redis.call('HGET', jobKey, 'data')
  local ok, job = pcall(cjson.decode, data or '')
  if ok and type(job) == 'table' and type(job.event) == 'table'
    and erasure_matches(ARGV[2], ARGV[3], job.event.fields, personal, job.event.type) then
    if redis.call('EXISTS', jobKey .. ':lock') == 1 then return {'held'} end
    local attempt = redis.call('GET', KEYS[2]) or ''
    local begun = (attempt == id or string.sub(attempt, 1, #id + 1) == id .. ' ') and '1' or '0'
    -- Its outcome is the erasure's to record: a worker that adopts the hook later finds it done.
    if begun == '1' then redis.call('SET', KEYS[2], id .. ':done') end
    redis.call('LREM', KEYS[1], 0, id)
    redis.call('DEL', jobKey, jobKey .. ':logs', jobKey .. ':dependencies', jobKey .. ':processed',
      jobKey .. ':failed', jobKey .. ':unsuccessful')
    return {'removed', id, data, begun}
  end
end
return {}
