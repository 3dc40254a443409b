-- KEYS: attempt, the job's lock. ARGV: event id, the caller's lock token.
-- Takes back an attempt mark that the replicas did not acknowledge (HOOKLINE_REDIS_REPLICA_ACKS) before its
-- request left, so that whoever takes the job next sends it instead of recording `unknown`: nothing was sent.
-- Only the caller's own open mark, and only while it holds the lock. Returns 1 when withdrawn, 0 otherwise.
-- If this write is lost in a failover while the mark survives, the event ends `unknown`: never sent twice.
if redis.call('GET', KEYS[2]) ~= ARGV[2] then return 0 end
if redis.call('GET', KEYS[1]) ~= ARGV[1] .. ' ' .. ARGV[2] then return 0 end
redis.call('DEL', KEYS[1])
return 1
