-- KEYS: index. ARGV: grace (ms), most accounts.
--!include now-ms.lua
return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', string.format('%d', now - tonumber(ARGV[1])),
  'LIMIT', 0, tonumber(ARGV[2]))
