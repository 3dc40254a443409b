-- KEYS: ready set, leases. ARGV: now (ms), hook ids...
-- Where each hook stands with the workers, in ARGV's order: 1 signalled (in the ready set, waiting to be
-- claimed), 2 leased (a worker is on it), 0 neither: no worker will come to it by itself. An expired lease
-- counts as none: its holder is gone, and a live worker would have put the hook back already.
local now = tonumber(ARGV[1])
local status = {}
for i = 2, #ARGV do
  local id = ARGV[i]
  local expiry = tonumber(redis.call('ZSCORE', KEYS[2], id))
  if expiry and expiry > now then
    status[#status + 1] = 2
  elseif redis.call('ZSCORE', KEYS[1], id) then
    status[#status + 1] = 1
  else
    status[#status + 1] = 0
  end
end
return status
