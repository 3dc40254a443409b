-- Adds hooks to the ready set unless their lease is live (their holder re-checks the queue before letting go).
-- KEYS: ready set, leases. ARGV: now (ms), hook ids...
local now = tonumber(ARGV[1])
for i = 2, #ARGV do
  local held = tonumber(redis.call('ZSCORE', KEYS[2], ARGV[i]))
  if not held or held <= now then redis.call('ZADD', KEYS[1], 'NX', now, ARGV[i]) end
end
