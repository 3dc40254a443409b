-- Adds hooks to the ready set unless their lease is live; a leased hook is remembered instead (its holder may
-- already have seen its queue empty, and giving the lease back then puts the hook into the ready set).
-- Every hook signalled also joins the index of hooks with work, with a version higher than any before it, in
-- this same script: the watchdog drops an index entry only if its version is the one it read before finding
-- the hook empty, so a signal after that look (for jobs added after it) keeps the hook followed.
-- KEYS: ready set, leases, signalled while leased, hooks with work. ARGV: now (ms), hook ids...
local now = tonumber(ARGV[1])
for i = 2, #ARGV do
  local held = tonumber(redis.call('ZSCORE', KEYS[2], ARGV[i]))
  if held and held > now then
    redis.call('SADD', KEYS[3], ARGV[i])
  else
    redis.call('ZADD', KEYS[1], 'NX', now, ARGV[i])
  end
  local version = tonumber(redis.call('ZSCORE', KEYS[4], ARGV[i]))
  if version and version >= now then version = version + 1 else version = now end
  redis.call('ZADD', KEYS[4], version, ARGV[i])
end
