-- KEYS: inbox, account hooks set, account hook-events hash, account hook-filters hash, idempotency key (only for
-- an event with an id, or a test or send-again with a request's Idempotency-Key), the index of accounts with inbox entries (only when ARGV[14] names the account).
-- ARGV: event id, event JSON, accepted at (ms), idempotency TTL (s), grace (ms), most abandoned entries to
-- return, hook ids as a JSON array ('' = the account's hooks now that subscribe to the kind and whose filter the
-- event's fields match; a list given is used as it is: a send-again goes to its hook), fingerprint of the
-- request ('' = none), the event's kind, what queued it ('' = the event's own publish, else test / manual /
-- probe), the attempt id it was made for ('' = none: one is made at the attempt), the W3C traceparent and
-- tracestate it carries ('' = none), the account to mark in the index recovery walks when an entry is written
-- ('' = none: the caller marked it already, or recently; on a Redis Cluster the index lives on another shard).
-- The same idempotency key with another fingerprint is a conflict: a producer bug, never a silent 200.
--
-- Adds prepared by the caller (one Redis only: the hooks' queues and the scheduler's keys are written by this
-- script, which a Redis Cluster's slots forbid): ARGV[15] is how many, ARGV[16] now (ms, the caller's clock,
-- as the scheduler's leases), ARGV[17] the field of a queue's meta that says it is paused (BullMQ's), ARGV[18]
-- how long a done event's deduplication keys live (ms), then per add the hook id, BullMQ's addStandardJob's
-- three arguments, its deduplication key (undeclared: a non-Cluster Redis only) and its queue's meta (one of
-- its nine keys; named here so that only packages/redis/src/bullmq knows BullMQ's layout); KEYS
-- end with each add's nine queue keys, then the scheduler's four (ready set, leases, signalled while leased,
-- hooks with work). After the adds' arguments (ARGV[19 + 6 × adds]; ARGV[15] is then sent, 0, without adds):
-- the event's erasure tags, space-separated ('' or absent = none), kept in the idempotency key's answer when
-- no hook gets the event: that key is then all Redis keeps of it (its name often the call's id), and an
-- erasure of its call or number finds it by them. They are made here, instead of an inbox entry, when the hooks found are exactly the
-- prepared ones, in order, and no entry is abandoned (whose events come first): the event is then in every
-- hook's queue, its hooks signalled, in the write that accepts it, and there is nothing left to fan out or
-- recover. Otherwise the entry is written as without them, and the caller fans out.
--
-- Replies {kind, answer JSON, pending entry (a duplicate whose fan-out is unfinished), abandoned entries, the
-- server's time (ms) of this read: no later than every entry it hands out was read, so the fan-outs of these
-- entries are fenced from it, the adds made ({job id, 1 when its queue is paused} each; empty when none), why
-- the prepared adds were stopped ('' when they were not)};
-- the answer JSON names the new entry ("entry", '' when there is none: no hooks, or the adds were made), and the
-- attempt it was queued for ("attempt", a send-again's only): a send-again's key answers its attempt id again.
--!include now-ms.lua
--!include filter-match.lua
--!include signal-hook.lua
-- BullMQ's script whole, as the body of a function of its own KEYS and ARGV: its returns end the function.
local function bullmqAdd(KEYS, ARGV)
--!bullmq addStandardJob
end
local prepared = tonumber(ARGV[15] or '0') or 0
local acceptKeys = #KEYS - (prepared > 0 and prepared * 9 + 4 or 0)
local marked = ARGV[14] and ARGV[14] ~= ''
local inbox, hooksKey, eventsKey, filtersKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local idemKey = (acceptKeys - (marked and 1 or 0) >= 5) and KEYS[5] or nil
-- XRANGE … COUNT 0 answers nil, not an empty list: a caller that wants no abandoned entries asks for none.
local abandoned = {}
if tonumber(ARGV[6]) > 0 then
  abandoned = redis.call('XRANGE', inbox, '-', string.format('%d', now - tonumber(ARGV[5])),
    'COUNT', tonumber(ARGV[6]))
end
if idemKey then
  local earlier = redis.call('GET', idemKey)
  if earlier then
    local fp = string.match(earlier, '"fp":"([0-9a-f]+)"')
    if fp and ARGV[8] ~= '' and fp ~= ARGV[8] then return {'conflict', earlier, {}, abandoned, now} end
    local entry = string.match(earlier, '"entry":"([0-9-]+)"')
    local pending = {}
    if entry then pending = redis.call('XRANGE', inbox, entry, entry) end
    return {'duplicate', earlier, pending, abandoned, now}
  end
end
local hooks
if ARGV[7] ~= '' then
  hooks = cjson.decode(ARGV[7])
else
  -- The account's hooks that want this kind: '*' (or no entry) is every kind; else a comma-separated list.
  local all = redis.call('SMEMBERS', hooksKey)
  table.sort(all)
  local wants = {}
  local flat = redis.call('HGETALL', eventsKey)
  for i = 1, #flat, 2 do wants[flat[i]] = flat[i + 1] end
  local needle = ',' .. ARGV[9] .. ','
  -- Filters are read with the subscriptions (one slot), and the event decoded only if a hook has one.
  local filters = {}
  local flatFilters = redis.call('HGETALL', filtersKey)
  for i = 1, #flatFilters, 2 do filters[flatFilters[i]] = flatFilters[i + 1] end
  local fields
  hooks = {}
  for _, hook in ipairs(all) do
    local w = wants[hook]
    if not w or w == '*' or string.find(',' .. w .. ',', needle, 1, true) then
      local f = filters[hook]
      if f then fields = fields or cjson.decode(ARGV[2]).fields or {} end
      if not f or filter_matches(cjson.decode(f), fields) then hooks[#hooks + 1] = hook end
    end
  end
end
-- The prepared adds apply when they are the hooks found, in order. addArg(i, k): the kth argument of add i
-- (1 hook id, 2–4 BullMQ's, 5 deduplication key, 6 meta).
local function addArg(i, k) return ARGV[18 + (i - 1) * 6 + k] end
local matches = prepared > 0 and prepared == #hooks and #abandoned == 0
for i = 1, (matches and prepared or 0) do
  if addArg(i, 1) ~= hooks[i] then matches = false end
end
local added, failed = {}, ''
if matches then
  local s = acceptKeys + prepared * 9
  for i = 1, prepared do
    local queueKeys = {}
    for k = 1, 9 do queueKeys[k] = KEYS[acceptKeys + (i - 1) * 9 + k] end
    local ok, id = pcall(bullmqAdd, queueKeys, {addArg(i, 2), addArg(i, 3), addArg(i, 4)})
    -- A queue that refuses the add (a key of the wrong type: BullMQ's error, or its code) stops the adds here;
    -- those made keep their deduplication keys' hour, and the event gets its inbox entry below, as without
    -- prepared adds: the caller's fan-out adds the rest, and repeats none (the same ids, deduplicated).
    if not ok or type(id) ~= 'string' then
      failed = 'the add to hook ' .. hooks[i] .. ' failed: ' .. tostring(type(id) == 'table' and id.err or id)
      matches = false
      break
    end
    signalHook(KEYS[s + 1], KEYS[s + 2], KEYS[s + 3], KEYS[s + 4], tonumber(ARGV[16]), hooks[i])
    added[#added + 1] = id
    added[#added + 1] = redis.call('HEXISTS', addArg(i, 6), ARGV[17])
  end
end
if matches then
  -- Done at once: no fan-out of this event can add again, so its deduplication keys get what a done fan-out's
  -- are cut to (InboxTidy) in this script.
  for i = 1, prepared do redis.call('PEXPIRE', addArg(i, 5), ARGV[18], 'LT') end
else
  added = {}
end
local hooksJson = '[]'
local entry = ''
if #hooks > 0 then
  hooksJson = '["' .. table.concat(hooks, '","') .. '"]'
end
if #hooks > 0 and not matches then
  -- inbox-mark.lua's write, in this script on one Redis: the account is in the index no later than its entry
  -- is written, without a round trip of its own before the accept. Only with an entry: an event whose adds
  -- this script made leaves nothing to recover, and its account nothing for recovery to visit.
  if marked then redis.call('ZADD', KEYS[acceptKeys], 'GT', now, ARGV[14]) end
  local fields = {'event', ARGV[2], 'hooks', hooksJson, 'at', ARGV[3]}
  local function add(name, value) fields[#fields + 1] = name; fields[#fields + 1] = value end
  -- A send-again always names what queued it, with its attempt.
  if (ARGV[11] and ARGV[11] ~= '') or (ARGV[10] and ARGV[10] ~= '') then add('trigger', ARGV[10]) end
  if ARGV[11] and ARGV[11] ~= '' then add('attempt', ARGV[11]) end
  if ARGV[12] and ARGV[12] ~= '' then add('traceparent', ARGV[12]) end
  if ARGV[13] and ARGV[13] ~= '' then add('tracestate', ARGV[13]) end
  entry = redis.call('XADD', inbox, '*', unpack(fields))
end
local answer = '{"id":"' .. ARGV[1] .. '","hooks":' .. hooksJson .. ',"entry":"' .. entry .. '","fp":"' .. ARGV[8] .. '"'
if ARGV[11] and ARGV[11] ~= '' then answer = answer .. ',"attempt":"' .. ARGV[11] .. '"' end
local tags = ARGV[19 + prepared * 6]
if #hooks == 0 and tags and tags ~= '' then answer = answer .. ',"tags":"' .. tags .. '"' end
answer = answer .. '}'
if idemKey then redis.call('SET', idemKey, answer, 'EX', tonumber(ARGV[4])) end
-- The caller has the event, the hooks (in the answer) and the time: the new entry is not read back.
return {'accepted', answer, {}, abandoned, now, added, failed}
