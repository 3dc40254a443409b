-- Lua that applies a failure of event `eventId` attempted at `at` (ms) to the streak hash `streak` and the
-- failures zset `failures`, keeping at most `kept` failures (names of Lua locals in the enclosing script). A
-- failure attempted before the streak's last reset is ignored; one already counted (the worker's outcome
-- script and the monitor both apply it) counts once: the zset is keyed by event id.
if at > tonumber(redis.call('HGET', streak, 'reset_at') or '-1') then
  if redis.call('ZADD', failures, 'NX', at, eventId) == 1 then
    redis.call('HINCRBY', streak, 'count', 1)
    -- Keep the first failure (the streak's start) and the latest ones; the count stays exact.
    local size = redis.call('ZCARD', failures)
    if size > kept then redis.call('ZREMRANGEBYRANK', failures, 1, size - kept) end
  end
end
