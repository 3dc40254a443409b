-- A hook change's subscription and filter, in the account's slot (where the accept script reads them), apart
-- from the record in the hook's own slot: a Redis Cluster cannot write both in one step.
-- KEYS: account hooks set, hook-events hash, hook-filters hash, hook-routing-versions hash.
-- ARGV: hook id, the record version the change wrote, events given ('1'/'0'), the subscription ('*' or kinds
-- joined by ','), filter given ('1'/'0'), the filter JSON ('' = no filter).
-- Only while the hook is in the account's index: a change racing a delete must not leave an entry behind.
-- Each of the two is written only if no change of a later version wrote it already: two changes of one hook
-- write their records in version order (hook-change.lua), but the older one's second round trip can land last,
-- and would otherwise leave its subscription beside the newer one's record.
-- Returns 1 (written, or a newer change's kept), 0 when the hook is not (or no longer) the account's.
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 0 then return 0 end
local version = tonumber(ARGV[2])
local function newest(field)
  local written = tonumber(redis.call('HGET', KEYS[4], field) or '0')
  if written > version then return false end
  redis.call('HSET', KEYS[4], field, ARGV[2])
  return true
end
if ARGV[3] == '1' and newest(ARGV[1] .. ' events') then redis.call('HSET', KEYS[2], ARGV[1], ARGV[4]) end
if ARGV[5] == '1' and newest(ARGV[1] .. ' filter') then
  if ARGV[6] == '' then
    redis.call('HDEL', KEYS[3], ARGV[1])
  else
    redis.call('HSET', KEYS[3], ARGV[1], ARGV[6])
  end
end
return 1
