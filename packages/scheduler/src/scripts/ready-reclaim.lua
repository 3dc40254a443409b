-- KEYS: ready set, leases, lease holders, signalled while leased. ARGV: now (ms), most hooks. Returns the hooks
-- moved back.
-- Moves hooks whose lease expired (their process died or froze) back to the ready set.
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, id in ipairs(expired) do
  redis.call('ZREM', KEYS[2], id)
  redis.call('HDEL', KEYS[3], id)
  redis.call('SREM', KEYS[4], id)
  redis.call('ZADD', KEYS[1], 'NX', ARGV[1], id)
end
return expired
