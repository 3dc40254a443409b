-- KEYS: per hook, its queue's meta, wait list and active list (any number of hooks on one Redis; on a Redis
-- Cluster, whose slots keep each hook's keys apart, one). ARGV: the paused field, then per hook its queue's job
-- key prefix.
-- What the watchdog and the fleet figures need of each hook, in one round trip:
-- per hook {events waiting, jobs active, paused (1/0), when the oldest waiting event was added (ms; 0 when none)}.
-- BullMQ adds jobs on the left of the wait list and takes them from the right, so the oldest is at -1.
local backlogs = {}
for i = 1, #KEYS / 3 do
  local meta, wait, active = KEYS[3 * i - 2], KEYS[3 * i - 1], KEYS[3 * i]
  local waiting = redis.call('LLEN', wait)
  local oldest = 0
  if waiting > 0 then
    local id = redis.call('LINDEX', wait, -1)
    oldest = tonumber(redis.call('HGET', ARGV[i + 1] .. id, 'timestamp')) or 0
  end
  backlogs[i] = {waiting, redis.call('LLEN', active), redis.call('HEXISTS', meta, ARGV[1]), oldest}
end
return backlogs
