-- KEYS: inbox, account hooks set, account hook-events hash, account hook-filters hash, idempotency key (only for
-- an event with an id), the index of accounts with inbox entries (only when ARGV[14] names the account).
-- ARGV: event id, event JSON, accepted at (ms), idempotency TTL (s), grace (ms), most abandoned entries to
-- return, hook ids as a JSON array ('' = the account's hooks now that subscribe to the kind and whose filter the
-- event's fields match; a list given is used as it is: a send-again goes to its hook), fingerprint of the
-- request ('' = none), the event's kind, what queued it ('' = the event's own publish, else test / manual /
-- probe), the attempt id it was made for ('' = none: one is made at the attempt), the W3C traceparent and
-- tracestate it carries ('' = none), the account to mark in the index recovery walks ('' = none: the caller
-- marked it already, or recently; on a Redis Cluster the index lives on another shard).
-- The same idempotency key with another fingerprint is a conflict: a producer bug, never a silent 200.
-- Replies {kind, answer JSON, pending entry (a duplicate whose fan-out is unfinished), abandoned entries, the
-- server's time (ms) of this read: no later than every entry it hands out was read, so the fan-outs of these
-- entries are fenced from it}; the answer JSON names the new entry ("entry", '' when the account has no hooks).
--!include now-ms.lua
--!include filter-match.lua
local marked = ARGV[14] and ARGV[14] ~= ''
local inbox, hooksKey, eventsKey, filtersKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local idemKey = (#KEYS - (marked and 1 or 0) >= 5) and KEYS[5] or nil
-- inbox-mark.lua's write, in this script on one Redis: the account is in the index no later than its entry is
-- written, without a round trip of its own before the accept.
if marked then redis.call('ZADD', KEYS[#KEYS], 'GT', now, ARGV[14]) end
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
local hooksJson = '[]'
local entry = ''
if #hooks > 0 then
  hooksJson = '["' .. table.concat(hooks, '","') .. '"]'
  local fields = {'event', ARGV[2], 'hooks', hooksJson, 'at', ARGV[3]}
  local function add(name, value) fields[#fields + 1] = name; fields[#fields + 1] = value end
  -- A send-again always names what queued it, with its attempt.
  if (ARGV[11] and ARGV[11] ~= '') or (ARGV[10] and ARGV[10] ~= '') then add('trigger', ARGV[10]) end
  if ARGV[11] and ARGV[11] ~= '' then add('attempt', ARGV[11]) end
  if ARGV[12] and ARGV[12] ~= '' then add('traceparent', ARGV[12]) end
  if ARGV[13] and ARGV[13] ~= '' then add('tracestate', ARGV[13]) end
  entry = redis.call('XADD', inbox, '*', unpack(fields))
end
local answer = '{"id":"' .. ARGV[1] .. '","hooks":' .. hooksJson .. ',"entry":"' .. entry .. '","fp":"' .. ARGV[8] .. '"}'
if idemKey then redis.call('SET', idemKey, answer, 'EX', tonumber(ARGV[4])) end
-- The caller has the event, the hooks (in the answer) and the time: the new entry is not read back.
return {'accepted', answer, {}, abandoned, now}
