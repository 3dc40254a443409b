-- Lua that suspends a hook whose streak qualifies: sets the queue's paused flag with HSETNX (BullMQ's own
-- pause, minus its event) and, only when this call set it, clears the queue's marker and leaves the suspension
-- to be recorded (`unrecorded`: the streak's start; a monitor records it once `lease_until` has passed). Sets
-- the local `paused` to whether this call paused the queue. Names of Lua locals in the enclosing script:
-- `streak`, `meta`, `marker`, `pausedField`, `startedAt`, `leaseUntil`.
local paused = redis.call('HSETNX', meta, pausedField, 1) == 1
if paused then
  redis.call('DEL', marker)
  redis.call('HSET', streak, 'unrecorded', startedAt, 'lease_until', leaseUntil)
end
