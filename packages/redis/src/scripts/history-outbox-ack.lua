-- KEYS: an outbox of records waiting for the database (a hook's history outbox, or the audit outbox), and
-- for a hook's outbox its erasure counter.
-- ARGV: how many records from its head were written to the database, the last of them exactly as read, and
-- with the counter its value as read with the records ('' when it did not exist).
-- Trims exactly those records, and only if they are still at the head: two writers that read the same head
-- (a marker taken over after a stall) can never trim records that neither has written. Nor if an erasure
-- emptied records since the writer read them (the counter moved), wherever they are among those read: the
-- writer then reads the emptied records and writes them over what it wrote. Returns the records left in the
-- outbox, or -1 when nothing was trimmed.
local n = tonumber(ARGV[1])
if redis.call('LINDEX', KEYS[1], n - 1) ~= ARGV[2] then return -1 end
if KEYS[2] and (redis.call('GET', KEYS[2]) or '') ~= ARGV[3] then return -1 end
redis.call('LTRIM', KEYS[1], n, -1)
return redis.call('LLEN', KEYS[1])
