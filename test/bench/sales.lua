-- The bench's SALEs for wrk (test/bench/wrk.ts): each connection's thread sends the bodies of a
-- file in turn, or, given a first card, SALEs of cards of their own; every answer is counted by
-- its HTTP status and its `result`, and `done` prints one JSON line as load.ts does.
--
--   wrk ... -s test/bench/sales.lua <url> -- <bodies file> [first card]

wrk.method = "POST"

local threads = {}

function setup(thread)
  thread:set("index", #threads)
  table.insert(threads, thread)
end

local function luhnDigit(partial)
  local sum = 0
  for i = 0, #partial - 1 do
    local digit = tonumber(partial:sub(#partial - i, #partial - i))
    if i % 2 == 0 then
      digit = digit * 2
      if digit > 9 then digit = digit - 9 end
    end
    sum = sum + digit
  end
  return (10 - sum % 10) % 10
end

function init(args)
  bodies = {}
  for line in io.lines(args[1]) do table.insert(bodies, line) end
  -- Threads number their cards apart, so no two sales of a run share one.
  firstCard = args[2] and (tonumber(args[2]) + index * 100000000) or nil
  sent = 0
  statuses = {}
  results = {}
end

function request()
  local body = bodies[sent % #bodies + 1]
  if firstCard then
    local partial = string.format("41%013d", firstCard + sent)
    body = body:gsub("{card}", partial .. luhnDigit(partial), 1)
  end
  sent = sent + 1
  return wrk.format(nil, nil, nil, body)
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  local result = body:match('"result":"(%a+)"')
  if result then results[result] = (results[result] or 0) + 1 end
end

local function merged(name)
  local total = {}
  for _, thread in ipairs(threads) do
    for key, count in pairs(thread:get(name)) do total[key] = (total[key] or 0) + count end
  end
  local parts = {}
  for key, count in pairs(total) do table.insert(parts, string.format('"%s":%d', key, count)) end
  return "{" .. table.concat(parts, ",") .. "}"
end

function done(summary, latency)
  local failed = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format(
    '{"requests":%d,"perSecond":%.3f,"p50":%.3f,"p99":%.3f,"failed":%d,"statuses":%s,"results":%s}\n',
    summary.requests, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, failed,
    merged("statuses"), merged("results")))
end
