-- KEYS: account hooks set, account hook-filters hash. ARGV: hook id, filter JSON ('' = no filter).
-- Only while the hook is in the account's index: an update racing a delete must not leave an entry behind.
-- Returns 1 when set, 0 when the hook is not (or no longer) the account's.
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 0 then return 0 end
if ARGV[2] == '' then
  redis.call('HDEL', KEYS[2], ARGV[1])
else
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
end
return 1
