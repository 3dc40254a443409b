-- erasure_matches(kind, value, fields, personal, event_type): core's erasureMatches (erasure.ts). `kind` is
-- 'call_id' or 'number'; a number matches `from` and `to`, and the fields `personal` (decoded from the
-- target's JSON: kind -> field names, the catalogue's personal fields) lists for the event's kind.
local function erasure_matches(kind, value, fields, personal, event_type)
  if type(fields) ~= 'table' then return false end
  if kind == 'call_id' then return fields['call_id'] == value end
  if fields['from'] == value or fields['to'] == value then return true end
  local names = type(personal) == 'table' and type(event_type) == 'string' and personal[event_type]
  if type(names) ~= 'table' then return false end
  for _, name in ipairs(names) do
    if fields[name] == value then return true end
  end
  return false
end

-- The personal fields as a script's argument carries them (a JSON object; '' or absent = none).
local function erasure_personal(json)
  if not json or json == '' then return nil end
  local ok, decoded = pcall(cjson.decode, json)
  return ok and decoded or nil
end
