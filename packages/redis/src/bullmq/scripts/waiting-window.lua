-- KEYS: a hook queue's wait list. ARGV: the job key prefix, how many events, then where the window starts:
-- either a position (how many of the next to go to pass over), or after an event read before: its job id and
-- when it was accepted (ms).
-- A window of the events waiting for the hook (while it is suspended, those it holds), in delivery order, with
-- its place and the total, read together: the one reader behind the website's held list and the API's
-- GET …/held. BullMQ adds jobs on the left of the wait list and takes them from the right, so position p (0: the
-- next to go) is index -(p + 1).
-- After a job still in the list, the window starts right behind it: events added since are behind it too, and
-- events gone from the head were before it. After a job gone from the list (delivered, discarded or expired
-- from the head, or erased), it starts at the first event accepted at or after that job's time: held events
-- are in acceptance order (the hold cap's held-drop-oldest.lua counts on it too), so what is left from before
-- that job was accepted earlier and is not shown again, and after removals from the head nothing from before
-- it is left. Found by halving (a few LINDEX, not a walk of the list).
-- Returns {total, position of the window's first event, then per event: job id, job data ('' when the job has
-- none), when BullMQ added it (ms, '0' when unknown)}.
local wait, prefix, count = KEYS[1], ARGV[1], tonumber(ARGV[2])
local total = redis.call('LLEN', wait)

-- A job without a readable time is older than any time, as the hold cap counts it.
local function acceptedAt(position)
  local id = redis.call('LINDEX', wait, -(position + 1))
  local ok, job = pcall(cjson.decode, redis.call('HGET', prefix .. id, 'data') or '')
  return ok and type(job) == 'table' and tonumber(job.acceptedAt) or -math.huge
end

local first
if ARGV[4] == nil then
  first = tonumber(ARGV[3])
else
  local index = redis.call('LPOS', wait, ARGV[3])
  if index then
    -- The job is at position total - 1 - index; the window starts one behind it.
    first = total - index
  else
    local after, low, high = tonumber(ARGV[4]), 0, total
    while low < high do
      local middle = math.floor((low + high) / 2)
      if acceptedAt(middle) < after then low = middle + 1 else high = middle end
    end
    first = low
  end
end

local reply = {total, first}
if first < total and count > 0 then
  local ids = redis.call('LRANGE', wait, math.max(0, total - first - count), total - first - 1)
  for i = #ids, 1, -1 do
    local fields = redis.call('HMGET', prefix .. ids[i], 'data', 'timestamp')
    reply[#reply + 1] = ids[i]
    reply[#reply + 1] = fields[1] or ''
    reply[#reply + 1] = fields[2] or '0'
  end
end
return reply
