-- erasure_matches(kind, value, fields): core's erasureMatches (erasure.ts). `kind` is 'call_id' or 'number';
-- a number matches `from` and `to`.
local function erasure_matches(kind, value, fields)
  if type(fields) ~= 'table' then return false end
  if kind == 'call_id' then return fields['call_id'] == value end
  return fields['from'] == value or fields['to'] == value
end
