-- KEYS: attempt, the job's lock. ARGV: event id, the caller's lock token.
-- The egress proxy refused the tunnel or could not be reached: nothing of the request was written. The mark
-- attempt-begin.lua set is taken back, so that whoever sends the event later (this holder after a back-off,
-- or another after a takeover) sees it as never attempted and sends it, instead of recording `unknown`.
-- Fenced like the others: a holder that lost the job changes nothing. Returns 1, or 0 when fenced.
if redis.call('GET', KEYS[2]) ~= ARGV[2] then return 0 end
if redis.call('GET', KEYS[1]) == ARGV[1] .. ' ' .. ARGV[2] then redis.call('DEL', KEYS[1]) end
return 1
