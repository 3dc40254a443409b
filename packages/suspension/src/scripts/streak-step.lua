-- A hook's streak of non-delivered outcomes, kept so that it is right whatever order outcomes arrive in and
-- however often one arrives: several monitors take entries from the stream in parallel, and an entry whose
-- monitor died is delivered again. The failures are a set keyed by event id (a redelivered one counts once);
-- a delivered outcome removes every failure attempted before it and records its time, so a failure older
-- than the latest success is ignored wherever it turns up. Workers apply delivered outcomes themselves, when
-- they record them (attempt-finish.lua); the monitor still applies any it finds in the stream
-- (written by workers of an earlier version during a rolling upgrade).
--
-- The same script decides suspension, so that it happens once: when the streak qualifies it sets the queue's
-- paused flag with HSETNX (BullMQ's own pause, minus its event) and only the call that set it is told to
-- record the suspension. A monitor that dies before recording leaves `unrecorded` behind with a lease; once
-- the lease ends, the next call on that hook is told to record it instead. A worker's outcome script pauses
-- the queue itself when the failure it records is the one that qualifies (attempt-finish.lua: so the hook's
-- next event is held, not sent, in the moment before a monitor reads the failure); it leaves `unrecorded` with
-- a lease already over, and the monitor's step for that failure (or the due check) records it.
--
-- The same script decides the warning at half the threshold, once per streak: HSETNX of `warned` is true for
-- one caller only (a delivered outcome or a re-enable clears it), and that caller records it.
--
-- A hook whose record carries `never_suspend` (the operator's notices) counts its streak and warns, but is
-- never suspended.
--
-- KEYS: streak hash, failures zset, queue meta, queue marker, hook record.
-- ARGV: mode (failure|delivered|check), attempt time, event id, account id, now, threshold, window ms,
--       lease ms, failures kept, idle ttl ms, warning threshold (0 = none), BullMQ's paused field, the record's
--       never-suspend field.
-- Replies {verdict, count, account, time, warn (1 when this call must record the warning), streak start, the
-- streak's length at this failure}.
local streak, failures, meta, marker = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local mode, at, eventId, account = ARGV[1], tonumber(ARGV[2]), ARGV[3], ARGV[4]
local now, threshold, windowMs = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local leaseMs, kept, ttlMs = tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10])

if redis.call('EXISTS', meta) == 0 then
  redis.call('DEL', streak, failures)
  return {'gone'}
end

if mode == 'delivered' then
--!include streak-apply-delivered.lua
elseif mode == 'failure' then
--!include streak-apply-failure.lua
end
if mode ~= 'check' then
  if account ~= '' then redis.call('HSET', streak, 'account', account) end
  redis.call('PEXPIRE', streak, ttlMs)
  redis.call('PEXPIRE', failures, ttlMs)
end
account = redis.call('HGET', streak, 'account') or ''

local count = tonumber(redis.call('HGET', streak, 'count') or '0')
local first = redis.call('ZRANGE', failures, 0, 0, 'WITHSCORES')
local startedAt = #first > 0 and tonumber(first[2]) or 0
local warnAt = tonumber(ARGV[11] or '0')
local warn = 0
-- The streak as it stood at this failure: workers count failures too (attempt-finish.lua), so the count may
-- already hold later ones (and a suspension). The warning is decided, and described, by where this one stood.
local reached = count
if mode == 'failure' then reached = count - redis.call('ZCOUNT', failures, '(' .. at, '+inf') end
if mode == 'failure' and warnAt > 0 and reached >= warnAt and #first > 0 then
  warn = redis.call('HSETNX', streak, 'warned', now)
end
if count < threshold or #first == 0 then return {'counting', count, account, 0, warn, startedAt, reached} end
if redis.call('HEXISTS', KEYS[5], ARGV[13]) == 1 then
  return {'counting', count, account, 0, warn, startedAt, reached}
end
if now < startedAt + windowMs then
  return {'due', count, account, startedAt + windowMs, warn, startedAt, reached}
end

local pausedField, leaseUntil = ARGV[12], now + leaseMs
--!include streak-pause.lua
if paused then return {'suspend', count, account, startedAt, warn, startedAt, reached} end
local unrecorded = redis.call('HGET', streak, 'unrecorded')
if unrecorded and now >= tonumber(redis.call('HGET', streak, 'lease_until') or '0') then
  redis.call('HSET', streak, 'lease_until', now + leaseMs)
  return {'suspend', count, account, tonumber(unrecorded), warn, startedAt, reached}
end
return {'counting', count, account, 0, warn, startedAt, reached}
