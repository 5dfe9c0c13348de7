-- A call-heavy loop (same algorithm and output as calls.b).
local function acc_add(a, v)
  a.n = (a.n + v) % 1000003
end

local function inc(x)
  return x + 1
end

local function add3(a, b, c)
  return a + b + c
end

local function mix(a, b)
  return (a * 31 + b) % 65536
end

local n = tonumber(arg[1]) or 13000000  -- default size
local acc = { n = 0 }
local s = 0
for i = 0, n - 1 do
  s = mix(s, add3(i, inc(i), 1))
  acc_add(acc, s)
end
print(string.format("calls %d: %d %d", n, s, acc.n))
