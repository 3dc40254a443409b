-- KEYS: the hook's erasing set (what the attempt scripts check), the count of running erasures behind each of
-- its tags. ARGV: how long both may outlive an erasure that never finishes (ms), then the erasure's tags.
-- Two running erasures of the same target share their tags: the count keeps the fence up until both are done.
-- A tag not in the set has no running erasure behind it, whatever a count says (one left by a process that took
-- the tag down without counting): its count starts again at one.
local ttl = tonumber(ARGV[1])
for i = 2, #ARGV do
  if redis.call('SADD', KEYS[1], ARGV[i]) == 1 then
    redis.call('HSET', KEYS[2], ARGV[i], 1)
  else
    redis.call('HINCRBY', KEYS[2], ARGV[i], 1)
  end
end
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
return 1
