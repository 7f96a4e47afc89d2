-- spin_write, REMEDIATED: writes KEYS[1], then bounded work (at most 100,000 iterations).
redis.call('SET', KEYS[1], 'written')
local n = math.min(tonumber(ARGV[1]), 100000)
local x = 0
for i = 1, n do
  x = (x * 31 + i) % 1000003
end
return x
