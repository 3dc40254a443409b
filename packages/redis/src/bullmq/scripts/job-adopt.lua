-- KEYS: the hook queue's active list, the hook's attempt key. ARGV: job key prefix, new lock token, lock ms.
-- Takes over the job left active by a holder that is gone (its lock expired: the process died or froze), or
-- a job already locked with this very token (the caller's client resent a call after a reconnect and lost
-- the reply that handed it the job). Workers make a new token for every taking (apps/worker TakingTokens), so
-- the token matches only for that same call, or for the job a lost finish-and-fetch reply handed over.
-- A job whose attempt key says '<job id>:done' is taken over at once, its lock live or not: its outcome is
-- recorded, so no request of it is in flight (the key names the hook's one open attempt, and a request
-- leaves only after its own mark is written) and none can start (attempt-begin answers already_recorded).
-- Only its completion is left, which a failover can lose (moveToFinished is not acknowledged): waiting for
-- the old lock would stall the hook up to a whole lock (25 s) for nothing. The old holder's next write about
-- it is fenced by the new token.
-- Returns {'adopted', job id, job hash fields...}, {'locked', lock ms left} while another holder's lock is
-- live, or {'none'} when no job is active. A hook queue has at most one active job (global concurrency 1).
local ids = redis.call('LRANGE', KEYS[1], 0, -1)
local attempt = redis.call('GET', KEYS[2])
for _, id in ipairs(ids) do
  local lock = ARGV[1] .. id .. ':lock'
  local owner = redis.call('GET', lock)
  if owner and owner ~= ARGV[2] and attempt ~= id .. ':done' then return {'locked', redis.call('PTTL', lock)} end
  if redis.call('EXISTS', ARGV[1] .. id) == 1 then
    redis.call('SET', lock, ARGV[2], 'PX', ARGV[3])
    return {'adopted', id, redis.call('HGETALL', ARGV[1] .. id)}
  end
end
return {'none'}
