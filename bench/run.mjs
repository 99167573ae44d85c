// `npm run bench`: novu-mock against a bare Hono app serving the same bytes, pair by pair, plus
// start-up, memory, scale and a long journal run. Prints one markdown table and writes
// .bench/results.json. Env: BENCH_ROUNDS, BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_QUICK=1 (a
// ~30 s smoke run), BENCH_DIST (another build to measure, e.g. an older one), BENCH_OUT (where
// the JSON goes).
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  call,
  DIST,
  load,
  MB,
  pinned,
  pinSelf,
  ROOT,
  SERVER_CORE,
  startServer,
  summary,
} from './harness.mjs'
import { measureStartup } from './startup.mjs'
import { topicsScale } from './topics-scale.mjs'
import {
  addInactiveRules,
  captureRoutes,
  manyKeyRequests,
  ROUTES,
  TOPICS_PATH,
} from './workloads.mjs'
import { renderTable } from './table.mjs'

const QUICK = process.env.BENCH_QUICK === '1'
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 1 : 5))
const SECONDS = Number(process.env.BENCH_SECONDS ?? (QUICK ? 1 : 5))
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)
const WARMUP_SECONDS = QUICK ? 0 : 2
const SCALE_ROUNDS = Math.min(ROUNDS, 3)
const STARTS = QUICK ? 3 : 10
const JOURNAL_REQUESTS = Number(process.env.BENCH_JOURNAL_REQUESTS ?? (QUICK ? 30_000 : 1_000_000))
// The smoke run keeps every step but makes the slow set-ups smaller.
const ENVIRONMENTS = QUICK ? 200 : 1000
const TOPICS = 100_000

const began = performance.now()
const log = (line) =>
  process.stderr.write(`[${Math.round((performance.now() - began) / 1000)} s] ${line}\n`)
const round1 = (n) => Math.round(n * 10) / 10

/** Server CPU time per answered request, from the server's own process.cpuUsage(). */
async function measure(server, options) {
  const before = await server.mem()
  const result = await load(server.url, { seconds: SECONDS, connections: CONNECTIONS, ...options })
  const after = await server.mem()
  const cpuMicros = round1((after.cpuMicros - before.cpuMicros) / Math.max(1, result.requests))
  if (result.non2xx || result.errors)
    log(`  warning: ${result.non2xx} non-2xx answers and ${result.errors} errors`)
  return { ...result, rps: Math.round(result.rps), cpuMicros }
}

/**
 * Runs `mockOptions()` on the mock and `bareOptions()` on the bare app back to back, `rounds`
 * times, swapping who goes first each round; the ratio is taken within each pair, so a noisy
 * neighbour slows both sides of a pair rather than one side of the comparison.
 */
async function pairs(label, { mock, bare, mockOptions, bareOptions, rounds }) {
  const runs = []
  if (WARMUP_SECONDS > 0) {
    await load(mock.url, { seconds: WARMUP_SECONDS, ...(await mockOptions()) })
    await load(bare.url, { seconds: WARMUP_SECONDS, ...(await bareOptions()) })
  }
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? ['bare', 'mock'] : ['mock', 'bare']
    const run = {}
    for (const side of order)
      run[side] =
        side === 'mock'
          ? await measure(mock, await mockOptions())
          : await measure(bare, await bareOptions())
    run.ratio = +(run.mock.rps / run.bare.rps).toFixed(3)
    log(
      `  ${label} round ${round + 1}: mock ${run.mock.rps} req/s, bare ${run.bare.rps} req/s, ratio ${run.ratio}`
    )
    runs.push(run)
  }
  const of = (side, key) => summary(runs.map((run) => run[side][key]))
  const sides = (side) => ({
    rps: of(side, 'rps'),
    p50: of(side, 'p50'),
    p99: of(side, 'p99'),
    cpuMicros: of(side, 'cpuMicros'),
  })
  return {
    label,
    rounds: runs,
    mock: sides('mock'),
    bare: sides('bare'),
    ratio: summary(runs.map((r) => r.ratio)),
  }
}

const FAKE_IDS = Array.from(
  { length: CONNECTIONS },
  (_, i) => `66fbb0a0c1f2e3d4a5b6${String(i).padStart(4, '0')}`
)

async function routePairs(mock, bare) {
  const results = {}
  for (const [name, route] of Object.entries(ROUTES)) {
    log(`${route.label}`)
    // From the RSS the previous route left: V8 seldom gives memory back to the system.
    await mock.resetPeak()
    results[name] = await pairs(route.label, {
      mock,
      bare,
      rounds: ROUNDS,
      mockOptions: async () => route.options(await route.prepare?.(mock.url, CONNECTIONS)),
      // The bare app answers any id: the same request sequence, with ids that need no set-up.
      bareOptions: async () => route.options(FAKE_IDS),
    })
    results[name].target = route.target
    results[name].peakRssMB = round1((await mock.mem()).peakRss / MB)
  }
  return results
}

/**
 * 1,000 environments, on a mock of their own so that the memory they take is measured from a
 * fresh start: what each costs, and a GET spread over all their keys.
 */
async function manyEnvironments(bare) {
  log(`GET over ${ENVIRONMENTS} environments`)
  const mock = await startServer({ kind: 'mock', options: {} })
  try {
    await addInactiveRules(mock.url)
    // One environment first, so faker and the code paths are loaded before the baseline.
    await call(mock.url, 'GET', '/v1/topics', { key: 'bench-env-warm' })
    await mock.gc()
    const before = await mock.mem()
    for (let i = 0; i < ENVIRONMENTS; i++) {
      const res = await call(mock.url, 'GET', '/v1/topics', { key: `bench-env-${i}` })
      if (res.status !== 200) throw new Error(`environment ${i}: ${res.status}`)
    }
    await mock.gc()
    const after = await mock.mem()
    await mock.resetPeak()
    const result = await pairs(`GET /v1/topics, ${ENVIRONMENTS} keys`, {
      mock,
      bare,
      rounds: SCALE_ROUNDS,
      mockOptions: () => ({ requests: manyKeyRequests(ENVIRONMENTS) }),
      bareOptions: () => ({ requests: manyKeyRequests(ENVIRONMENTS) }),
    })
    return {
      ...result,
      environments: ENVIRONMENTS,
      rssPerEnvironmentMB: +((after.rss - before.rss) / ENVIRONMENTS / MB).toFixed(3),
      heapPerEnvironmentMB: +((after.heapUsed - before.heapUsed) / ENVIRONMENTS / MB).toFixed(3),
      rssAfterWarmUpMB: round1(after.rss / MB),
      peakRssMB: round1((await mock.mem()).peakRss / MB),
    }
  } finally {
    await mock.close()
  }
}

/** Heap per workflow POST stored: the last round's workflows, then none (reset), after GC. */
async function storedWorkflowMemory(mock, stored) {
  await mock.gc()
  const withWorkflows = (await mock.mem()).heapUsed
  await ROUTES.post.prepare(mock.url)
  await mock.gc()
  const without = (await mock.mem()).heapUsed
  return Math.round((withWorkflows - without) / stored / 1024)
}

/** The same GET with 100,000 topics in the key's environment, from a scenario in a temp dir. */
async function manyTopics(bare) {
  log(`GET with ${TOPICS} topics`)
  const dir = mkdtempSync(join(tmpdir(), 'novu-mock-bench-'))
  const name = 'bench-100k-topics'
  writeFileSync(
    join(dir, `${name}.json`),
    JSON.stringify({ name, data: { generate: { topics: TOPICS } } })
  )
  const mock = await startServer({ kind: 'mock', options: { scenario: name, scenariosDir: dir } })
  try {
    await addInactiveRules(mock.url)
    const started = performance.now()
    const first = await call(mock.url, 'GET', TOPICS_PATH, {
      key: ROUTES.get.options().headers.Authorization.slice(7),
    })
    const buildMs = Math.round(performance.now() - started)
    const totalCount = JSON.parse(first.bytes.toString()).totalCount
    await mock.resetPeak()
    const result = await pairs(`GET /v1/topics, ${TOPICS} topics`, {
      mock,
      bare,
      rounds: SCALE_ROUNDS,
      mockOptions: () => ROUTES.get.options(),
      bareOptions: () => ROUTES.get.options(),
    })
    return {
      ...result,
      topics: totalCount,
      firstRequestMs: buildMs,
      peakRssMB: round1((await mock.mem()).peakRss / MB),
    }
  } finally {
    await mock.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The journal run, in a process of its own (on the server core) so its memory is its own. */
function journalRun() {
  log(`journal: ${JOURNAL_REQUESTS.toLocaleString('en')} requests in process`)
  const script = fileURLToPath(new URL('./journal.mjs', import.meta.url))
  const [command, args] = pinned(SERVER_CORE, [
    process.execPath,
    '--expose-gc',
    script,
    String(JOURNAL_REQUESTS),
  ])
  return new Promise((resolve, reject) => {
    // spawn with an IPC channel: taskset execs node, which finds the channel and answers on it.
    const child = spawn(command, args, {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, BENCH_DIST: DIST },
    })
    child.once('message', resolve)
    child.once('exit', (code) => code && reject(new Error(`journal run exited with ${code}`)))
  })
}

async function main() {
  const pinnedToCore = pinSelf()
  const t0 = performance.now()
  const loadBefore = loadavg()[0]
  log(
    `novu-mock bench: ${ROUNDS} rounds × ${SECONDS} s, ${CONNECTIONS} connections${pinnedToCore ? ', server on core 0, load on core 1' : ' (no taskset: unpinned)'}${QUICK ? ', quick' : ''}`
  )

  log(`start-up: ${STARTS} starts of dist/novu-mock.mjs`)
  const startup = await measureStartup({ starts: STARTS })

  const mock = await startServer({ kind: 'mock', options: {} })
  await addInactiveRules(mock.url)
  const captured = await captureRoutes(mock.url)
  const bare = await startServer({ kind: 'bare', routes: captured })
  const idleRssMB = round1((await mock.mem()).rss / MB)
  const routes = await routePairs(mock, bare)
  // The target is for steady load: GET and PUT. POST keeps every workflow it creates.
  const defaultPeakRssMB = Math.max(routes.get.peakRssMB, routes.put.peakRssMB)
  const heapPerWorkflowKB = await storedWorkflowMemory(
    mock,
    routes.post.rounds.at(-1).mock.requests
  )
  await mock.close()
  const environments = await manyEnvironments(bare)
  const topics = await manyTopics(bare)
  await bare.close()
  // In process, no HTTP: a first page, a last page and a key lookup cost the same at 100 and 100,000 topics.
  log('topics in process: first page, last page, key filter at 100 and 100,000 topics')
  const inProcess = QUICK ? [] : await topicsScale({ rounds: 3000 })
  const journal = await journalRun()

  const results = {
    date: new Date().toISOString(),
    node: process.version,
    dist: DIST,
    settings: {
      rounds: ROUNDS,
      seconds: SECONDS,
      connections: CONNECTIONS,
      quick: QUICK,
      pinned: pinnedToCore,
    },
    // Other work on the machine moves every number: the 1-minute load average, before and after.
    loadAverage: { before: +loadBefore.toFixed(2), after: +loadavg()[0].toFixed(2) },
    responses: captured.map(({ body: _body, ...rest }) => rest),
    routes,
    startup,
    memory: {
      idleRssMB,
      defaultScenarioPeakRssMB: defaultPeakRssMB,
      target: 120,
      postPeakRssMB: routes.post.peakRssMB,
      heapPerWorkflowKB,
    },
    scale: { environments, topics, inProcess },
    journal,
    runtimeSeconds: Math.round((performance.now() - t0) / 1000),
  }
  const out = resolve(ROOT, process.env.BENCH_OUT ?? '.bench/results.json')
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`)
  console.log(renderTable(results))
  log(`\nwrote ${relative(ROOT, out)} (${results.runtimeSeconds} s)`)
}

await main()
