-- Empties the records of a hook's history outbox (not yet in the database) that an erasure reaches, in
-- place, a window at a time: what is left is core's erasedRecord (ids, times, outcome, status, duration).
-- KEYS: the outbox list, the outbox's erasure counter. ARGV: 'call_id' | 'number', the value, first index, how
-- many, erased at (ISO 8601), the counter's expiry (ms), the personal fields (JSON kind -> names, or '').
-- Emptying a record raises the counter: a writer that read records before they were emptied finds it changed
-- and trims nothing (its ack compares it), reads the emptied records again and writes them over the full rows
-- it may have written meanwhile (the history writer's insert lets an erased record win). So a writer stalled
-- between its read and its insert, for however long, leaves no full row behind.
-- Returns {next index or -1 when the list is done, event ids of the emptied records...}.
--!include erasure-match.lua
local start, count = tonumber(ARGV[3]), tonumber(ARGV[4])
local personal = erasure_personal(ARGV[7])
local entries = redis.call('LRANGE', KEYS[1], start, start + count - 1)
local reply = {#entries < count and -1 or start + #entries}
local kept = {'attempt_id', 'event_id', 'event_type', 'trigger', 'outcome', 'status_code', 'duration_ms',
  'attempted_at', 'account_id', 'hook_id'}
for i, entry in ipairs(entries) do
  local ok, record = pcall(cjson.decode, entry)
  if ok and type(record) == 'table' and record.erased_at == nil then
    local fields = record.event_fields
    local hit = erasure_matches(ARGV[1], ARGV[2], fields, personal, record.event_type)
      or (ARGV[1] == 'call_id' and type(fields) ~= 'table' and record.call_id == ARGV[2])
    if hit then
      local stub = {}
      for _, name in ipairs(kept) do stub[name] = record[name] end
      stub.erased_at = ARGV[5]
      redis.call('LSET', KEYS[1], start + i - 1, cjson.encode(stub))
      reply[#reply + 1] = tostring(record.event_id)
    end
  end
end
if #reply > 1 then
  redis.call('INCR', KEYS[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[6])
end
return reply
