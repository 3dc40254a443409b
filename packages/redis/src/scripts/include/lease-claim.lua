-- Hooks claimed for a holder from the ready set, each with a lease (ready-claim.lua; attempt-claim-take.lua,
-- which also takes the first one's next job): first the ids the caller already popped, then more from the
-- set, up to `want` in all. A hook whose lease is still live is skipped: giving that lease back puts it into
-- the ready set again (it was signalled while leased), so the signal is not lost. A live lease of this same
-- holder counts as claimed (its client resent the call after a reconnect and lost the first reply). A new
-- holding starts by reading its queue, which answers every earlier signal: the hook's mark is cleared. A hook
-- signalled again after the caller popped it is back in the set: popped again here, it is claimed once.
-- Returns the ids claimed, each once, in that order.
local function claimHooks(ready, leases, holders, signalled, now, expiry, want, holder, popped)
  local claimed, seen = {}, {}
  local function claim(id)
    if seen[id] then return end
    seen[id] = true
    local held = tonumber(redis.call('ZSCORE', leases, id))
    if held and held > now and redis.call('HGET', holders, id) ~= holder then
      redis.call('SADD', signalled, id)
      return
    end
    redis.call('ZADD', leases, expiry, id)
    redis.call('HSET', holders, id, holder)
    redis.call('SREM', signalled, id)
    claimed[#claimed + 1] = id
  end
  for _, id in ipairs(popped) do claim(id) end
  local room = want - #popped
  if room > 0 then
    local more = redis.call('ZPOPMIN', ready, room)
    for i = 1, #more, 2 do claim(more[i]) end
  end
  return claimed
end
