-- KEYS: index. ARGV: account id. The score only grows, so recovery can tell a quiet account from a busy one.
--!include now-ms.lua
redis.call('ZADD', KEYS[1], 'GT', now, ARGV[1])
