-- Recursive Fibonacci (same algorithm and output as fib.b).
local function fib(n)
  if n < 2 then return n end
  return fib(n - 1) + fib(n - 2)
end

local n = tonumber(arg[1]) or 37  -- default size
print(string.format("fib %d: %d", n, fib(n)))
