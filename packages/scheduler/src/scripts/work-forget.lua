-- Drops hooks from the index of hooks with work, each only if its version is still the one the caller read
-- before it found the hook without jobs and without unwritten history: a hook signalled since (new jobs)
-- stays. Returns how many were dropped.
-- KEYS: hooks with work. ARGV: hook id, version, hook id, version...
local dropped = 0
for i = 1, #ARGV, 2 do
  local version = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if version and tonumber(version) == tonumber(ARGV[i + 1]) then
    redis.call('ZREM', KEYS[1], ARGV[i])
    dropped = dropped + 1
  end
end
return dropped
