-- KEYS: inbox. ARGV: grace (ms), most entries.
--!include now-ms.lua
return redis.call('XRANGE', KEYS[1], '-', string.format('%d', now - tonumber(ARGV[1])), 'COUNT', tonumber(ARGV[2]))
