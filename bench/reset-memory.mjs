// Memory given back after a reset (issue 24): the mock's RSS idle after start, after a write
// load (workflow creates, each named apart, and a quarter as many triggers, over HTTP), and
// after POST /__admin/reset and full collections; the target is RSS back within 1.5 times its
// idle size. The mock runs as under `npm run bench` (bench/server.mjs, --expose-gc).
// `node bench/reset-memory.mjs [creates=20000] [2026-08|2024-10]`; node flags for the mock in
// BENCH_RESET_NODE_ARGS (space separated, e.g. --max-semi-space-size=8).
import { call, MB, startServer } from './harness.mjs'
import { TRIGGER_SUBSCRIBER, TRIGGER_WORKFLOW } from './routes.mjs'
import { WORKFLOW_BODY } from './workloads.mjs'

const CONCURRENCY = 10
const KEYS = ['bench-reset-1', 'bench-reset-2']
const round1 = (n) => Math.round(n * 10) / 10

/** `count` requests made by `send(i)`, `CONCURRENCY` at a time; every one must succeed. */
async function spread(count, send) {
  let next = 0
  const worker = async () => {
    while (next < count) {
      const res = await send(next++)
      if (res.status >= 300) throw new Error(`write failed: ${res.status} ${res.bytes}`)
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
}

/** `creates` workflows and a quarter as many triggers (1 subscriber, 2 channel steps). */
async function writeLoad(mock, creates, generation) {
  const body = JSON.parse(WORKFLOW_BODY)
  await spread(creates, (i) =>
    call(mock.url, 'POST', '/v1/workflows', {
      key: KEYS[i % 2],
      body: { ...body, name: `${body.name} ${i}` },
    })
  )
  const [key] = KEYS
  const workflow = await call(mock.url, 'POST', '/v1/workflows', { key, body: TRIGGER_WORKFLOW })
  const name = JSON.parse(workflow.bytes.toString()).data.triggers[0].identifier
  const subscribers = generation === '2024-10' ? '/v1/subscribers' : '/v2/subscribers'
  await call(mock.url, 'POST', subscribers, { key, body: TRIGGER_SUBSCRIBER })
  await spread(Math.ceil(creates / 4), () =>
    call(mock.url, 'POST', '/v1/events/trigger', {
      key,
      body: { name, to: { subscriberId: TRIGGER_SUBSCRIBER.subscriberId }, payload: {} },
    })
  )
}

async function reset(mock) {
  const res = await call(mock.url, 'POST', '/__admin/reset')
  if (res.status !== 200) throw new Error(`reset failed: ${res.status} ${res.bytes}`)
}

/** What the process's caches hold, in MB (GET /__admin/caches). */
async function cachesMB(mock) {
  const res = await call(mock.url, 'GET', '/__admin/caches')
  return round1(JSON.parse(res.bytes.toString()).bytes / MB)
}

async function settled(mock) {
  await mock.gc()
  await new Promise((resolve) => setTimeout(resolve, 200))
  await mock.gc()
  return mock.mem()
}

const figures = (mem) => ({
  rssMB: round1(mem.rss / MB),
  heapMB: round1(mem.heapUsed / MB),
  heapCommittedMB: round1(mem.heapTotal / MB),
  externalMB: round1(mem.external / MB),
  newSpaceMB: mem.spaces.new_space,
})

export async function resetMemory({
  creates = 20_000,
  generation = '2026-08',
  nodeArgs = [],
} = {}) {
  const mock = await startServer(
    { kind: 'mock', options: { maxWorkflows: 0, maxMemoryMb: 4096, apiGeneration: generation } },
    { nodeArgs }
  )
  try {
    for (const key of KEYS) await call(mock.url, 'GET', '/v1/topics', { key })
    const idle = await settled(mock)
    // A few writes of each kind and a reset: their code compiled, no record kept. The heap
    // held past this one after the load and the reset is what the mock itself keeps.
    await writeLoad(mock, 4, generation)
    await reset(mock)
    const warm = await settled(mock)
    await writeLoad(mock, creates, generation)
    const loaded = await settled(mock)
    const loadedCaches = await cachesMB(mock)
    await reset(mock)
    const after = await settled(mock)
    return {
      generation,
      creates,
      triggers: Math.ceil(creates / 4),
      idle: figures(idle),
      warm: figures(warm),
      loaded: {
        ...figures(loaded),
        peakRssMB: round1(loaded.peakRss / MB),
        cachesMB: loadedCaches,
      },
      afterReset: { ...figures(after), cachesMB: await cachesMB(mock) },
      retainedHeapMB: round1((after.heapUsed - warm.heapUsed) / MB),
      ratio: +(after.rss / idle.rss).toFixed(2),
      target: 1.5,
    }
  } finally {
    await mock.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await resetMemory({
    creates: Number(process.argv[2] ?? 20_000),
    generation: process.argv[3] ?? '2026-08',
    nodeArgs: process.env.BENCH_RESET_NODE_ARGS?.split(' ').filter(Boolean) ?? [],
  })
  if (process.send) process.send(result, () => process.exit(0))
  else console.log(JSON.stringify(result, null, 2))
}
