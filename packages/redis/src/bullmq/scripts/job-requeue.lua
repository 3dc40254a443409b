-- KEYS: an active job's lock, the hook queue's active list, its wait list, the job's hash. ARGV: the caller's lock
-- token, the job id.
-- Puts a job that was never sent (the egress proxy kept it back, its attempt's mark taken back) back at the head
-- of its hook's queue, as if never taken: the next holder takes it first, and while the hook is paused it is
-- held with the events behind it (a job left active would be taken over and sent to a suspended hook, and would
-- look to the watchdog like work with no worker). BullMQ takes from the right of the wait list. Only the
-- caller's own job. What BullMQ's moveToActive wrote when it was taken goes too (started at, by whom, one more
-- attempt started): Bull Board would show a held event as started, one start more for every stop while waiting.
-- Returns 1 when put back, 0 when the lock was not (any more) the caller's.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if redis.call('LREM', KEYS[2], 1, ARGV[2]) == 0 then return 0 end
redis.call('RPUSH', KEYS[3], ARGV[2])
redis.call('DEL', KEYS[1])
redis.call('HDEL', KEYS[4], 'processedOn', 'pb')
if (tonumber(redis.call('HGET', KEYS[4], 'ats')) or 0) > 0 then redis.call('HINCRBY', KEYS[4], 'ats', -1) end
return 1
