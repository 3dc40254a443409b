-- KEYS: leases, lease holders. ARGV: now (ms), new expiry (ms), holder id, hook ids...
-- Extends the leases this holder still has; returns the hooks it no longer holds (expired and claimed by
-- another process, or reclaimed), which the caller must stop serving.
local leases, holders = KEYS[1], KEYS[2]
local now, expiry, holder = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
local lost = {}
for i = 4, #ARGV do
  local id = ARGV[i]
  local held = tonumber(redis.call('ZSCORE', leases, id))
  if held and held > now and redis.call('HGET', holders, id) == holder then
    redis.call('ZADD', leases, expiry, id)
  else
    lost[#lost + 1] = id
  end
end
return lost
