-- A deleted hook's own keys, dropped after its queue (hooks.ts remove). The attempt's mark alone may stay: while
-- it names an attempt in flight (`<job id> <lock token>`, not `:done`), that request is on the wire and its
-- outcome is still to be recorded (attempt-finish.lua's -3), so the mark is left to expire after ARGV[1] ms
-- instead: longer than any request's deadline and its outcome's write retries.
-- KEYS: the attempt's mark, then every other key of the hook. Returns 1 when the mark was kept, else 0.
for i = 2, #KEYS do redis.call('DEL', KEYS[i]) end
local mark = redis.call('GET', KEYS[1])
if mark and string.find(mark, ' ', 1, true) and string.sub(mark, -5) ~= ':done' then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  return 1
end
redis.call('DEL', KEYS[1])
return 0
