-- spin_write, BROKEN: writes KEYS[1] first, then does caller-chosen work (ARGV[1] iterations).
-- Once a script has written, SCRIPT KILL answers UNKILLABLE: killing it would leave the write half
-- done, so the only ways out are to wait or SHUTDOWN NOSAVE (losing the node's unsaved data).
redis.call('SET', KEYS[1], 'written')
local n = tonumber(ARGV[1])
local x = 0
for i = 1, n do
  x = (x * 31 + i) % 1000003
end
return x
