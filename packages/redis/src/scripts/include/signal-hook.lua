-- Tells the workers that hook `id` has work: into the ready set, unless its lease is live, in which case it is
-- remembered instead (its holder may already have seen its queue empty, and giving the lease back then puts the
-- hook into the ready set). It also joins the index of hooks with work, with a version higher than any before
-- it: the watchdog drops an index entry only if its version is the one it read before finding the hook empty,
-- so a signal after that look (for jobs added after it) keeps the hook followed. The scheduler's keys: ready
-- set, leases, signalled while leased, hooks with work; `now` in ms.
local function signalHook(ready, leases, signalled, withWork, now, id)
  local held = tonumber(redis.call('ZSCORE', leases, id))
  if held and held > now then
    redis.call('SADD', signalled, id)
  else
    redis.call('ZADD', ready, 'NX', now, id)
  end
  local version = tonumber(redis.call('ZSCORE', withWork, id))
  if version and version >= now then version = version + 1 else version = now end
  redis.call('ZADD', withWork, version, id)
end
