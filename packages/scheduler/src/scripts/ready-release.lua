-- KEYS: ready set, leases, lease holders, signalled while leased. ARGV: now (ms), holder id, hook ids...
-- Gives leases back, each only if this holder still has it (see lease-release.lua; attempt-finish.lua gives a
-- lease back the same way when the outcome it records leaves the hook's queue empty). Returns 1 or 0 per hook,
-- in order.
--!include lease-release.lua
local released = {}
for i = 3, #ARGV do
  released[#released + 1] = releaseLease(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[i], ARGV[2], ARGV[1])
end
return released
