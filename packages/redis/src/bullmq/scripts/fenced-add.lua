-- KEYS: BullMQ's addStandardJob's nine keys of a hook queue (wait, paused, meta, id, completed, delayed, active,
-- events stream, marker). ARGV: its three (packed arguments, job data, packed options), then the fan-out's
-- read time (ms, the Redis server's clock: TIME taken no later than the read that handed the fan-out its
-- inbox entry) and how old that read may be (FANOUT_STALE_MS).
-- BullMQ's own add, unchanged, behind a fence: a fan-out that read its entry longer ago than that is refused
-- (returns -1000, which BullMQ never returns) and adds nothing. A fan-out that stalled (a frozen process, a
-- long pause) may have read the entry before it was done, and the hook's deduplication key is shortened once
-- the entry is done: so a stale fan-out must not add at all. The entry stays, and the producer's retry or
-- recovery fans it out again with a fresh read time. The clock is this server's, the read time may come from
-- another shard's: the deduplication key's shortened life leaves a margin for the skew between them.
do
  local t = redis.call('TIME')
  if tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) - tonumber(ARGV[4]) > tonumber(ARGV[5]) then
    return -1000
  end
end
--!bullmq addStandardJob
