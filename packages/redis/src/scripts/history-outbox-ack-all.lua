-- KEYS: per hook, its history outbox and its erasure counter (one Redis only: the hooks' hash tags differ, which
-- a Redis Cluster's slots forbid in one script; there, history-outbox-ack.lua runs once per hook).
-- ARGV: per hook, as history-outbox-ack.lua's: how many records from its head were written to the database, the
-- last of them exactly as read, and the counter's value as read with them ('' when it did not exist).
-- A writer's round acknowledged in one call: each hook's outbox is trimmed, or not, exactly as
-- history-outbox-ack.lua would. Returns per hook the records left, or -1 when nothing was trimmed.
--!include outbox-trim.lua
local left = {}
for i = 1, #KEYS / 2 do
  left[i] = outboxTrim(KEYS[2 * i - 1], KEYS[2 * i], tonumber(ARGV[3 * i - 2]), ARGV[3 * i - 1], ARGV[3 * i])
end
return left
