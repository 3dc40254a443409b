-- Signals hooks (see signal-hook.lua): the publish's signal on a Redis Cluster, where the scheduler's keys live
-- on another shard than the hook's (on one Redis the fenced add signals its hook itself), and every signal that
-- follows no add (a hook given back with work left, recovery, the watchdog).
-- KEYS: ready set, leases, signalled while leased, hooks with work. ARGV: now (ms), hook ids...
--!include signal-hook.lua
local now = tonumber(ARGV[1])
for i = 2, #ARGV do
  signalHook(KEYS[1], KEYS[2], KEYS[3], KEYS[4], now, ARGV[i])
end
