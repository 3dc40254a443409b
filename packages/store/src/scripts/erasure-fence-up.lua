-- KEYS: the hook's erasing set (what the attempt scripts check), the count of running erasures behind each of
-- its tags. ARGV: how long both may outlive an erasure that never finishes (ms), then the erasure's tags.
-- Two running erasures of the same target share their tags: the count keeps the fence up until both are done.
local ttl = tonumber(ARGV[1])
for i = 2, #ARGV do
  redis.call('SADD', KEYS[1], ARGV[i])
  redis.call('HINCRBY', KEYS[2], ARGV[i], 1)
end
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
return 1
