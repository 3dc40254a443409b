-- KEYS: leases, lease holders. ARGV: holder id, hook ids...
-- Gives leases back, each only if this holder still has it (a resent release finds it gone: 0). Returns 1 or 0
-- per hook, in order.
local released = {}
for i = 2, #ARGV do
  if redis.call('HGET', KEYS[2], ARGV[i]) == ARGV[1] then
    redis.call('ZREM', KEYS[1], ARGV[i])
    redis.call('HDEL', KEYS[2], ARGV[i])
    released[#released + 1] = 1
  else
    released[#released + 1] = 0
  end
end
return released
