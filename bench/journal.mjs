// The journal under a long run: N requests through app.request() in process, with the default
// journal size; the journal must hold exactly journalSize entries and memory must stay flat.
// Run in a process of its own, with --expose-gc: `node --expose-gc bench/journal.mjs [n]`.
import { pathToFileURL } from 'node:url'
import { DIST, MB } from './harness.mjs'
import { INACTIVE_RULES } from './workloads.mjs'

const SAMPLE_EVERY = 100_000

function memory() {
  globalThis.gc?.()
  globalThis.gc?.()
  const { rss, heapUsed } = process.memoryUsage()
  return { rssMB: +(rss / MB).toFixed(1), heapMB: +(heapUsed / MB).toFixed(1) }
}

/** A mix the journal has to record differently: a match, a query, a body, a miss. */
function requestFor(i) {
  const headers = { Authorization: 'ApiKey bench-journal', 'User-Agent': 'novu-mock-bench' }
  switch (i % 4) {
    case 0:
      return [`/v1/topics?page=${i % 3}&pageSize=10`, { headers }]
    case 1:
      return ['/v1/notification-groups', { headers }]
    case 2:
      // A 404 with a body: the workflow does not exist, so nothing is stored.
      return [
        '/v1/workflows/66fbb0a0c1f2e3d4a5b6ffff/status',
        {
          method: 'PUT',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: '{"active":true}',
        },
      ]
    default:
      return [`/v1/unknown-route-${i % 7}`, { headers }]
  }
}

export async function journalRun({ requests = 1_000_000, journalSize = 1000, dist = DIST } = {}) {
  const { createMock } = await import(pathToFileURL(`${dist}/index.js`).href)
  const { app, state } = createMock({ journalSize, logLevel: 'silent' })
  for (let i = 0; i < INACTIVE_RULES; i++)
    state.rules.add({ match: { path: `/v1/never-${i}/:id` }, fault: { status: 503 } })
  const series = [{ requests: 0, ...memory() }]
  const started = performance.now()
  for (let i = 1; i <= requests; i++) {
    const res = await app.request(...requestFor(i))
    await res.arrayBuffer()
    if (i % SAMPLE_EVERY === 0 || i === requests) series.push({ requests: i, ...memory() })
  }
  const seconds = (performance.now() - started) / 1000
  // Flat: from the 200,000th request on (journal full, code warm), the heap moves under 5 MB.
  const settled = series.slice(2).map((s) => s.heapMB)
  const heapDriftMB = settled.length ? +(Math.max(...settled) - Math.min(...settled)).toFixed(1) : 0
  return {
    requests,
    journalSize,
    entries: state.journal.size(),
    exact: state.journal.size() === journalSize,
    seconds: +seconds.toFixed(1),
    perRequestMicros: +((seconds * 1e6) / requests).toFixed(1),
    heapDriftMB,
    flat: heapDriftMB < 5,
    series,
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await journalRun({ requests: Number(process.argv[2] ?? 1_000_000) })
  // Under bench/run.mjs the result goes back over IPC; the open channel would keep us alive.
  if (process.send) process.send(result, () => process.exit(0))
  else {
    console.table(result.series)
    const { series: _series, ...rest } = result
    console.log(rest)
  }
}
