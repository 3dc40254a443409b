-- KEYS: an active job's lock. ARGV: the caller's lock token.
-- Lets go of the lock of a job that was never sent (the egress proxy kept it back), leaving the job active: the
-- next holder takes it over at once (job-adopt.lua) instead of waiting for the lock to expire. Only the
-- caller's own lock. Returns 1 when deleted, 0 when the lock was not (any more) the caller's.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
