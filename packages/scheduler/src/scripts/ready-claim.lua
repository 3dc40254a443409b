-- KEYS: ready set, leases, lease holders, signalled while leased. ARGV: now (ms), lease expiry (ms), most
-- hooks to claim, holder id, ids already popped...
-- Claims up to ARGV[3] hooks for holder ARGV[4]: first the ids the caller already popped (ARGV[5..]), then
-- more from the set (lease-claim.lua, shared with attempt-claim-take.lua). Returns the ids claimed.
--!include lease-claim.lua
local popped = {}
for i = 5, #ARGV do popped[#popped + 1] = ARGV[i] end
return claimHooks(KEYS[1], KEYS[2], KEYS[3], KEYS[4], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]),
  ARGV[4], popped)
