-- KEYS: the hook's attempt key, its record, its erasing set, then BullMQ's moveToActive's eleven keys. ARGV:
-- the taker's lock token, the prefix and suffix of the hook's job locks around a job id, the version of the
-- caller's cached target ('' = none), then moveToActive's three arguments (HookJobs.prepareTake).
-- Takes the hook's next waiting job with BullMQ's moveToActive as shipped and, when it took one, marks that
-- job's attempt in the same script, as attempt-begin.lua would (erasure tags asked for): a quiet hook's event
-- is taken and begun in one round trip. Replies {BullMQ's reply} or {BullMQ's reply, the mark's reply}.
-- BullMQ's script whole, as the body of a function of its own KEYS and ARGV: its returns end the function.
local function bullmqTake(KEYS, ARGV)
--!bullmq moveToActive
end
--!include attempt-mark.lua
local keys, argv = {}, {}
for i = 4, #KEYS do keys[#keys + 1] = KEYS[i] end
for i = 5, #ARGV do argv[#argv + 1] = ARGV[i] end
local job = bullmqTake(keys, argv)
local mark = markTaken(job, KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2], ARGV[3], ARGV[4])
if mark then return {job, mark} end
return {job}
