-- KEYS: per hook, its history outbox and its erasure counter (one Redis only: the hooks' hash tags differ, which
-- a Redis Cluster's slots forbid in one script; there, each hook is read by a transaction of its own).
-- ARGV: most records to read from one outbox, most records to read in this call.
-- Reads the hooks in order, each hook's oldest records with its counter at the same moment (the ack compares
-- it), and stops after the hook that brings the records read to the second limit: a backlog is read in several
-- calls, none of which holds Redis for long. Replies per hook read {its records, its counter ('' when none)}.
local perHook, perCall = tonumber(ARGV[1]), tonumber(ARGV[2])
local read, total = {}, 0
for i = 1, #KEYS, 2 do
  local entries = redis.call('LRANGE', KEYS[i], 0, perHook - 1)
  read[#read + 1] = {entries, redis.call('GET', KEYS[i + 1]) or ''}
  total = total + #entries
  if total >= perCall then break end
end
return read
