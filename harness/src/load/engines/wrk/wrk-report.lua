-- dyno's script for wrk 4.x (LuaJIT): sends the plan's request, checks every response, and prints
-- one JSON line when the run is done. wrk-engine.js passes the plan in DYNO_WRK_* variables:
--   DYNO_WRK_METHOD, DYNO_WRK_BODY (absent: no body), DYNO_WRK_HEADERS ("name: value" lines),
--   DYNO_WRK_PIPELINING (requests written at once per connection), DYNO_WRK_CHECK ("0": no response()
--   at all, for calibration), DYNO_WRK_BODY_MODE ("none", "exact": the body must equal
--   DYNO_WRK_EXPECTED_TEXT, "recheck": bodies other than DYNO_WRK_EXPECTED_TEXT (when set) are kept,
--   distinct, with their counts, for the engine to check), DYNO_WRK_MAX_DISTINCT_BODIES, DYNO_WRK_REQUESTS_FILE
--   (absent: the same request every time; else a file of whole requests, each its length in bytes on a line and then
--   its bytes, that each thread sends in turn from its own share of them on, one of DYNO_WRK_THREADS).
--
-- Every wrk thread runs its own copy of this script; setup() and done() run in a third, which reads the
-- threads' counters through thread:get() (wrk's SCRIPTING: only nil, booleans, numbers, strings and
-- tables of them cross between the states).

local getenv, time, format, concat = os.getenv, os.time, string.format, table.concat

wrk.method = getenv('DYNO_WRK_METHOD') or 'GET'
wrk.body = getenv('DYNO_WRK_BODY')
for name, value in (getenv('DYNO_WRK_HEADERS') or ''):gmatch('([^\n:]+): ([^\n]*)') do
  wrk.headers[name] = value
end

local PIPELINING = tonumber(getenv('DYNO_WRK_PIPELINING') or '1')
local CHECK = getenv('DYNO_WRK_CHECK') ~= '0'
local BODY_MODE = getenv('DYNO_WRK_BODY_MODE') or 'none'
local EXPECTED_TEXT = getenv('DYNO_WRK_EXPECTED_TEXT')
local MAX_DISTINCT_BODIES = tonumber(getenv('DYNO_WRK_MAX_DISTINCT_BODIES') or '20000')
local THREADS = tonumber(getenv('DYNO_WRK_THREADS') or '1')
local REQUESTS = {}
local requestsFile = getenv('DYNO_WRK_REQUESTS_FILE')
if requestsFile then
  local file = assert(io.open(requestsFile, 'rb'))
  local data = file:read('*a')
  file:close()
  local at = 1
  while at <= #data do
    local newline = data:find('\n', at, true)
    local length = tonumber(data:sub(at, newline - 1))
    REQUESTS[#REQUESTS + 1] = data:sub(newline + 1, newline + length)
    at = newline + length + 1
  end
end

-- Per thread: read by done() through thread:get(), so they are globals.
statuses = {}      -- status → responses
seconds = {}       -- os.time() second → responses completed in it
mismatches = 0     -- exact mode: bodies other than the expected text
bodies = {}        -- recheck mode: distinct body → responses
distinctBodies = 0
bodiesOverflow = 0 -- recheck mode: responses whose body was not kept (too many distinct bodies)

function init (args)
  if #REQUESTS > 0 then
    -- Each request the next drawn one, PIPELINING of them written at once; this thread starts at its share (setup() numbers it).
    local built = REQUESTS
    local count, nextPath = #built, math.floor((threadIndex or 0) * #built / THREADS)
    if PIPELINING == 1 then
      request = function ()
        nextPath = nextPath % count + 1
        return built[nextPath]
      end
    else
      request = function ()
        local batch = {}
        for i = 1, PIPELINING do
          nextPath = nextPath % count + 1
          batch[i] = built[nextPath]
        end
        return concat(batch)
      end
    end
  elseif PIPELINING > 1 then
    -- wrk counts the requests in this string and waits for that many responses before it writes again.
    local batch = string.rep(wrk.format(), PIPELINING)
    request = function () return batch end
  end
  if not CHECK then response = nil end
end

function response (status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  local second = time()
  seconds[second] = (seconds[second] or 0) + 1
  if BODY_MODE == 'exact' then
    -- wrk hands the body over as an interned Lua string: this comparison is a pointer check.
    if body ~= EXPECTED_TEXT then mismatches = mismatches + 1 end
  elseif BODY_MODE == 'recheck' and body ~= EXPECTED_TEXT then
    local seen = bodies[body]
    if seen then
      bodies[body] = seen + 1
    elseif distinctBodies < MAX_DISTINCT_BODIES then
      bodies[body] = 1
      distinctBodies = distinctBodies + 1
    else
      bodiesOverflow = bodiesOverflow + 1
    end
  end
end

local threads = {}

function setup (thread)
  thread:set('threadIndex', #threads)
  threads[#threads + 1] = thread
end

local function quote (text)
  local escaped = text:gsub('[%c"\\]', function (char)
    if char == '"' then return '\\"' end
    if char == '\\' then return '\\\\' end
    return format('\\u%04x', char:byte())
  end)
  return '"' .. escaped .. '"'
end

local function integer (value)
  return format('%.0f', value)
end

local function addInto (totals, counts)
  for key, count in pairs(counts) do totals[key] = (totals[key] or 0) + count end
end

-- {"key":count,…}
local function countsObject (counts)
  local parts = {}
  for key, count in pairs(counts) do parts[#parts + 1] = quote(tostring(key)) .. ':' .. integer(count) end
  return '{' .. concat(parts, ',') .. '}'
end

-- [[key,count],…], each key written by keyFormat
local function countPairs (counts, keyFormat)
  local parts = {}
  for key, count in pairs(counts) do parts[#parts + 1] = '[' .. keyFormat(key) .. ',' .. integer(count) .. ']' end
  return '[' .. concat(parts, ',') .. ']'
end

function done (summary, latency)
  -- Said at once on stderr (unbuffered): wrk's threads have stopped, and what remains is this report (wrk-phase.js).
  io.stderr:write('dyno-wrk: load ended\n')
  local startedCpu = os.clock()
  local statusTotals, secondTotals, bodyTotals = {}, {}, {}
  local mismatchTotal, overflowTotal = 0, 0
  for _, thread in ipairs(threads) do
    addInto(statusTotals, thread:get('statuses'))
    addInto(secondTotals, thread:get('seconds'))
    addInto(bodyTotals, thread:get('bodies'))
    mismatchTotal = mismatchTotal + thread:get('mismatches')
    overflowTotal = overflowTotal + thread:get('bodiesOverflow')
  end

  -- latency(i) is the i-th non-empty µs bucket of wrk's histogram: its value and its count. This is the
  -- distribution after wrk's coordinated-omission correction, which the engine undoes.
  local buckets = #latency
  local distribution = {}
  for i = 1, buckets do
    local value, count = latency(i)
    distribution[i] = '[' .. integer(value) .. ',' .. integer(count) .. ']'
  end
  local latencyUs = 'null'
  if buckets > 0 then
    local parts = {}
    for _, field in ipairs({ 'min', 'max' }) do parts[#parts + 1] = format('"%s":%s', field, integer(latency[field])) end
    for _, field in ipairs({ 'mean', 'stdev' }) do parts[#parts + 1] = format('"%s":%.3f', field, latency[field]) end
    for _, percentile in ipairs({ 50, 75, 90, 99, 99.9, 99.99 }) do
      parts[#parts + 1] = format('"p%s":%s', (tostring(percentile):gsub('%.', '_')), integer(latency:percentile(percentile)))
    end
    latencyUs = '{' .. concat(parts, ',') .. '}'
  end

  local errors = summary.errors
  io.write('{"dynoWrkReport":1',
    ',"threads":', #threads,
    ',"durationUs":', integer(summary.duration),
    ',"requests":', integer(summary.requests),
    ',"bytes":', integer(summary.bytes),
    ',"errors":{"connect":', integer(errors.connect), ',"read":', integer(errors.read), ',"write":', integer(errors.write),
    ',"status":', integer(errors.status), ',"timeout":', integer(errors.timeout), '}',
    ',"checked":', tostring(CHECK),
    ',"statusCounts":', countsObject(statusTotals),
    ',"perSecond":', countPairs(secondTotals, integer),
    ',"mismatches":', integer(mismatchTotal),
    ',"uncheckedBodies":', countPairs(bodyTotals, quote),
    ',"uncheckedOverflow":', integer(overflowTotal),
    ',"latencyUs":', latencyUs,
    ',"latencyDistributionUs":[', concat(distribution, ','), ']',
    ',"doneCpuSec":', format('%.3f', os.clock() - startedCpu),
    '}\n')
end
