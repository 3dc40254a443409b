-- KEYS: leases, lease holders. ARGV: holder id, hook id.
-- Gives a lease back, only if this holder still has it. Returns 1 when released.
if redis.call('HGET', KEYS[2], ARGV[2]) ~= ARGV[1] then return 0 end
redis.call('ZREM', KEYS[1], ARGV[2])
redis.call('HDEL', KEYS[2], ARGV[2])
return 1
