-- Gives hook `id`'s lease back if `holder` still has it (a resent release finds it gone: 0), by
-- ready-release.lua and, on one Redis, by the outcome's script of a holding whose queue ran empty
-- (attempt-finish.lua). A hook that was signalled while leased goes back into the ready set: its signal may
-- have come after its holder saw the queue empty. The scheduler's keys: ready set, leases, lease holders,
-- signalled while leased; `now` in ms. Returns 1 when given back.
local function releaseHook(ready, leases, holders, signalled, now, holder, id)
  if redis.call('HGET', holders, id) ~= holder then return 0 end
  redis.call('ZREM', leases, id)
  redis.call('HDEL', holders, id)
  if redis.call('SREM', signalled, id) == 1 then redis.call('ZADD', ready, 'NX', now, id) end
  return 1
end
