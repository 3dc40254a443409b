-- filter_matches(filter, fields): the hook filter rules of core's hook-filter.ts (the reference; the two are
-- held to the same answers by a property test). `filter` and `fields` are decoded JSON objects; every
-- condition must hold; an absent field equals nothing and starts with nothing.
local function filter_matches(filter, fields)
  for name, cond in pairs(filter) do
    local value = fields[name]
    if type(value) ~= 'string' then value = nil end
    if type(cond) == 'string' then
      if value ~= cond then return false end
    elseif type(cond) ~= 'table' then
      return false
    elseif cond['$exists'] ~= nil then
      if (value ~= nil) ~= cond['$exists'] then return false end
    elseif cond['$prefix'] ~= nil then
      local prefix = cond['$prefix']
      if value == nil or string.sub(value, 1, #prefix) ~= prefix then return false end
    elseif cond['$in'] ~= nil then
      local found = false
      if value ~= nil then
        for _, candidate in ipairs(cond['$in']) do
          if candidate == value then found = true; break end
        end
      end
      if not found then return false end
    else
      return false
    end
  end
  return true
end
