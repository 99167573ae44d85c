// Pages that cost the same whatever the collection's size, and a topic trigger that costs the
// same per subscriber whatever the topic's size. In process (app.request, no sockets), through
// the whole app (auth, validation, journal): records go in through the stores' own add() as a
// scenario or an import would put them (a million through HTTP would measure the writes, not
// the pages), then pages are timed. Run in a process of its own with a large heap:
// `node --max-old-space-size=6144 bench/scale.mjs [records=1000000] [subscribers=10000] [generation]`.
import { pathToFileURL } from 'node:url'
import { DIST, MB } from './harness.mjs'
import { TRIGGER_WORKFLOW, TRIGGER_SUBSCRIBER } from './routes.mjs'

const KEY = 'bench-scale'
const HEADERS = { Authorization: `ApiKey ${KEY}`, 'Content-Type': 'application/json' }

async function send(app, method, path, body) {
  const res = await app.request(path, {
    method,
    headers: HEADERS,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`)
  return text
}

/**
 * Median µs of a request, over at least `rounds` requests and 200 ms, after a warm-up. List
 * answers are cached while their store is unchanged (src/http/answer-cache.ts): `invalidate` (not
 * timed) makes each request build its page from the store, which is what this measures. The
 * median, not the mean: at a million records a scavenge or a marking step of the 800 MB heap
 * lands on one request in a few and adds milliseconds to it, whichever route it is; work that
 * grows with the collection costs every request.
 */
async function timed(app, path, invalidate, rounds = 20) {
  for (let i = 0; i < 20; i++) {
    invalidate()
    await send(app, 'GET', path)
  }
  globalThis.gc?.()
  const samples = []
  let micros = 0
  while (samples.length < rounds || micros < 200_000) {
    invalidate()
    const started = performance.now()
    await send(app, 'GET', path)
    const took = (performance.now() - started) * 1000
    samples.push(took)
    micros += took
  }
  samples.sort((a, b) => a - b)
  return +samples[samples.length >> 1].toFixed(1)
}

function mockFor(createMock, generation) {
  return createMock({
    apiGeneration: generation,
    scenario: 'empty',
    maxWorkflows: 0,
    logLevel: 'silent',
    // The records, not the budget, are what is measured.
    maxMemoryMb: 65_536,
  })
}

/** `count` topics added to the key's environment, as newTopic builds them. */
async function addTopics(dist, env, count) {
  const { newTopic } = await import(pathToFileURL(`${dist}/resources/topics/memberships.js`).href)
  for (let i = 0; i < count; i++) env.topics.put(newTopic(env, `topic-${i}`, `Topic ${i}`))
}

/** `count` messages: copies of two trigger-made ones, each with its own id and transaction. */
function addMessages(env, count) {
  const [a, b] = env.messages.all()
  for (let i = 0; i < count; i++) {
    const model = i % 2 ? b : a
    env.messages.add({ ...model, _id: env.newId(), transactionId: `txn-${i >> 1}` })
  }
}

async function pagesAt(createMock, dist, generation, count) {
  const mock = mockFor(createMock, generation)
  const { app, state } = mock
  await send(app, 'GET', '/v1/topics')
  const env = state.environments.peek(KEY)
  const name = JSON.parse(await send(app, 'POST', '/v1/workflows', TRIGGER_WORKFLOW)).data
    .triggers[0].identifier
  const subscribers = generation === '2024-10' ? '/v1/subscribers' : '/v2/subscribers'
  await send(app, 'POST', subscribers, TRIGGER_SUBSCRIBER)
  await send(app, 'POST', '/v1/events/trigger', {
    name,
    to: { subscriberId: TRIGGER_SUBSCRIBER.subscriberId },
    payload: { orderId: 'A-1' },
  })
  const built = performance.now()
  await addTopics(dist, env, count)
  addMessages(env, count - env.messages.all().length)
  const buildSeconds = +((performance.now() - built) / 1000).toFixed(1)
  const lastTopics = Math.floor((count - 1) / 10)
  const lastMessages = Math.floor((count - 1) / 10)
  // A write the pages cannot see: the store's version moves, so no cached answer is served.
  const [topic] = env.topics.all()
  const topicsChanged = () => env.topics.put(topic)
  // An older build (BENCH_DIST) caches nothing and has no such call.
  const subscribersChanged = () => env.subscribers.touch?.()
  const row = { records: count, buildSeconds }
  const topics = (path) => timed(app, path, topicsChanged)
  // One record by key: no page at all, so what it grows by is the cost of a larger heap alone.
  row['GET /v1/topics/:key (one topic)'] = await topics(`/v1/topics/topic-${count >> 1}`)
  row['GET /v1/topics first page'] = await topics('/v1/topics?page=0&pageSize=10')
  row['GET /v1/topics last page'] = await topics(`/v1/topics?page=${lastTopics}&pageSize=10`)
  if (generation !== '2024-10') {
    const first = JSON.parse(await send(app, 'GET', '/v2/topics?limit=10'))
    row['GET /v2/topics first page'] = await topics('/v2/topics?limit=10')
    row['GET /v2/topics cursor page'] = await topics(`/v2/topics?limit=10&after=${first.next}`)
  }
  const messages = (path) => timed(app, path, subscribersChanged)
  row['GET /v1/messages first page'] = await messages('/v1/messages?page=0&limit=10')
  row['GET /v1/messages last page'] = await messages(`/v1/messages?page=${lastMessages}&limit=10`)
  globalThis.gc?.()
  row.heapMB = Math.round(process.memoryUsage().heapUsed / MB)
  return row
}

/** One trigger to a topic of `size` subscribers: ms, and µs per subscriber. */
async function topicTrigger(createMock, generation, size) {
  const { app } = mockFor(createMock, generation)
  const name = JSON.parse(await send(app, 'POST', '/v1/workflows', TRIGGER_WORKFLOW)).data
    .triggers[0].identifier
  const ids = []
  for (let i = 0; i < size; i++) {
    const subscriberId = `member-${i}`
    await send(app, 'POST', '/v1/subscribers', {
      subscriberId,
      firstName: 'Ada',
      email: `member-${i}@example.com`,
    })
    ids.push(subscriberId)
  }
  for (let i = 0; i < ids.length; i += 1000)
    await send(app, 'POST', '/v1/topics/bench-topic/subscribers', {
      subscribers: ids.slice(i, i + 1000),
    })
  const body = { name, to: [{ type: 'Topic', topicKey: 'bench-topic' }], payload: { orderId: 'T' } }
  // One trigger warms the code; the next three are timed.
  await send(app, 'POST', '/v1/events/trigger', body)
  const times = []
  for (let i = 0; i < 3; i++) {
    const started = performance.now()
    await send(app, 'POST', '/v1/events/trigger', body)
    times.push(performance.now() - started)
  }
  const ms = times.sort((a, b) => a - b)[1]
  return {
    subscribers: size,
    ms: +ms.toFixed(1),
    perSubscriberMicros: +((ms * 1000) / size).toFixed(1),
  }
}

export async function scale({
  records = 1_000_000,
  small = 1_000,
  subscribers = 8_000,
  generation = '2026-08',
  dist = DIST,
} = {}) {
  const { createMock } = await import(pathToFileURL(`${dist}/index.js`).href)
  const pages = []
  for (const count of [small, records])
    pages.push(await pagesAt(createMock, dist, generation, count))
  const triggers = []
  for (const size of [subscribers / 10, subscribers])
    triggers.push(await topicTrigger(createMock, generation, size))
  return { generation, pages, triggers }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await scale({
    records: Number(process.argv[2] ?? 1_000_000),
    subscribers: Number(process.argv[3] ?? 10_000),
    generation: process.argv[4] ?? '2026-08',
  })
  if (process.send) process.send(result, () => process.exit(0))
  else {
    console.table(result.pages)
    console.table(result.triggers)
  }
}
