-- Called with the KEYS and ARGV laid out by attempt-finish-call.ts, in the order below.
-- KEYS: history outbox, attempt, hook record, streak, streak failures, the job's lock, and optionally the job's
-- hash; to complete the job in the same script, then the hook's erasing set, the hook's events refused by the
-- fence (a hash), the history writer's set of marked hooks when the hook is marked here, the scheduler's ready
-- set, leases, lease holders and signalled-while-leased set when the lease may be given back here, and BullMQ's
-- moveToFinished's fourteen keys. ARGV: record JSON, outbox idle ttl ms, event id, streak step ('delivered' |
-- 'failure' | ''), attempt time ms, ttl ms, the caller's lock token, and with the job's hash its data without the
-- event's fields; to complete the job, then the prefix and suffix of the hook's job locks around a job id (prefix
-- '' = the next job is not marked), the version of the caller's cached target ('' = none), the mark's time and
-- the hook id (time '' = no mark here, and no set among the KEYS), the fence's entry for an `erased` outcome
-- (`<event id> <tag> <tag>…`, '' = none) and how long the hash of them may live (ms), the lease's holder, the
-- time and the hook id (holder '' = the lease is not given back here, and no scheduler keys among the KEYS), the
-- suspension rule for a failure (threshold, '' = not decided here; window ms; failures kept; now; the event id;
-- the account id; BullMQ's paused field; the hook id when the suspension-due set follows the scheduler's keys,
-- '' = not among the KEYS), and moveToFinished's nine arguments (built by BullMQ: HookJobs.prepareFinish).
-- A failure that brings the hook's streak to the suspension rule pauses the hook's queue here, before
-- moveToFinished looks for the next job (streak-pause.lua, as the monitor's streak-step.lua would a moment
-- later): the hook's next event is held, never sent after the failure that suspends it. The suspension is left
-- unrecorded with its lease over, so the monitor records it when it reads the failure from the outcome stream;
-- on one Redis the hook also goes into the due set, which the monitor checks every second, so a worker that
-- dies before writing the stream entry leaves no suspension unrecorded.
-- An `erased` outcome (the fence refused the event) leaves its entry beside the record, in the same script: the
-- erasure whose tag it carries counts it once it is done with the hook's active jobs (erasure-runner.ts), and
-- there is no crash between the record and its entry to lose it from the count.
-- The hook is marked for the history writer (ZADD LT, as OutboxMarks marks it) here only where the set and the
-- hook's keys are on one node, one Redis: the record and the mark that makes the writer move it are then written
-- (and acknowledged) together, with no round trip of their own and no crash between them to lose the mark.
-- On one Redis too, a holding that asked for the next job and got none (its queue ran empty, or is paused) gives
-- the hook's lease back here (release-hook.lua, as ready-release.lua would a moment later), so a quiet hook's
-- event costs no release of its own; the reply then has a fourth element, 1.
-- The job's data is emptied with the outcome: once recorded, nothing needs the payload in Redis (the worker has
-- it in memory, the record is in the outbox), so the finished job BullMQ keeps holds ids and outcome only.
-- Returns 1 when recorded (or already recorded by this holder: its client resent the call after a reconnect);
-- -3 when the hook was deleted while this holder's request was in flight: the delete took the job and its lock
-- with the queue, and the record, but left the attempt's mark to expire (hook-keys-drop.lua); the mark still
-- names this holder, so the record is written to the outbox (every attempt is recorded, and the account's
-- history keeps a deleted hook's records) and the mark deleted, nothing else, the job being gone; 0 when the hook was
-- deleted and the caller still holds the lock, with no attempt of its own in flight (nothing written); -1 when
-- the caller no longer holds the job's lock; -2 when the attempt key is not this event's (a finish never touches
-- another attempt's marker).
-- Completing the job too, it replies {that code, BullMQ's reply}: BullMQ's moveToFinished runs, as shipped,
-- after every code but -1, exactly where the worker's next call ran it before (one round trip instead of two;
-- BullMQ checks the lock again, and takes the next job under the same token when asked). When it took a job
-- and the caller gave the job locks' prefix, the next job's attempt is marked in the same script, as
-- attempt-begin.lua would mark it (erasure tags asked for), and its reply is the third element: a busy hook's
-- delivery is one round trip before its request's outcome, none before its request. The reply is {2}
-- when this very call already ran (a resend after a lost reply: the lock is gone with the job's completion,
-- the attempt is done or the next job's marked under this token, and the finished job carries this call's time
-- and value): recorded, the next job, if one was taken, unknown to the caller. Otherwise {-1}: fenced, nothing
-- written.
--!include attempt-mark.lua
--!include release-hook.lua
-- Applies the failure just recorded to the hook's streak and pauses the queue when the streak qualifies.
local function suspendIfDue(meta, marker, due)
  local streak, failures = KEYS[4], KEYS[5]
  local at, eventId, kept, now = tonumber(ARGV[5]), ARGV[23], tonumber(ARGV[21]), tonumber(ARGV[22])
--!include streak-apply-failure.lua
  if ARGV[24] ~= '' then redis.call('HSET', streak, 'account', ARGV[24]) end
  redis.call('PEXPIRE', streak, ARGV[6])
  redis.call('PEXPIRE', failures, ARGV[6])
  local count = tonumber(redis.call('HGET', streak, 'count') or '0')
  local first = redis.call('ZRANGE', failures, 0, 0, 'WITHSCORES')
  if count < tonumber(ARGV[19]) or #first == 0 then return end
  local startedAt = tonumber(first[2])
  if now < startedAt + tonumber(ARGV[20]) then return end
  -- The operator's notices hook is never suspended (NEVER_SUSPEND_FIELD in packages/redis keys.ts says why).
  if redis.call('HEXISTS', KEYS[3], 'never_suspend') == 1 then return end
  local pausedField, leaseUntil = ARGV[25], 0
--!include streak-pause.lua
  -- Due a moment later: the monitor normally records it from the failure's stream entry, in order after the
  -- streak's warning; the due set only catches a worker that died before writing that entry (2000 is
  -- SUSPENSION_DUE_AFTER_MS in packages/redis keys.ts; on a Cluster the ledger adds the entry before this script).
  if paused and due then redis.call('ZADD', due, now + 2000, ARGV[26]) end
end
-- BullMQ's script whole, as the body of a function of its own KEYS and ARGV: its returns end the function.
local function bullmqFinish(KEYS, ARGV)
--!bullmq moveToFinished
end
local function record()
  local held = redis.call('GET', KEYS[6]) == ARGV[7]
  if redis.call('EXISTS', KEYS[3]) == 0 then
    -- The hook was deleted: only the mark of this holder's attempt in flight may still be recorded.
    if redis.call('GET', KEYS[2]) == ARGV[3] .. ' ' .. ARGV[7] then
      redis.call('RPUSH', KEYS[1], ARGV[1])
      redis.call('PEXPIRE', KEYS[1], ARGV[2])
      -- Gone with it: a repeat of this call finds no mark of its own and writes nothing more.
      redis.call('DEL', KEYS[2])
      return -3
    end
    return held and 0 or -1
  end
  if not held then return -1 end
  local current = redis.call('GET', KEYS[2])
  if current == ARGV[3] .. ':done' then return 1 end
  if current ~= ARGV[3] and (not current or string.sub(current, 1, #ARGV[3] + 1) ~= ARGV[3] .. ' ') then return -2 end
  redis.call('RPUSH', KEYS[1], ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  redis.call('SET', KEYS[2], ARGV[3] .. ':done')
  if KEYS[7] and ARGV[8] and redis.call('HEXISTS', KEYS[7], 'data') == 1 then redis.call('HSET', KEYS[7], 'data', ARGV[8]) end
  local streak, failures, at = KEYS[4], KEYS[5], tonumber(ARGV[5])
  if ARGV[4] == 'delivered' then
    if redis.call('EXISTS', streak) == 1 then
--!include streak-apply-delivered.lua
    end
  elseif ARGV[4] == 'failure' then
    if redis.call('HSETNX', streak, 'count', 0) == 1 then redis.call('PEXPIRE', streak, ARGV[6]) end
  end
  return 1
end
local code = record()
if #KEYS <= 7 then return code end
if code == -3 then return {code} end
local marking, releasing, dueGiven = ARGV[12] ~= '', ARGV[16] ~= '', ARGV[26] ~= ''
-- Where the scheduler's keys, the due set, BullMQ's keys and BullMQ's arguments begin.
local leaseKey = marking and 11 or 10
local dueKey = releasing and leaseKey + 4 or leaseKey
local firstKey, firstArg = dueGiven and dueKey + 1 or dueKey, 27
if code == 1 and marking then redis.call('ZADD', KEYS[10], 'LT', ARGV[12], ARGV[13]) end
if code == 1 and ARGV[4] == 'failure' and ARGV[19] ~= '' then
  -- moveToFinished's meta and marker keys are its ninth and fourteenth.
  suspendIfDue(KEYS[firstKey + 8], KEYS[firstKey + 13], dueGiven and KEYS[dueKey])
end
if code == 1 and ARGV[14] ~= '' then
  redis.call('HSET', KEYS[9], ARGV[3], ARGV[14])
  redis.call('PEXPIRE', KEYS[9], ARGV[15])
end
if code ~= -1 then
  local keys, argv = {}, {}
  for i = firstKey, #KEYS do keys[#keys + 1] = KEYS[i] end
  for i = firstArg, #ARGV do argv[#argv + 1] = ARGV[i] end
  local job = bullmqFinish(keys, argv)
  local mark = ARGV[9] ~= '' and markTaken(job, KEYS[2], KEYS[3], KEYS[8], ARGV[7], ARGV[9], ARGV[10], ARGV[11])
  if mark then return {code, job, mark} end
  -- Neither refused (a negative code) nor a job taken: the queue had nothing to offer.
  local tookNone = not (type(job) == 'number' and job < 0) and not (type(job) == 'table' and type(job[1]) == 'table')
  if releasing and tookNone then
    local k = leaseKey
    return {code, job, 0, releaseHook(KEYS[k], KEYS[k + 1], KEYS[k + 2], KEYS[k + 3], ARGV[17], ARGV[16], ARGV[18])}
  end
  return {code, job}
end
-- moveToFinished's time, field and value are its second, third and fourth arguments.
local finishedOn, field, value = ARGV[firstArg + 1], ARGV[firstArg + 2], ARGV[firstArg + 3]
local current = redis.call('GET', KEYS[2])
if current == ARGV[3] .. ':done' or (current and string.sub(current, -#ARGV[7] - 1) == ' ' .. ARGV[7]) then
  local done = redis.call('HMGET', KEYS[7], 'finishedOn', field)
  if done[1] == finishedOn and done[2] == value then return {2} end
end
return {-1}
