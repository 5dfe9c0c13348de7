-- A counted integer loop (same algorithm and output as loop.b).
local n = tonumber(arg[1]) or 125000000  -- default size
local s = 0
for i = 0, n - 1 do
  s = (s * 31 + i) % 16777216
end
print(string.format("loop %d: %d", n, s))
