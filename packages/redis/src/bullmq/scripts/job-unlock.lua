-- KEYS: an active job's lock. ARGV: the caller's lock token.
-- Lets go of the lock of a job that was never sent (its attempt withdrawn: no replica acknowledged the mark, or
-- the holder stalled), leaving the job active: the next holder takes it over at once (job-adopt.lua) instead of
-- waiting for the lock to expire. (A job the egress proxy kept back is put back in the queue: job-requeue.lua.) Only the
-- caller's own lock. Returns 1 when deleted, 0 when the lock was not (any more) the caller's.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
