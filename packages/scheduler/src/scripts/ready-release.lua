-- KEYS: ready set, leases, lease holders, signalled while leased. ARGV: now (ms), holder id, hook ids...
-- Gives leases back, each only if this holder still has it (a resent release finds it gone: 0). A hook that
-- was signalled while leased goes back into the ready set: its signal may have come after its holder saw the
-- queue empty. Returns 1 or 0 per hook, in order.
local ready, leases, holders, signalled = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local released = {}
for i = 3, #ARGV do
  local id = ARGV[i]
  if redis.call('HGET', holders, id) == ARGV[2] then
    redis.call('ZREM', leases, id)
    redis.call('HDEL', holders, id)
    if redis.call('SREM', signalled, id) == 1 then redis.call('ZADD', ready, 'NX', ARGV[1], id) end
    released[#released + 1] = 1
  else
    released[#released + 1] = 0
  end
end
return released
