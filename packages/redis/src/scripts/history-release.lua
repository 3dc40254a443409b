-- KEYS: the set of hooks with history to write.
-- ARGV: the hold's end (ms) as the caller set it, then hook ids whose outboxes the caller emptied.
-- Drops each marker the caller still holds. A hook marked again meanwhile (a worker recorded an outcome and
-- lowered the score to its time with ZADD LT) keeps its marker, so its new record is written next.
local dropped = 0
for i = 2, #ARGV do
  if tonumber(redis.call('ZSCORE', KEYS[1], ARGV[i])) == tonumber(ARGV[1]) then
    dropped = dropped + redis.call('ZREM', KEYS[1], ARGV[i])
  end
end
return dropped
