-- N suspended coroutines, each holding one value (blocked.b's threads):
-- perf/threads/run.py divides the peak memory's growth by N.
local n = tonumber(arg and arg[1]) or 100000
local cos = {}
for i = 1, n do
  local co = coroutine.create(function(v) coroutine.yield(v) return v end)
  coroutine.resume(co, i - 1)
  cos[i] = co
end
local s = 0
for i = 1, n do
  local _, v = coroutine.resume(cos[i])
  s = s + v
end
print(string.format("blocked %d sum %d", n, s))
