-- Lua that applies a delivered outcome attempted at `at` (ms) to the streak hash `streak` and the failures
-- zset `failures` (names of Lua locals in the enclosing script).
if at > tonumber(redis.call('HGET', streak, 'reset_at') or '-1') then
  redis.call('ZREMRANGEBYSCORE', failures, '-inf', at)
  redis.call('HSET', streak, 'reset_at', at, 'count', redis.call('ZCARD', failures))
  -- The streak is over: a next one warns again.
  redis.call('HDEL', streak, 'warned')
end
