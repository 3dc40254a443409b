-- Lets go of a hook's re-enable lock (enabling.ts), only if this caller still holds it: a caller that outlived
-- its lock (a stall past its TTL) must not free the lock of the re-enable that took over.
--
-- KEYS: the hook's enabling key.
-- ARGV: the holder's token.
-- Replies 1 when released, 0 when the lock was not this caller's any more.
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
