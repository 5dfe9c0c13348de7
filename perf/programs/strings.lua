-- String building and int/string conversion (same algorithm and output as strings.b).
local n = tonumber(arg[1]) or 3800000  -- default size
local total = 0
local line = ""
for i = 0, n - 1 do
  local s = tostring(i * 7)
  total = total + (tonumber(s) + #s)
  line = line .. (s .. ",")
  if #line > 64 then
    total = total + string.byte(line, #line - 1)
    line = ""
  end
end
print(string.format("strings %d: %d %d", n, total, #line))
