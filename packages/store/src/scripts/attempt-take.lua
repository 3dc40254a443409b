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
-- BullMQ's reply for a job it took: {the job's fields, its id, 0, 0}, the job locked under this token.
if type(job) == 'table' and type(job[1]) == 'table' and type(job[2]) == 'string' then
  local lock = ARGV[2] .. job[2] .. ARGV[3]
  return {job, markAttempt(KEYS[1], KEYS[2], lock, KEYS[3], job[2], ARGV[1], ARGV[4], 'ask', ARGV, #ARGV + 1)}
end
return {job}
