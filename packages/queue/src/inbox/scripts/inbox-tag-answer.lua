-- Adds an event's erasure tags to its idempotency key's answer, once the accept found that no hook gets it:
-- the key is then all Redis keeps of the event, and an erasure of its call or number finds it by them. The
-- accept writes them itself when the producer expected no hook; this is for an event the producer expected
-- to go to hooks (the kind's last event did) and that none got, which is rarer, so the hot path sends no tags.
-- KEYS[1] the idempotency key; ARGV[1] the event id; ARGV[2] the tags, space-separated.
local answer = redis.call('GET', KEYS[1])
if not answer then return 0 end
-- Only the answer this event's accept wrote, and only once.
if not string.find(answer, '{"id":"' .. ARGV[1] .. '"', 1, true) then return 0 end
if string.find(answer, ',"tags":"', 1, true) then return 0 end
redis.call('SET', KEYS[1], string.sub(answer, 1, -2) .. ',"tags":"' .. ARGV[2] .. '"}', 'KEEPTTL')
return 1
