-- KEYS: the hook's erasing set, the count of running erasures behind each of its tags. ARGV: the done erasure's
-- tags. A tag leaves the set only with the last running erasure behind it; one without a count (a fence put up
-- before the counts existed) leaves at once, as it did then.
local removed = 0
for i = 1, #ARGV do
  local left = redis.call('HINCRBY', KEYS[2], ARGV[i], -1)
  if left <= 0 then
    redis.call('HDEL', KEYS[2], ARGV[i])
    removed = removed + redis.call('SREM', KEYS[1], ARGV[i])
  end
end
return removed
