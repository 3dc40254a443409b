-- KEYS: an outbox of records waiting for the database (a hook's history outbox, or the audit outbox).
-- ARGV: how many records from its head were written to the database, the last of them exactly as read.
-- Trims exactly those records, and only if they are still at the head: two writers that read the same head
-- (a marker taken over after a stall) can never trim records that neither has written. Returns the records
-- left in the outbox, or -1 when the head had changed and nothing was trimmed.
local n = tonumber(ARGV[1])
if redis.call('LINDEX', KEYS[1], n - 1) ~= ARGV[2] then return -1 end
redis.call('LTRIM', KEYS[1], n, -1)
return redis.call('LLEN', KEYS[1])
