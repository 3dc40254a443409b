-- KEYS: inbox, and on one Redis the index of accounts with inbox entries. ARGV: grace (ms), most entries, and
-- with the index the account's id.
-- Replies {the server's time (ms) of this read, which the entries' fan-outs are fenced from; the entries}.
-- With the index, an account whose inbox is empty is dropped from it here (inbox-forget.lua's rule, in the same
-- script: only when its mark is older than the grace period, so a publish that marked it since stays indexed),
-- saving recovery's look at the inbox's length and its forget, two round trips for every account that went quiet.
--!include now-ms.lua
local entries = redis.call('XRANGE', KEYS[1], '-', string.format('%d', now - tonumber(ARGV[1])), 'COUNT',
  tonumber(ARGV[2]))
if KEYS[2] and #entries == 0 and redis.call('XLEN', KEYS[1]) == 0 then
  local score = tonumber(redis.call('ZSCORE', KEYS[2], ARGV[3]) or '-1')
  if score >= 0 and score <= now - tonumber(ARGV[1]) then redis.call('ZREM', KEYS[2], ARGV[3]) end
end
return {now, entries}
