// Where the mock's resident memory goes, beside the bare app, set up as `npm run bench` sets up
// its route pairs (issue 24): every route family answered once, then idle figures, then the
// peak under GET /v1/topics load. `node bench/rss-where.mjs [dist] [--snapshot=<dir>]` (snapshots
// at idle and under load); RSS_ROUTE another route, RSS_NODE_ARGS and BARE_NODE_ARGS node flags
// (e.g. --trace-gc-nvp, --max-semi-space-size=8), RSS_MOCK_OPTIONS more startMock() options
// (JSON), RSS_MARKERS=1 a line before each capture (to read beside a GC trace), RSS_CAPTURE the
// route families answered before the load (names of bench/routes.mjs, comma-separated; all unset).
import { resolve } from 'node:path'
import { DIST, load, MB, startServer } from './harness.mjs'
import { captureRoute, routesFor } from './routes.mjs'
import { addInactiveRules } from './workloads.mjs'

const GENERATION = '2026-08'
const dist = process.argv[2] && !process.argv[2].startsWith('--') ? resolve(process.argv[2]) : DIST
const snapshotDir = process.argv.find((a) => a.startsWith('--snapshot='))?.slice(11)
const ROUTE = process.env.RSS_ROUTE ?? 'get-v1-topics'
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2)
const nodeArgs = process.env.RSS_NODE_ARGS?.split(' ').filter(Boolean) ?? []
const mb = (bytes) => Math.round((bytes / MB) * 10) / 10

function summarise(label, d) {
  const spaces = Object.entries(d.spaces)
    .map(([name, s]) => `${name.replace('_space', '')} ${mb(s.size)}/${mb(s.used)}`)
    .join(', ')
  const smaps = Object.entries(d.smaps)
    .filter(([, kb]) => kb >= 512)
    .sort((a, b) => b[1] - a[1])
    .map(([name, kb]) => `${name} ${Math.round(kb / 102.4) / 10}`)
    .join(', ')
  const { rss, heapTotal, heapUsed, external, arrayBuffers } = d.memory
  console.log(
    `${label}: rss ${mb(rss)}, heap ${mb(heapUsed)}/${mb(heapTotal)}, external ${mb(external)} (buffers ${mb(arrayBuffers)})`
  )
  console.log(`  spaces (committed/used MB): ${spaces}`)
  console.log(
    `  code: bytecode+metadata ${mb(d.code.bytecode_and_metadata_size)}, code ${mb(d.code.code_and_metadata_size)}, scripts' source ${mb(d.code.external_script_source_size)}`
  )
  console.log(`  resident by mapping (MB): ${smaps}`)
}

const options = {
  maxWorkflows: 0,
  maxMemoryMb: 2048,
  apiGeneration: GENERATION,
  ...JSON.parse(process.env.RSS_MOCK_OPTIONS ?? '{}'),
}
const mock = await startServer({ kind: 'mock', dist, options }, { nodeArgs })
try {
  if (process.env.RSS_MARKERS) console.log('marker: started')
  await addInactiveRules(mock.url)
  const captured = []
  const capture = process.env.RSS_CAPTURE?.split(',')
  for (const route of routesFor(GENERATION).filter((r) => !capture || capture.includes(r.name))) {
    if (process.env.RSS_MARKERS) console.log(`marker: capture ${route.name}`)
    captured.push(await captureRoute(mock.url, route, GENERATION))
  }
  const bare = await startServer(
    { kind: 'bare', routes: captured },
    { nodeArgs: process.env.BARE_NODE_ARGS?.split(' ').filter(Boolean) ?? [] }
  )
  try {
    summarise('mock idle', await mock.detail())
    summarise('bare idle', await bare.detail())
    if (snapshotDir) {
      console.log('snapshot', (await mock.snapshot(`${snapshotDir}/mock-idle.heapsnapshot`)).path)
      console.log('snapshot', (await bare.snapshot(`${snapshotDir}/bare-idle.heapsnapshot`)).path)
    }
    await mock.resetPeak()
    await bare.resetPeak()
    // RSS_ROUTE: another route of bench/routes.mjs under load (one whose set-up needs no ids).
    const route = routesFor(GENERATION).find((r) => r.name === ROUTE)
    const request = route.options(await route.prepare?.(mock.url, 50, GENERATION))
    if (snapshotDir) {
      // What a request holds while it is in flight is what survives the young generation.
      const running = load(mock.url, { seconds: SECONDS, connections: 50, ...request })
      await new Promise((resolve) => setTimeout(resolve, (SECONDS * 1000) / 2))
      console.log('snapshot', (await mock.snapshot(`${snapshotDir}/mock-load.heapsnapshot`)).path)
      await running
      const bareRunning = load(bare.url, { seconds: SECONDS, connections: 50, ...request })
      await new Promise((resolve) => setTimeout(resolve, (SECONDS * 1000) / 2))
      console.log('snapshot', (await bare.snapshot(`${snapshotDir}/bare-load.heapsnapshot`)).path)
      await bareRunning
    }
    const cpu = { mock: { micros: 0, requests: 0 }, bare: { micros: 0, requests: 0 } }
    const timed = async (side, server) => {
      const before = (await server.mem()).cpuMicros
      const { requests } = await load(server.url, { seconds: SECONDS, connections: 50, ...request })
      cpu[side].micros += (await server.mem()).cpuMicros - before
      cpu[side].requests += requests
    }
    for (let round = 0; round < ROUNDS; round++) {
      await timed('mock', mock)
      await timed('bare', bare)
    }
    const [m, b] = [await mock.mem(), await bare.mem()]
    const perRequest = ({ micros, requests }) => (micros / requests).toFixed(1)
    console.log(
      `server CPU a request: mock ${perRequest(cpu.mock)} µs (${cpu.mock.requests} requests), bare ${perRequest(cpu.bare)} µs (${cpu.bare.requests} requests)`
    )
    summarise('mock after load', await mock.detail())
    summarise('bare after load', await bare.detail())
    console.log(
      `peak RSS under ${ROUTE}: mock ${mb(m.peakRss)}, bare ${mb(b.peakRss)}, ${(m.peakRss / b.peakRss).toFixed(2)} ×`
    )
  } finally {
    await bare.close()
  }
} finally {
  await mock.close()
}
