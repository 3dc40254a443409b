-- Drops an account from the index unless it accepted an event within the grace period: a publish racing
-- this call has marked the account (fresh score) before writing its entry, so it stays indexed.
-- KEYS: index. ARGV: account id, grace (ms).
--!include now-ms.lua
local score = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1]) or '-1')
if score >= 0 and score <= now - tonumber(ARGV[2]) then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0
