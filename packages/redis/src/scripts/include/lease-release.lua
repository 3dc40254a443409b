-- A hook's lease given back by its holder (ready-release.lua; attempt-finish.lua when the hook's queue ran
-- empty): only if this holder still has it (a resent release finds it gone: 0). A hook that was signalled
-- while leased goes back into the ready set at `now`: its signal may have come after its holder saw the queue
-- empty. Returns 1 when given back, 0 otherwise.
local function releaseLease(ready, leases, holders, signalled, hookId, holder, now)
  if redis.call('HGET', holders, hookId) ~= holder then return 0 end
  redis.call('ZREM', leases, hookId)
  redis.call('HDEL', holders, hookId)
  if redis.call('SREM', signalled, hookId) == 1 then redis.call('ZADD', ready, 'NX', now, hookId) end
  return 1
end
