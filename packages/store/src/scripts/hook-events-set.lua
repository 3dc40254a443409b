-- KEYS: account hooks set, account hook-events hash. ARGV: hook id, subscription ('*' or kinds joined by ',').
-- Only while the hook is in the account's index: an update racing a delete must not leave an entry behind.
-- Returns 1 when set, 0 when the hook is not (or no longer) the account's.
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1
