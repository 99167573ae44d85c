// The results as one markdown table, ready to paste into docs/benchmarks.md. Run on its own, it prints
// the table of a saved run: `node bench/table.mjs [.bench/results.json]`.
import { readFileSync } from 'node:fs'

const int = (n) => Math.round(n).toLocaleString('en')
const spread = ({ min, max }, format) => `${format(min)}–${format(max)}`
const fixed = (digits) => (n) => n.toFixed(digits)
const mark = (ok) => (ok ? '✅' : '❌')

const marks = (value, target, floor) =>
  value >= target ? '✅' : floor !== undefined && value >= floor ? `⚠️ (≥ ${floor})` : '❌'

function routeRows(generation, { label, mock, bare, ratio, target, floor, peakRssMB }) {
  const cpu = (bare.cpuMicros.median / mock.cpuMicros.median).toFixed(2)
  return [
    `| ${generation} | ${label} | ${int(mock.rps.median)} (${spread(mock.rps, int)}) | ${int(bare.rps.median)} | ${ratio.median.toFixed(2)} (${spread(ratio, fixed(2))}) | ≥ ${target} | ${marks(ratio.median, target, floor)} |`,
    `| | ↳ p50 / p99 ms; server CPU µs per request (bare ÷ mock); peak RSS MB | ${mock.p50.median.toFixed(2)} / ${mock.p99.median.toFixed(2)}; ${mock.cpuMicros.median.toFixed(1)} µs; ${peakRssMB} MB | ${bare.p50.median.toFixed(2)} / ${bare.p99.median.toFixed(2)}; ${bare.cpuMicros.median.toFixed(1)} µs | ${cpu} | | |`,
  ]
}

function scaleRow(label, { mock, bare, ratio }, reference) {
  const vsDefault = reference
    ? `; ${(mock.rps.median / reference.mock.rps.median).toFixed(2)} × one key's`
    : ''
  return `| 2026-08 | ${label} | ${int(mock.rps.median)} (${spread(mock.rps, int)}) | ${int(bare.rps.median)} | ${ratio.median.toFixed(2)} (${spread(ratio, fixed(2))})${vsDefault} | | |`
}

const DEFAULT_GENERATION = '2026-08'

function startupRows(startup) {
  if (!startup) return []
  const ms = (s) => `${s.median} (${spread(s, String)})`
  return [
    `| | Start-up to the first 200 of GET /v1/topics (ms) | ${ms(startup.topics)} | ${ms(startup.bare.topics)} | ${(startup.topics.median / startup.bare.topics.median).toFixed(2)} × | ≤ 1.5 × | ${mark(startup.topics.median <= 1.5 * startup.bare.topics.median)} |`,
    `| | ↳ to the banner / to the first 200 of /__admin/health (ms) | ${startup.listening.median} / ${startup.health.median} | ${startup.bare.listening.median} / ${startup.bare.health.median} | | | |`,
  ]
}

function memoryRows(r) {
  const rows = []
  const get = r.generations[DEFAULT_GENERATION]?.routes['get-v1-topics']
  if (get) {
    const { idleRssMB, bareIdleRssMB } = r.generations[DEFAULT_GENERATION]
    rows.push(
      `| ${DEFAULT_GENERATION} | Peak RSS under GET /v1/topics load (MB); idle after start | ${get.peakRssMB}; ${idleRssMB} | ${get.barePeakRssMB}; ${bareIdleRssMB} | ${(get.peakRssMB / get.barePeakRssMB).toFixed(2)} × | ≤ 1.25 × | ${mark(get.peakRssMB <= 1.25 * get.barePeakRssMB)} |`
    )
    if (get.semiSpaceMB)
      rows.push(
        `| | ↳ V8's young generation after the load, MB a semi-space (V8 sizes each side's own) | ${get.semiSpaceMB.mock} | ${get.semiSpaceMB.bare} | | | |`
      )
  }
  const equal = r.equalYoung
  if (equal)
    rows.push(
      `| | ↳ the same, both young generations held at ${equal.heldSemiSpaceMB} MB a semi-space (\`--min/max-semi-space-size\`): what the mock holds beyond the bare app | ${equal.peakRssMB} | ${equal.barePeakRssMB} | ${(equal.peakRssMB / equal.barePeakRssMB).toFixed(2)} × | | |`
    )
  if (r.reset) {
    const { idle, loaded, afterReset, ratio, target, creates, triggers, retainedHeapMB } = r.reset
    rows.push(
      `| ${r.reset.generation} | RSS idle → after ${int(creates)} creates and ${int(triggers)} triggers → after a reset (MB) | ${idle.rssMB} → ${loaded.rssMB} → ${afterReset.rssMB} | | ${ratio} × idle | ≤ ${target} × | ${mark(ratio <= target)} |`,
      `| | ↳ heap used (MB), the same three; heap kept after the reset beyond a warm idle mock's | ${idle.heapMB} → ${loaded.heapMB} → ${afterReset.heapMB}; ${retainedHeapMB} MB | | | | |`
    )
  }
  for (const [generation, rec] of Object.entries(r.records ?? {})) {
    const { workflow, distinctWorkflow, message, subscriber, count } = rec
    rows.push(
      `| ${generation} | Heap per stored workflow (the same body again) / message / subscriber, bytes over ${int(count)} of each | ${int(workflow.bytes)} / ${int(message.bytes)} / ${int(subscriber.bytes)} | | | ≤ 2,048 / ≤ 512 / | ${mark(workflow.bytes <= 2048)} ${mark(message.bytes <= 512)} |`,
      `| | ↳ a workflow whose body no other has; a whole trigger (2 messages, notification, jobs) | ${int(distinctWorkflow.bytes)}; ${int(message.perTriggerBytes)} | | | | |`,
      `| | ↳ the memory budget's estimate: workflow, distinct workflow, trigger, subscriber (bytes) | ${int(workflow.budgetBytes)}, ${int(distinctWorkflow.budgetBytes)}, ${int(message.budgetBytes)}, ${int(subscriber.budgetBytes)} | | | ≥ the heap | ${mark(workflow.budgetBytes >= workflow.bytes && distinctWorkflow.budgetBytes >= distinctWorkflow.bytes && message.budgetBytes >= message.perTriggerBytes && subscriber.budgetBytes >= subscriber.bytes)} |`,
      `| | ↳ µs per create in process: workflow, distinct workflow, trigger (per message), subscriber | ${workflow.micros}, ${distinctWorkflow.micros}, ${message.micros}, ${subscriber.micros} | | | | |`
    )
  }
  for (const [generation, kinds] of Object.entries(r.budget ?? {}))
    rows.push(
      `| ${generation} | The memory budget's estimate against the heap, bytes a record: ${kinds.map((k) => k.kind).join('; ')} | ${kinds.map((k) => `${int(k.heap)} → ${int(k.budget)} (${k.ratio})`).join('; ')} | | | 1 to 1.5 × | ${mark(kinds.every((k) => k.ok))} |`
    )
  return rows
}

function scaleRows(scale, reference) {
  const rows = []
  const [small, large] = scale.pages ?? []
  if (small && large) {
    const measures = Object.keys(large).filter((k) => k.startsWith('GET'))
    // A larger heap slows every request (its garbage collection shares the pinned core): what a
    // one-record read grew by is allowed on top of twice the page's small-collection time.
    const control = measures.find((k) => k.includes('one topic'))
    const heapCost = control ? Math.max(0, large[control] - small[control]) : 0
    const flat = measures.every((k) => large[k] <= Math.max(2 * small[k], small[k] + 50) + heapCost)
    rows.push(
      `| ${scale.generation} | Pages (µs, in process) at ${int(small.records)} → ${int(large.records)} records: ${measures.map((m) => m.replace(/^GET /, '')).join('; ')} | ${measures.map((m) => `${small[m]} → ${large[m]}`).join('; ')} | | | flat | ${mark(flat)} |`
    )
  }
  const [few, many] = scale.triggers ?? []
  if (few && many) {
    const linear = many.perSubscriberMicros <= 1.5 * few.perSubscriberMicros
    rows.push(
      `| ${scale.generation} | Trigger to a topic of ${int(few.subscribers)} → ${int(many.subscribers)} subscribers: ms (µs per subscriber) | ${few.ms} (${few.perSubscriberMicros}) → ${many.ms} (${many.perSubscriberMicros}) | | | linear | ${mark(linear)} |`
    )
  }
  const envs = scale.environments
  if (envs) {
    rows.push(
      scaleRow(
        `GET /v1/topics, keys spread over ${int(envs.environments)} environments`,
        envs,
        reference
      ),
      `| | ↳ memory per environment; peak RSS | ${envs.rssPerEnvironmentMB} MB RSS, ${envs.heapPerEnvironmentMB} MB heap; ${envs.peakRssMB} MB | | | | |`
    )
  }
  return rows
}

export function renderTable(r) {
  const { settings, journal } = r
  const rows = [
    `Node ${r.node}, ${settings.rounds} round(s) × ${settings.seconds} s per side, ${settings.connections} connections${settings.pinned ? ', server pinned to core 0 and autocannon to core 1' : ''}, load average ${r.loadAverage.before} → ${r.loadAverage.after}; median (min–max). Ratio = novu-mock ÷ bare Hono serving the same bytes, taken pair by pair. Journal on (1000), 20 inactive chaos rules, no workflow limit.`,
    '',
    '| generation | measure | novu-mock | bare Hono | ratio | target | |',
    '|---|---|---|---|---|---|---|',
    ...Object.entries(r.generations).flatMap(([generation, g]) =>
      Object.values(g.routes).flatMap((route) => routeRows(generation, route))
    ),
    ...startupRows(r.startup),
    ...memoryRows(r),
    ...scaleRows(r.scale ?? {}, r.generations[DEFAULT_GENERATION]?.routes['get-v1-topics']),
  ]
  if (journal)
    rows.push(
      `| | Journal: ${int(journal.requests)} requests in process (size ${journal.journalSize}) | ${int(journal.entries)} entries held, heap drift ${journal.heapDriftMB} MB, ${journal.perRequestMicros} µs/request | | | exactly ${journal.journalSize}, flat | ${mark(journal.exact && journal.flat)} |`
    )
  return rows.join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(
    renderTable(JSON.parse(readFileSync(process.argv[2] ?? '.bench/results.json', 'utf8')))
  )
