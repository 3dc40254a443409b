-- Changes a hook's hash only if the hook still exists (and belongs to the account, when one is given), so
-- an update racing a delete cannot resurrect half a record.
-- KEYS[1] hook record. ARGV[1] owning account id ('' = any), ARGV[2] '1' to bump the version,
-- ARGV[3] how many fields to delete, then those fields, then field/value pairs to set.
-- Returns -1 when the hook is gone or not the account's, else the version.
if redis.call('HGET', KEYS[1], 'id') == false then return -1 end
if ARGV[1] ~= '' and redis.call('HGET', KEYS[1], 'account_id') ~= ARGV[1] then return -1 end
local deletions = tonumber(ARGV[3])
for i = 4, 3 + deletions do redis.call('HDEL', KEYS[1], ARGV[i]) end
local first = 4 + deletions
if #ARGV >= first then redis.call('HSET', KEYS[1], unpack(ARGV, first)) end
if ARGV[2] == '1' then return redis.call('HINCRBY', KEYS[1], 'version', 1) end
return tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
