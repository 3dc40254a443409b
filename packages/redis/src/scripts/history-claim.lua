-- KEYS: the set of hooks with history to write (ZSET hookId -> since when, or until when a writer holds it).
-- ARGV: now (ms), until when the caller holds what it takes (ms), at most how many hooks.
-- Takes the hooks marked longest ago and not held, and holds them: another writer skips them until the
-- hold ends, and takes them back if the holder died. Returns each hook id with the mark it had (since when
-- its records wait), flat: a round that fails hands that mark back, so the lag keeps counting from it.
local taken = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[3]))
for i = 1, #taken, 2 do redis.call('ZADD', KEYS[1], ARGV[2], taken[i]) end
return taken
