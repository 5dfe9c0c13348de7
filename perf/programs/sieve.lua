-- Sieve of Eratosthenes, repeated (same algorithm and output as sieve.b).
local LIMIT = 100000

local function sieve(flags, n)
  for i = 2, n do
    flags[i] = 1
  end
  local count = 0
  for i = 2, n do
    if flags[i] ~= 0 then
      count = count + 1
      for k = i + i, n, i do
        flags[k] = 0
      end
    end
  end
  return count
end

local reps = tonumber(arg[1]) or 365  -- default size
local flags = {}
for i = 0, LIMIT do flags[i] = 0 end
local total = 0
for _ = 1, reps do
  total = total + sieve(flags, LIMIT)
end
print(string.format("sieve %d: %d", reps, total))
