-- Puts hooks' endpoint URLs into the index the admin area searches, each only if it is newer than the entry
-- there. The index is a global key and a hook's record lives in the hook's slot, so the two are written in
-- separate steps: an update whose step comes after a later update's (or the walk over hooks made before the
-- index, which read an older record) must not put an older URL back.
-- KEYS[1] the index (HASH hook id -> '<record version> <url in lower case>').
-- ARGV: triples of hook id, the record's version that has this URL, URL.
-- Returns how many entries were written.
local written = 0
for i = 1, #ARGV, 3 do
  local entry = redis.call('HGET', KEYS[1], ARGV[i])
  local version = entry and tonumber(string.match(entry, '^(%d+) '))
  if not version or version < tonumber(ARGV[i + 1]) then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1] .. ' ' .. ARGV[i + 2])
    written = written + 1
  end
end
return written
