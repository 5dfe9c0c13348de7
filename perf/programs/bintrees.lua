-- Binary trees (same algorithm and output as bintrees.b).
local MINDEPTH = 4

local function bottomup(depth)
  if depth <= 0 then return {} end
  return { bottomup(depth - 1), bottomup(depth - 1) }
end

local function check(t)
  if t[1] == nil then return 1 end
  return 1 + check(t[1]) + check(t[2])
end

local maxdepth = tonumber(arg[1]) or 15  -- default size
if maxdepth < MINDEPTH + 2 then maxdepth = MINDEPTH + 2 end

local total = check(bottomup(maxdepth + 1))
local longlived = bottomup(maxdepth)
for depth = MINDEPTH, maxdepth, 2 do
  local iters = 1
  for _ = 1, maxdepth - depth + MINDEPTH do iters = iters * 2 end
  for _ = 1, iters do
    total = total + check(bottomup(depth))
  end
end
total = total + check(longlived)
print(string.format("bintrees %d: %d", maxdepth, total))
