-- KEYS: history outbox, attempt, hook record, streak, streak failures, the job's lock, and optionally the job's
-- hash. ARGV: record JSON, outbox idle ttl ms, event id, streak step ('delivered' | 'failure' | ''), attempt time
-- ms, ttl ms, the caller's lock token, and with the job's hash its data without the event's fields.
-- The job's data is emptied with the outcome: once recorded, nothing needs the payload in Redis (the worker has
-- it in memory, the record is in the outbox), so the finished job BullMQ keeps holds ids and outcome only.
-- Returns 1 when recorded (or already recorded by this holder: its client resent the call after a reconnect);
-- 0 when the hook was deleted while its request was in flight (its keys are gone and stay gone); -1 when the
-- caller no longer holds the job's lock; -2 when the attempt key is not this event's (a finish never touches
-- another attempt's marker).
if redis.call('GET', KEYS[6]) ~= ARGV[7] then return -1 end
local current = redis.call('GET', KEYS[2])
if current == ARGV[3] .. ':done' then return 1 end
if current ~= ARGV[3] and (not current or string.sub(current, 1, #ARGV[3] + 1) ~= ARGV[3] .. ' ') then return -2 end
if redis.call('EXISTS', KEYS[3]) == 0 then return 0 end
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], ARGV[3] .. ':done')
if KEYS[7] and ARGV[8] and redis.call('HEXISTS', KEYS[7], 'data') == 1 then redis.call('HSET', KEYS[7], 'data', ARGV[8]) end
local streak, failures, at = KEYS[4], KEYS[5], tonumber(ARGV[5])
if ARGV[4] == 'delivered' then
  if redis.call('EXISTS', streak) == 1 then
--!include streak-apply-delivered.lua
  end
elseif ARGV[4] == 'failure' then
  if redis.call('HSETNX', streak, 'count', 0) == 1 then redis.call('PEXPIRE', streak, ARGV[6]) end
end
return 1
