-- KEYS: a lock. ARGV: holder name, lease (ms). Takes the lock when it is free and extends it when the holder
-- has it already. Returns 1 while the holder has it, 0 while another does.
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if current then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
