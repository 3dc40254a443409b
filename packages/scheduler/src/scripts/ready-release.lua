-- KEYS: ready set, leases, lease holders, signalled while leased. ARGV: now (ms), holder id, hook ids...
-- Gives leases back, each only if this holder still has it (release-hook.lua). Returns 1 or 0 per hook, in
-- order.
--!include release-hook.lua
local released = {}
for i = 3, #ARGV do
  released[#released + 1] = releaseHook(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], ARGV[2], ARGV[i])
end
return released
