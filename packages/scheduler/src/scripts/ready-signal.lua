-- Adds hooks to the ready set unless their lease is live; a leased hook is remembered instead (its holder may
-- already have seen its queue empty, and giving the lease back then puts the hook into the ready set).
-- KEYS: ready set, leases, signalled while leased. ARGV: now (ms), hook ids...
local now = tonumber(ARGV[1])
for i = 2, #ARGV do
  local held = tonumber(redis.call('ZSCORE', KEYS[2], ARGV[i]))
  if held and held > now then
    redis.call('SADD', KEYS[3], ARGV[i])
  else
    redis.call('ZADD', KEYS[1], 'NX', now, ARGV[i])
  end
end
