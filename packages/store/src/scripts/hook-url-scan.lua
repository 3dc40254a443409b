-- One slice of a search of the hooks' endpoint URLs: HSCAN from the cursor, keeping the hooks whose URL contains
-- the text in any case (ASCII), so that only those leave Redis. The caller checks each against the hook's
-- record (there, case matters after the host), so an entry that is stale only costs that read.
-- KEYS[1] the index (HASH hook id -> '<record version> <url>').
-- ARGV[1] HSCAN cursor, ARGV[2] HSCAN COUNT, ARGV[3] the text, in lower case.
-- Returns { the next cursor ('0' at the end), { hook id, ... } }.
local reply = redis.call('HSCAN', KEYS[1], ARGV[1], 'COUNT', ARGV[2])
local entries = reply[2]
local found = {}
for i = 1, #entries, 2 do
  local url = string.match(entries[i + 1], '^%d+ (.*)$')
  if url and string.find(string.lower(url), ARGV[3], 1, true) then found[#found + 1] = entries[i] end
end
return { reply[1], found }
