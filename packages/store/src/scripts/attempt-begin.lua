-- KEYS: attempt, hook record, the job's lock, the hook's erasing set. ARGV: event id, version of the caller's
-- cached target ('' = none), the caller's lock token, 'tags' followed by the event's erasure tags (core's
-- eventErasureTags), or 'ask' when the caller has not computed them.
-- Returns {state, lock ms left} or {'send', lock ms left, fields...} when the caller's copy of the hook is stale.
-- 'tags_wanted' (nothing written) asks a caller that sent 'ask' for the tags: an erasure is running on the
-- hook. The tags are three hashes per attempt, and most attempts run while no erasure does.
-- The lock token is the fence: a process that lost the job (frozen past its lock, which another process then
-- took) is told 'fenced' and sends nothing, whatever the attempt key says. The attempt key holds
-- '<event id> <token>' while the attempt is open, so the same holder asking again (its client resent the call
-- after a reconnect, the first reply lost) is told to send: it cannot have sent without that reply. That holds
-- only because a token names one taking of the job: a later taking (even by the same process) has its own.
-- An event an erasure reaches is told 'erased' instead of 'send' (and its attempt marked, so its outcome can
-- be recorded): the erasure marks its tag in every hook of the account before it is accepted, so no request
-- of an erased event starts after that. An attempt already begun is left to its own outcome.
if redis.call('GET', KEYS[3]) ~= ARGV[3] then return {'fenced', 0} end
local left = redis.call('PTTL', KEYS[3])
if redis.call('EXISTS', KEYS[2]) == 0 then return {'hook_deleted', left} end
local current = redis.call('GET', KEYS[1])
local mine = ARGV[1] .. ' ' .. ARGV[3]
if current == ARGV[1] .. ':done' then return {'already_recorded', left} end
if current and current ~= mine and (current == ARGV[1] or string.sub(current, 1, #ARGV[1] + 1) == ARGV[1] .. ' ') then
  return {'maybe_sent', left}
end
local erasing = KEYS[4] and redis.call('EXISTS', KEYS[4]) == 1
if erasing and ARGV[4] == 'ask' then return {'tags_wanted', left} end
redis.call('SET', KEYS[1], mine)
if erasing and ARGV[4] == 'tags' then
  for i = 5, #ARGV do
    if redis.call('SISMEMBER', KEYS[4], ARGV[i]) == 1 then return {'erased', left} end
  end
end
local version = redis.call('HGET', KEYS[2], 'version') or ''
if version ~= '' and version == ARGV[2] then return {'send', left} end
return {'send', left, redis.call('HGETALL', KEYS[2])}
