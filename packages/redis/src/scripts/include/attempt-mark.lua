-- The attempt's mark (attempt-ledger.ts), made right before a request can leave: by attempt-begin.lua, and by
-- attempt-finish.lua for the job it takes next under the same token. Arguments: the hook's attempt key, its
-- record, the job's lock, the hook's erasing set (or nil), the attempt's marker (the job id), the caller's
-- lock token, the version of the caller's cached target ('' = none), then 'tags' or 'ask' and the table and
-- index where the event's erasure tags start. Returns attempt-begin.lua's reply.
local function markAttempt(attempt, hookRecord, lock, erasingKey, marker, token, version, tagsMode, tags, from)
  if redis.call('GET', lock) ~= token then return {'fenced', 0} end
  local left = redis.call('PTTL', lock)
  if redis.call('EXISTS', hookRecord) == 0 then return {'hook_deleted', left} end
  local current = redis.call('GET', attempt)
  local mine = marker .. ' ' .. token
  if current == marker .. ':done' then return {'already_recorded', left} end
  if current and current ~= mine and (current == marker or string.sub(current, 1, #marker + 1) == marker .. ' ') then
    return {'maybe_sent', left}
  end
  local erasing = erasingKey and redis.call('EXISTS', erasingKey) == 1
  if erasing and tagsMode == 'ask' then return {'tags_wanted', left} end
  redis.call('SET', attempt, mine)
  if erasing and tagsMode == 'tags' then
    for i = from, #tags do
      if redis.call('SISMEMBER', erasingKey, tags[i]) == 1 then return {'erased', left} end
    end
  end
  local stored = redis.call('HGET', hookRecord, 'version') or ''
  if stored ~= '' and stored == version then return {'send', left} end
  return {'send', left, redis.call('HGETALL', hookRecord)}
end
-- After a BullMQ script that may have taken a job under the caller's token (moveToActive, or moveToFinished
-- fetching the next): marks that job's attempt, erasure tags asked for, or returns nil when it took none.
-- BullMQ's reply for a job it took is {the job's fields, its id, 0, 0}, the job locked under the token; the
-- lock's key is built around the id from its prefix and suffix (the queue's layout, given by the caller).
local function markTaken(job, attempt, hookRecord, erasingKey, token, lockPrefix, lockSuffix, version)
  if type(job) ~= 'table' or type(job[1]) ~= 'table' or type(job[2]) ~= 'string' then return nil end
  local lock = lockPrefix .. job[2] .. lockSuffix
  return markAttempt(attempt, hookRecord, lock, erasingKey, job[2], token, version, 'ask', {}, 1)
end
