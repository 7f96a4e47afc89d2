-- spin, REMEDIATED: the same work, bounded by a constant whatever the caller asks for,
-- so no argument can make the script hold the node for long.
local n = math.min(tonumber(ARGV[1]), 100000)
local x = 0
for i = 1, n do
  x = (x * 31 + i) % 1000003
end
return x
