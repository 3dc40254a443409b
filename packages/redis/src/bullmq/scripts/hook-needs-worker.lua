-- KEYS: the hook queue's meta, wait list, active list. ARGV: the paused field. Returns 1 while the hook needs a worker: events it can
-- take now (not paused, jobs waiting) or a job in progress (whose holder may be gone).
if redis.call('LLEN', KEYS[3]) > 0 then return 1 end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 0 end
if redis.call('LLEN', KEYS[2]) > 0 then return 1 end
return 0
