// `npm run bench`: novu-mock against a bare Hono app serving the same bytes, pair by pair, for
// every route family in both generations, plus start-up, memory under load, memory per stored
// record, memory given back after a write load and a reset, scale (pages at a million records, a trigger to a topic of 8,000 subscribers) and a
// long journal run. Prints one markdown table and writes .bench/results.json. Env: BENCH_ROUNDS,
// BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_QUICK=1 (a few minutes), BENCH_ROUTES (names, comma
// separated), BENCH_GENERATIONS, BENCH_SKIP (startup,equal-young,records,budget,reset,scale,environments,journal),
// BENCH_DIST (another build to measure, e.g. an older one), BENCH_OUT (where the JSON goes),
// BENCH_CACHES=off (the route families with every cache off: `node bench/compare.mjs` of such a
// run and one with caches on says what the caches save on each), BENCH_MOCK_NODE_ARGS (node flags
// for the route families' mock, e.g. --max-semi-space-size=8, to weigh a V8 setting).
import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { dirname, relative, resolve } from 'node:path'
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
import { addInactiveRules, manyKeyRequests } from './workloads.mjs'
import { captureRoute, GENERATIONS, routesFor } from './routes.mjs'
import { renderTable } from './table.mjs'

const QUICK = process.env.BENCH_QUICK === '1'
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 1 : 3))
const SECONDS = Number(process.env.BENCH_SECONDS ?? (QUICK ? 2 : 5))
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const WARMUP_SECONDS = QUICK ? 1 : 2
const SCALE_ROUNDS = Math.min(ROUNDS, 3)
const STARTS = QUICK ? 5 : 10
const JOURNAL_REQUESTS = Number(process.env.BENCH_JOURNAL_REQUESTS ?? (QUICK ? 30_000 : 1_000_000))
// The quick run keeps every step but makes the slow set-ups smaller.
const ENVIRONMENTS = QUICK ? 200 : 1000
const RECORDS = Number(process.env.BENCH_RECORDS ?? (QUICK ? 10_000 : 100_000))
const SCALE_RECORDS = Number(process.env.BENCH_SCALE_RECORDS ?? (QUICK ? 100_000 : 1_000_000))
/** Workflows created (and a quarter as many triggers) before the reset whose memory is measured. */
const RESET_CREATES = Number(process.env.BENCH_RESET_CREATES ?? (QUICK ? 5_000 : 20_000))
// 3 jobs a subscriber (the trigger and two channel steps): 8,000 stays under the 25,000 jobs a
// trigger request may create (src/delivery/render-work.ts), which refuses a topic of 10,000.
const TOPIC_SUBSCRIBERS = Number(process.env.BENCH_TOPIC_SUBSCRIBERS ?? (QUICK ? 2_000 : 8_000))
const ONLY_ROUTES = process.env.BENCH_ROUTES?.split(',')
const ONLY_GENERATIONS = process.env.BENCH_GENERATIONS?.split(',') ?? GENERATIONS
const SKIP = new Set(process.env.BENCH_SKIP?.split(',') ?? [])
const CACHES = process.env.BENCH_CACHES === 'off' ? 'off' : 'on'
const MOCK_NODE_ARGS = process.env.BENCH_MOCK_NODE_ARGS?.split(' ').filter(Boolean) ?? []
/** What the mock runs with under load: no workflow limit, room for what the writes keep. */
const MOCK_OPTIONS = { maxWorkflows: 0, maxMemoryMb: 2048 }

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
    await load(mock.url, {
      seconds: WARMUP_SECONDS,
      connections: CONNECTIONS,
      ...(await mockOptions()),
    })
    await load(bare.url, {
      seconds: WARMUP_SECONDS,
      connections: CONNECTIONS,
      ...(await bareOptions()),
    })
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

/** One semi-space of V8's young generation, in MB (Node 20 reports the new space as both). */
async function semiSpaceMB(server) {
  const { spaces } = await server.detail()
  return round1(spaces.new_space.size / 2 / MB)
}

/**
 * A mock answering as `generation` with the bench's rules, every route family of `routes`
 * answered once, and a bare app serving what it answered; both with `nodeArgs`.
 */
async function setUpPair(generation, routes, nodeArgs = []) {
  const mock = await startServer(
    { kind: 'mock', options: { ...MOCK_OPTIONS, apiGeneration: generation } },
    { env: { NOVU_MOCK_CACHES: CACHES }, nodeArgs: [...MOCK_NODE_ARGS, ...nodeArgs] }
  )
  await addInactiveRules(mock.url)
  const captured = []
  for (const route of routes) captured.push(await captureRoute(mock.url, route, generation))
  const bare = await startServer({ kind: 'bare', routes: captured }, { nodeArgs })
  return { mock, bare, captured }
}

/** Peak RSS of both sides since their last resetPeak(), and where each young generation got to. */
async function peaks(mock, bare) {
  return {
    peakRssMB: round1((await mock.mem()).peakRss / MB),
    barePeakRssMB: round1((await bare.mem()).peakRss / MB),
    semiSpaceMB: { mock: await semiSpaceMB(mock), bare: await semiSpaceMB(bare) },
  }
}

const routesToRun = (generation) =>
  routesFor(generation).filter((r) => !ONLY_ROUTES || ONLY_ROUTES.includes(r.name))

/**
 * Every route family of one generation: a mock answering as it and a bare app serving what it
 * answered, pair by pair. Peak RSS is taken per route, from the RSS the previous one left.
 */
async function routePairs(generation) {
  const routes = routesToRun(generation)
  const { mock, bare, captured } = await setUpPair(generation, routes)
  const idleRssMB = round1((await mock.mem()).rss / MB)
  const bareIdleRssMB = round1((await bare.mem()).rss / MB)
  const results = {}
  for (const route of routes) {
    log(`${generation} ${route.label}`)
    // From the RSS the previous route left: V8 seldom gives memory back to the system.
    await mock.resetPeak()
    await bare.resetPeak()
    // The bare app answers any id and any body: the same request sequence, with ids that need
    // no set-up; a path that names a cursor is the mock's own.
    const byId = route.name.startsWith('put') || route.name.startsWith('patch')
    const forBare = byId ? FAKE_IDS : await route.prepare?.(mock.url, CONNECTIONS, generation)
    results[route.name] = await pairs(`${generation} ${route.label}`, {
      mock,
      bare,
      rounds: ROUNDS,
      mockOptions: async () =>
        route.options(await route.prepare?.(mock.url, CONNECTIONS, generation)),
      bareOptions: async () => route.options(forBare),
    })
    Object.assign(results[route.name], {
      label: route.label,
      target: route.target,
      floor: route.floor,
      ...(await peaks(mock, bare)),
    })
  }
  await mock.close()
  await bare.close()
  const responses = captured.map(({ body: _body, ...rest }) => rest)
  return { routes: results, idleRssMB, bareIdleRssMB, responses }
}

/**
 * V8 doubles a young generation each time what survived its scavenges since the last doubling
 * exceeds its size: the mock's start and the set-up's writes take it a doubling or two past the
 * bare app's, and the peak under read load then compares two young generations as much as two
 * servers (docs/benchmarks.md). Here both are held at one size from their start, so the ratio
 * is what the mock holds beyond the bare app.
 */
const EQUAL_SEMI_SPACE_MB = 8

async function readLoadAtEqualYoungGenerations() {
  const generation = '2026-08'
  const size = EQUAL_SEMI_SPACE_MB
  log(`${generation} GET /v1/topics, both young generations held at ${size} MB a semi-space`)
  const route = routesFor(generation).find((r) => r.name === 'get-v1-topics')
  // The same set-up as the route pairs' (BENCH_ROUTES included), so the two peaks compare.
  const { mock, bare } = await setUpPair(generation, routesToRun(generation), [
    `--min-semi-space-size=${size}`,
    `--max-semi-space-size=${size}`,
  ])
  try {
    await mock.resetPeak()
    await bare.resetPeak()
    const result = await pairs(`${generation} ${route.label}, young generations at ${size} MB`, {
      mock,
      bare,
      rounds: ROUNDS,
      mockOptions: () => route.options(),
      bareOptions: () => route.options(),
    })
    return { ...result, heldSemiSpaceMB: size, ...(await peaks(mock, bare)) }
  } finally {
    await mock.close()
    await bare.close()
  }
}

/**
 * 1,000 environments, on a mock of their own so that the memory they take is measured from a
 * fresh start: what each costs, and a GET spread over all their keys.
 */
async function manyEnvironments() {
  log(`GET over ${ENVIRONMENTS} environments`)
  const mock = await startServer({ kind: 'mock', options: {} })
  const captured = await captureRoute(mock.url, routesFor('2026-08')[0], '2026-08')
  const bare = await startServer({ kind: 'bare', routes: [captured] })
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
    await bare.close()
  }
}

/**
 * A bench script in a process of its own (on the server core) so that its memory is its own;
 * it answers its result over IPC.
 */
function child(name, args, nodeArgs = []) {
  const script = fileURLToPath(new URL(`./${name}.mjs`, import.meta.url))
  const [command, argv] = pinned(SERVER_CORE, [
    process.execPath,
    '--expose-gc',
    ...nodeArgs,
    script,
    ...args.map(String),
  ])
  return new Promise((resolve, reject) => {
    // spawn with an IPC channel: taskset execs node, which finds the channel and answers on it.
    const running = spawn(command, argv, {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, BENCH_DIST: DIST },
    })
    running.once('message', resolve)
    running.once('exit', (code) => code && reject(new Error(`${name} exited with ${code}`)))
  })
}

/** Heap per stored workflow, message and subscriber, in each generation. */
async function recordMemory() {
  const out = {}
  for (const generation of ONLY_GENERATIONS) {
    log(`memory per record: ${RECORDS.toLocaleString('en')} of each kind, ${generation}`)
    out[generation] = await child('records', [RECORDS, generation])
  }
  return out
}

/** The memory budget's estimate beside the heap, per kind of record (bench/budget.mjs). */
async function budgetAgainstHeap() {
  const out = {}
  for (const generation of ONLY_GENERATIONS) {
    log(
      `memory budget against the heap: ${(RECORDS / 10).toLocaleString('en')} of each, ${generation}`
    )
    out[generation] = await child('budget', [RECORDS / 10, generation])
  }
  return out
}

/** Pages at 1,000 and 1,000,000 records, a trigger to topics of 800 and 8,000 subscribers. */
function scaleRun() {
  log(
    `scale: pages at ${SCALE_RECORDS.toLocaleString('en')} records, a topic of ${TOPIC_SUBSCRIBERS.toLocaleString('en')} subscribers`
  )
  // About 1.5 kB a topic and a message at a million: far past Node's default heap.
  return child(
    'scale',
    [SCALE_RECORDS, TOPIC_SUBSCRIBERS, '2026-08'],
    ['--max-old-space-size=8192']
  )
}

/** A step that failed leaves its part of the table empty, not the whole run lost. */
function failed(error) {
  log(`failed, left out of the table: ${error.message}`)
  return undefined
}

async function main() {
  const pinnedToCore = pinSelf()
  const t0 = performance.now()
  const loadBefore = loadavg()[0]
  log(
    `novu-mock bench: ${ROUNDS} rounds × ${SECONDS} s, ${CONNECTIONS} connections${pinnedToCore ? ', server on core 0, load on core 1' : ' (no taskset: unpinned)'}${QUICK ? ', quick' : ''}`
  )

  let startup
  if (!SKIP.has('startup')) {
    log(`start-up: ${STARTS} starts of dist/novu-mock.mjs and of a bare Hono app`)
    startup = await measureStartup({ starts: STARTS })
  }

  const generations = {}
  for (const generation of ONLY_GENERATIONS) generations[generation] = await routePairs(generation)
  const equalYoung = SKIP.has('equal-young')
    ? undefined
    : await readLoadAtEqualYoungGenerations().catch(failed)
  const records = SKIP.has('records') ? undefined : await recordMemory().catch(failed)
  const budget = SKIP.has('budget') ? undefined : await budgetAgainstHeap().catch(failed)
  let reset
  if (!SKIP.has('reset')) {
    log(`memory after a reset: ${RESET_CREATES.toLocaleString('en')} creates and their triggers`)
    reset = await child('reset-memory', [RESET_CREATES, '2026-08']).catch(failed)
  }
  const environments = SKIP.has('environments') ? undefined : await manyEnvironments().catch(failed)
  const scale = SKIP.has('scale') ? undefined : await scaleRun().catch(failed)
  let journal
  if (!SKIP.has('journal')) {
    log(`journal: ${JOURNAL_REQUESTS.toLocaleString('en')} requests in process`)
    journal = await child('journal', [JOURNAL_REQUESTS]).catch(failed)
  }

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
      records: RECORDS,
      scaleRecords: SCALE_RECORDS,
      topicSubscribers: TOPIC_SUBSCRIBERS,
    },
    // Other work on the machine moves every number: the 1-minute load average, before and after.
    loadAverage: { before: +loadBefore.toFixed(2), after: +loadavg()[0].toFixed(2) },
    generations,
    equalYoung,
    caches: CACHES,
    startup,
    records,
    budget,
    reset,
    scale: { environments, ...(scale ?? {}) },
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
