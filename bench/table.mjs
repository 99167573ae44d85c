// The results as one markdown table, ready to paste into the README. Run on its own, it prints
// the table of a saved run: `node bench/table.mjs [.bench/results.json]`.
import { readFileSync } from 'node:fs'

const int = (n) => Math.round(n).toLocaleString('en')
const spread = ({ min, max }, format) => `${format(min)}–${format(max)}`
const fixed = (digits) => (n) => n.toFixed(digits)
const mark = (ok) => (ok ? '✅' : '❌')

function routeRows({ label, mock, bare, ratio, target }) {
  return [
    `| ${label}: req/s | ${int(mock.rps.median)} (${spread(mock.rps, int)}) | ${int(bare.rps.median)} (${spread(bare.rps, int)}) | ${ratio.median.toFixed(2)} (${spread(ratio, fixed(2))}) | ≥ ${target} | ${mark(ratio.median >= target)} |`,
    `| ↳ latency p50 / p99 (ms) | ${mock.p50.median.toFixed(2)} / ${mock.p99.median.toFixed(2)} | ${bare.p50.median.toFixed(2)} / ${bare.p99.median.toFixed(2)} | | | |`,
    `| ↳ server CPU per request (µs); ratio bare ÷ mock | ${mock.cpuMicros.median.toFixed(1)} | ${bare.cpuMicros.median.toFixed(1)} | ${(bare.cpuMicros.median / mock.cpuMicros.median).toFixed(2)} | | |`,
  ]
}

function scaleRow(label, { mock, bare, ratio }, reference) {
  const vsDefault = reference
    ? `; ${(mock.rps.median / reference.mock.rps.median).toFixed(2)} × the default scenario's`
    : ''
  return `| ${label}: req/s | ${int(mock.rps.median)} (${spread(mock.rps, int)}) | ${int(bare.rps.median)} | ${ratio.median.toFixed(2)} (${spread(ratio, fixed(2))})${vsDefault} | | |`
}

export function renderTable(r) {
  const { startup, memory, scale, journal, settings } = r
  const { environments: envs, topics } = scale
  const ms = (s) => `${s.median} (${spread(s, String)})`
  const rows = [
    `Node ${r.node}, ${settings.rounds} rounds × ${settings.seconds} s, ${settings.connections} connections${settings.pinned ? ', server pinned to core 0 and autocannon to core 1' : ''}, load average ${r.loadAverage.before}→${r.loadAverage.after}; median (min–max). Ratio = novu-mock ÷ bare Hono, taken pair by pair. Journal on (1000), 20 inactive chaos rules.`,
    '',
    '| Measure | novu-mock | bare Hono, same bytes | ratio | target | |',
    '|---|---|---|---|---|---|',
    ...Object.values(r.routes).flatMap(routeRows),
    `| Start-up to first 200 on GET /v1/topics (ms) | ${ms(startup.topics)} | | | < 300 | ${mark(startup.topics.median < 300)} |`,
    `| ↳ to the banner / first 200 on /__admin/health (ms) | ${startup.listening.median} / ${startup.health.median} | | | | |`,
    `| Peak RSS under load (GET, PUT), default scenario (MB) | ${memory.defaultScenarioPeakRssMB} | | | < ${memory.target} | ${mark(memory.defaultScenarioPeakRssMB < memory.target)} |`,
    `| ↳ idle after start-up / peak during GET, PUT (MB) | ${memory.idleRssMB} / ${r.routes.get.peakRssMB}, ${r.routes.put.peakRssMB} | | | | |`,
    `| ↳ peak during POST, which keeps every workflow (MB) / heap per stored workflow (kB) | ${memory.postPeakRssMB} / ${memory.heapPerWorkflowKB} | | | | |`,
    scaleRow(
      `GET /v1/topics, keys spread over ${int(envs.environments)} environments`,
      envs,
      r.routes.get
    ),
    `| ↳ memory per environment (MB) | ${envs.rssPerEnvironmentMB} RSS, ${envs.heapPerEnvironmentMB} heap | | | | |`,
    `| ↳ peak RSS with ${int(envs.environments)} environments (MB) | ${envs.peakRssMB} | | | | |`,
    scaleRow(`GET /v1/topics with ${int(topics.topics)} topics`, topics, r.routes.get),
    `| ↳ first request, building those topics (ms) / peak RSS (MB) | ${int(topics.firstRequestMs)} / ${topics.peakRssMB} | | | | |`,
    ...scale.inProcess.map(
      (row) =>
        `| ↳ in process, ${int(row.topics)} topics: first page / last page / key filter (µs) | ${row['first page (µs)']} / ${row['last page (µs)']} / ${row['key filter (µs)']} | | | | |`
    ),
    `| Journal: ${int(journal.requests)} requests in process (size ${journal.journalSize}) | ${int(journal.entries)} entries held, heap drift ${journal.heapDriftMB} MB, ${journal.perRequestMicros} µs/request | | | exactly ${journal.journalSize}, flat | ${mark(journal.exact && journal.flat)} |`,
    '',
    `Journal memory every 100,000 requests (after GC): ${journal.series.map((s) => `${int(s.requests / 1000)}k ${s.heapMB}/${s.rssMB}`).join(', ')} (heap/RSS MB).`,
  ]
  return rows.join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(
    renderTable(JSON.parse(readFileSync(process.argv[2] ?? '.bench/results.json', 'utf8')))
  )
