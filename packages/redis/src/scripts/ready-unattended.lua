-- KEYS: ready set, leases. ARGV: now (ms), hook ids...
-- Returns the hooks no worker will come to by itself: in neither the ready set nor under a live lease. (An
-- expired lease counts as none: its holder is gone, and a live worker would have put the hook back already.)
local now = tonumber(ARGV[1])
local unattended = {}
for i = 2, #ARGV do
  local id = ARGV[i]
  if not redis.call('ZSCORE', KEYS[1], id) then
    local expiry = tonumber(redis.call('ZSCORE', KEYS[2], id))
    if not expiry or expiry <= now then unattended[#unattended + 1] = id end
  end
end
return unattended
