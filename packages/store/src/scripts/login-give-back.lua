-- KEYS: a sign-in attempt counter (STRING, with the window's expiry).
-- Takes one attempt off the counter while it exists: a counter whose window ended between the attempt and this
-- step is gone, and DECR would make it again, at -1 and with no expiry (an allowance that never ends).
-- Returns the count left, or 0 when there was no counter.
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
return redis.call('DECR', KEYS[1])
