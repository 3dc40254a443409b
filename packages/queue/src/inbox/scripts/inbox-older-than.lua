-- KEYS: inbox. ARGV: grace (ms), most entries.
-- Replies {the server's time (ms) of this read, which the entries' fan-outs are fenced from; the entries}.
--!include now-ms.lua
return {now, redis.call('XRANGE', KEYS[1], '-', string.format('%d', now - tonumber(ARGV[1])), 'COUNT',
  tonumber(ARGV[2]))}
