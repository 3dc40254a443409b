-- KEYS: BullMQ's addStandardJob's nine keys of a hook queue (wait, paused, meta, id, completed, delayed, active,
-- events stream, marker), then, on one Redis, the scheduler's four (ready set, leases, signalled while leased,
-- hooks with work). ARGV: addStandardJob's three (packed arguments, job data, packed options), then the
-- fan-out's read time (ms, the Redis server's clock: TIME taken no later than the read that handed the fan-out
-- its inbox entry) and how old that read may be (FANOUT_STALE_MS), then, with the scheduler's keys, now (ms)
-- and the hook's id.
-- BullMQ's own add, unchanged, behind a fence: a fan-out that read its entry longer ago than that is refused
-- (returns -1000, which BullMQ never returns) and adds nothing. A fan-out that stalled (a frozen process, a
-- long pause) may have read the entry before it was done, and the hook's deduplication key is shortened once
-- the entry is done: so a stale fan-out must not add at all. The entry stays, and the producer's retry or
-- recovery fans it out again with a fresh read time. The clock is this server's, the read time may come from
-- another shard's: the deduplication key's shortened life leaves a margin for the skew between them.
-- Replies {job id, 1 when the queue is paused (its events held), else 0} for an add BullMQ made, or a number:
-- -1000 for a stale fan-out, BullMQ's own error codes.
do
  local t = redis.call('TIME')
  if tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) - tonumber(ARGV[4]) > tonumber(ARGV[5]) then
    return -1000
  end
end
--!include signal-hook.lua
-- BullMQ's script whole, as the body of a function: its returns end the function, not this script.
local function bullmqAdd()
--!bullmq addStandardJob
end
local added = bullmqAdd()
-- Given the scheduler's keys (one Redis: on a Cluster they live on another shard, and the fan-out signals
-- after its adds), the add signals its hook in the same script: a worker told of the hook finds the job there,
-- and the publish saves the signal's round trip. A job id is a string; BullMQ's error codes are numbers.
if KEYS[10] and type(added) == 'string' then
  signalHook(KEYS[10], KEYS[11], KEYS[12], KEYS[13], tonumber(ARGV[6]), ARGV[7])
end
-- The queue's paused flag (the field BullMQ's add reads above, in the queue's meta, KEYS[3]), read where the
-- job went in: the fan-out learns which hooks hold their events (the hold cap) without a command per hook.
if type(added) == 'string' then return {added, redis.call('HEXISTS', KEYS[3], 'paused')} end
return added
