-- KEYS: the set of hooks with history to write (ZSET hookId -> since when, or until when a writer holds it).
-- ARGV: now (ms), until when the caller holds what it takes (ms), at most how many hooks.
-- Takes the hooks marked longest ago and not held, and holds them: another writer skips them until the
-- hold ends, and takes them back if the holder died. Returns the hook ids.
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(ids) do redis.call('ZADD', KEYS[1], ARGV[2], id) end
return ids
