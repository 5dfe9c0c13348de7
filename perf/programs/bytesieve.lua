-- Sieve of Eratosthenes over a table of booleans, repeated (same algorithm
-- and output as bytesieve.b, whose flags are an array of byte).
local LIMIT = 100000

local function sieve(flags, n)
  for i = 2, n do
    flags[i] = true
  end
  local count = 0
  for i = 2, n do
    if flags[i] then
      count = count + 1
      for k = i + i, n, i do
        flags[k] = false
      end
    end
  end
  return count
end

local reps = tonumber(arg[1]) or 365  -- default size
local flags = {}
for i = 0, LIMIT do flags[i] = false end
local total = 0
for _ = 1, reps do
  total = total + sieve(flags, LIMIT)
end
print(string.format("bytesieve %d: %d", reps, total))
