-- KEYS: a sign-in link (HASH: account, read_only "1"/"0", return_url, link, expires_at ms, used_at ms once used).
-- ARGV: now (ms).
-- Uses the link at most once, before it expires: the check and the mark are one step, so two browsers that
-- open the same link at the same instant cannot both get a session. A used or expired link keeps its
-- return_url (the key outlives the link by a day) so the page that refuses it can lead back.
-- Returns {'unknown'} | {'used', return_url} | {'expired', return_url} | {'ok', account, read_only, return_url, link}.
local link = redis.call('HMGET', KEYS[1], 'account', 'read_only', 'return_url', 'expires_at', 'used_at', 'link')
if not link[1] then return {'unknown'} end
local back = link[3] or ''
if link[5] then return {'used', back} end
if tonumber(ARGV[1]) >= tonumber(link[4]) then return {'expired', back} end
redis.call('HSET', KEYS[1], 'used_at', ARGV[1])
return {'ok', link[1], link[2], back, link[6] or ''}
