-- spin, BROKEN: read-only work whose length the caller chooses (ARGV[1] iterations, no cap).
-- A caller asking for a lot blocks the node's single thread for as long as it likes: every other
-- client waits, and past lua-time-limit they are refused with BUSY until SCRIPT KILL.
local n = tonumber(ARGV[1])
local x = 0
for i = 1, n do
  x = (x * 31 + i) % 1000003
end
return x
