-- KEYS: ready set, leases, lease holders, signalled while leased. ARGV: now (ms), lease expiry (ms), most
-- hooks to claim, holder id, ids already popped...
-- Claims up to ARGV[3] hooks for holder ARGV[4]: first the ids the caller already popped (ARGV[5..]), then
-- more from the set. A hook whose lease is still live is skipped: giving that lease back puts it into the
-- ready set again (it was signalled while leased), so the signal is not lost. A live lease of this same holder
-- counts as claimed (its client resent the call after a reconnect and lost the first reply). A new holding
-- starts by reading its queue, which answers every earlier signal: the hook's mark is cleared.
local ready, leases, holders, signalled = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local now, expiry, want, holder = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local claimed = {}
local function take(id)
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
for i = 5, #ARGV do take(ARGV[i]) end
local room = want - (#ARGV - 4)
if room > 0 then
  local popped = redis.call('ZPOPMIN', ready, room)
  for i = 1, #popped, 2 do take(popped[i]) end
end
return claimed
