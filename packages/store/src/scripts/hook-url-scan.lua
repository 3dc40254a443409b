-- One slice of a search of the hooks' endpoint URLs: HSCAN from the cursor, keeping the hooks whose URL (kept in
-- lower case) contains the text, so that only those leave Redis. The caller checks each against the hook's
-- record (there, case matters after the host), so an entry that is stale only costs that read. A plain find,
-- no pattern and no copy: the slice's time is HSCAN's own.
-- KEYS[1] the index (HASH hook id -> '<record version> <url in lower case>').
-- ARGV[1] HSCAN cursor, ARGV[2] HSCAN COUNT, ARGV[3] the text, in lower case.
-- Returns { the next cursor ('0' at the end), { hook id, ... } }.
local reply = redis.call('HSCAN', KEYS[1], ARGV[1], 'COUNT', ARGV[2])
local entries = reply[2]
local found = {}
for i = 2, #entries, 2 do
  local entry = entries[i]
  local url = string.find(entry, ' ', 1, true)
  if url and string.find(entry, ARGV[3], url + 1, true) then found[#found + 1] = entries[i - 1] end
end
return { reply[1], found }
