-- KEYS: index. ARGV: account ids... The score only grows, so recovery can tell a quiet account from a busy one.
--!include now-ms.lua
for i = 1, #ARGV do redis.call('ZADD', KEYS[1], 'GT', now, ARGV[i]) end
