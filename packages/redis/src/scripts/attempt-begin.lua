-- KEYS: attempt, hook record. ARGV: event id, version of the caller's cached target ('' = none).
-- Returns {state} or {'send', version, fields...} when the caller's copy of the hook is stale.
if redis.call('EXISTS', KEYS[2]) == 0 then return {'hook_deleted'} end
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then return {'maybe_sent'} end
if current == ARGV[1] .. ':done' then return {'already_recorded'} end
redis.call('SET', KEYS[1], ARGV[1])
local version = redis.call('HGET', KEYS[2], 'version') or ''
if version ~= '' and version == ARGV[2] then return {'send'} end
return {'send', redis.call('HGETALL', KEYS[2])}
