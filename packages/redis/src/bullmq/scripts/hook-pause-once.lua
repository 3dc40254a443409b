-- Sets BullMQ's paused flag only if it was not set (and only on a queue that exists: a deleted hook's meta is
-- gone), and clears the marker as BullMQ's pause does, so a worker blocked on it is not woken for nothing.
-- KEYS: queue meta, queue marker. ARGV: the paused field. Returns 1 when this call paused the queue.
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('HSETNX', KEYS[1], ARGV[1], 1) == 0 then return 0 end
redis.call('DEL', KEYS[2])
return 1
