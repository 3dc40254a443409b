-- KEYS: the scheduler's ready set, leases, lease holders and signalled-while-leased set, then the popped hook's
-- attempt key, its record, its erasing set and BullMQ's moveToActive's eleven keys. ARGV: now (ms), lease
-- expiry (ms), most hooks to claim, holder id, the hook the caller popped from the ready set, then the taker's
-- lock token, the prefix and suffix of the hook's job locks around a job id, the version of the caller's cached
-- target ('' = none) and moveToActive's three arguments (HookJobs.prepareTake).
-- One Redis only (the scheduler's keys and the hook's are in different slots of a Redis Cluster): claims hooks
-- as ready-claim.lua does (lease-claim.lua), and when the popped hook is claimed, takes its next job as
-- attempt-take.lua does, in the same script: a quiet hook's event is claimed, taken and begun in one round
-- trip. Replies {the ids claimed} when the popped hook was not claimed (another holder's live lease), else
-- {the ids claimed, BullMQ's reply} or {the ids claimed, BullMQ's reply, the mark's reply}.
--!include lease-claim.lua
-- BullMQ's script whole, as the body of a function of its own KEYS and ARGV: its returns end the function.
local function bullmqTake(KEYS, ARGV)
--!bullmq moveToActive
end
--!include attempt-mark.lua
local claimed = claimHooks(KEYS[1], KEYS[2], KEYS[3], KEYS[4], tonumber(ARGV[1]), tonumber(ARGV[2]),
  tonumber(ARGV[3]), ARGV[4], {ARGV[5]})
if claimed[1] ~= ARGV[5] then return {claimed} end
local keys, argv = {}, {}
for i = 8, #KEYS do keys[#keys + 1] = KEYS[i] end
for i = 10, #ARGV do argv[#argv + 1] = ARGV[i] end
local job = bullmqTake(keys, argv)
local mark = markTaken(job, KEYS[5], KEYS[6], KEYS[7], ARGV[6], ARGV[7], ARGV[8], ARGV[9])
if mark then return {claimed, job, mark} end
return {claimed, job}
