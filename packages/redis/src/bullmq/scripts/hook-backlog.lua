-- KEYS: the hook queue's meta, wait list, active list. ARGV: the queue's job key prefix, the paused field.
-- What the watchdog and the fleet figures need of one hook, in one round trip on the hook's shard:
-- {events waiting, jobs active, paused (1/0), when the oldest waiting event was added (ms; 0 when none)}.
-- BullMQ adds jobs on the left of the wait list and takes them from the right, so the oldest is at -1.
local waiting = redis.call('LLEN', KEYS[2])
local active = redis.call('LLEN', KEYS[3])
local paused = redis.call('HEXISTS', KEYS[1], ARGV[2])
local oldest = 0
if waiting > 0 then
  local id = redis.call('LINDEX', KEYS[2], -1)
  oldest = tonumber(redis.call('HGET', ARGV[1] .. id, 'timestamp')) or 0
end
return {waiting, active, paused, oldest}
