-- KEYS: a lock. ARGV: holder name, lease (ms; 0 to let go). Takes the lock when it is free and extends it
-- when the holder has it already; with a lease of 0, deletes it if the holder has it. Returns 1 while the
-- holder has it (after letting go: 1 if it had it), 0 while another does.
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then
  if tonumber(ARGV[2]) == 0 then redis.call('DEL', KEYS[1]) else redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
  return 1
end
if current or tonumber(ARGV[2]) == 0 then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
