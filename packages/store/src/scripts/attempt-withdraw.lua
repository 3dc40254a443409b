-- KEYS: attempt, the job's lock. ARGV: event id, the caller's lock token.
-- Takes back the caller's own open mark when nothing of its request was written, so that whoever takes the job
-- next (this holder after a back-off, or another after a takeover) sends the event instead of recording
-- `unknown`. Two callers: the replicas did not acknowledge the mark (HOOKLINE_REDIS_REPLICA_ACKS), or the
-- egress proxy refused the tunnel or could not be reached. Fenced like the others: only while the caller holds
-- the lock. If this write is lost in a failover while the mark survives, the event ends `unknown`: never sent
-- twice. Returns 0 when fenced, 1 when the mark was taken back, 2 when the lock is the caller's but the mark
-- was not (already taken back: a resent call).
if redis.call('GET', KEYS[2]) ~= ARGV[2] then return 0 end
if redis.call('GET', KEYS[1]) ~= ARGV[1] .. ' ' .. ARGV[2] then return 2 end
redis.call('DEL', KEYS[1])
return 1
