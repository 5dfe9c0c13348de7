-- The benchmarks game's thread-ring with Lua 5.4 coroutines: 503 of them
-- pass a token counting down from N; the one holding it at zero prints its
-- number (as threadring.b does).
local n = tonumber(arg and arg[1]) or 1000
local ring = 503
local threads = {}
for id = 1, ring do
  threads[id] = coroutine.create(function(t)
    while true do
      if t == 0 then
        print(id)
        return nil
      end
      t = coroutine.yield(t - 1)
    end
  end)
end
local id, t = 1, n
while true do
  local ok, nt = coroutine.resume(threads[id], t)
  if nt == nil then break end
  t = nt
  id = id % ring + 1
end
