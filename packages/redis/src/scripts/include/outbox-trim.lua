-- outboxTrim(outbox, counter, n, last, erasures): the trim of history-outbox-ack.lua, for one outbox. Trims the
-- first n records of `outbox` only if `last` (the last of them exactly as read) is still the nth, and, when
-- `counter` (a hook outbox's erasure counter) is given, only if it still holds `erasures` ('' = no counter).
-- Returns the records left, or -1 when nothing was trimmed.
local function outboxTrim(outbox, counter, n, last, erasures)
  if redis.call('LINDEX', outbox, n - 1) ~= last then return -1 end
  if counter and (redis.call('GET', counter) or '') ~= erasures then return -1 end
  redis.call('LTRIM', outbox, n, -1)
  return redis.call('LLEN', outbox)
end
