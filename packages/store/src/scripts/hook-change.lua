-- Changes a hook's hash only if the hook still exists (and belongs to the account, when one is given), so
-- an update racing a delete cannot resurrect half a record; and, when a version is given, only if the record is
-- still at that version, so an update judged against what it read (a client certificate needs an https url)
-- cannot land on a record another update changed meanwhile.
-- KEYS[1] hook record. ARGV[1] owning account id ('' = any), ARGV[2] '1' to bump the version,
-- ARGV[3] the version the caller read ('' = any), ARGV[4] '1' to answer the record as written,
-- ARGV[5] how many fields to delete, then those fields, then field/value pairs to set.
-- Returns -1 when the hook is gone or not the account's, -2 when its version is not the one read, else the
-- version; or, asked for the record, its fields and values as this change left them (HGETALL in the same step:
-- a read after the script could already show a later change's values).
if redis.call('HGET', KEYS[1], 'id') == false then return -1 end
if ARGV[1] ~= '' and redis.call('HGET', KEYS[1], 'account_id') ~= ARGV[1] then return -1 end
-- A record without a version reads as version 1 (parseStoredHook).
if ARGV[3] ~= '' and (redis.call('HGET', KEYS[1], 'version') or '1') ~= ARGV[3] then return -2 end
local deletions = tonumber(ARGV[5])
for i = 6, 5 + deletions do redis.call('HDEL', KEYS[1], ARGV[i]) end
local first = 6 + deletions
if #ARGV >= first then redis.call('HSET', KEYS[1], unpack(ARGV, first)) end
local version
if ARGV[2] == '1' then
  version = redis.call('HINCRBY', KEYS[1], 'version', 1)
else
  version = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
end
if ARGV[4] == '1' then return redis.call('HGETALL', KEYS[1]) end
return version
