// One side of bench/caches.mjs: a built mock in this process, started with the NOVU_MOCK_CACHES
// its parent gave it, which runs the batches the parent asks for over IPC, one at a time.
import { DIST } from './harness.mjs'
import { batch, startInProcess } from './in-process.mjs'
import { familiesFor } from './cache-families.mjs'

const generation = process.argv[2]
const families = new Map(familiesFor(generation).map((family) => [family.name, family]))
const mock = await startInProcess(DIST, generation)
const prepared = new Map()

async function prepare(family) {
  prepared.set(family.name, await family.prepare?.(mock.url, 1, generation))
}

/** Every cache's hits so far, by name. */
async function hits() {
  const res = await mock.app.fetch(new Request(`${mock.url}/__admin/caches`))
  const { caches } = await res.json()
  return Object.fromEntries(caches.map((cache) => [cache.name, cache.hits]))
}

const handlers = {
  prepare: ({ family }) => prepare(families.get(family)),
  async batch({ family: name, count, fresh }) {
    const family = families.get(name)
    // A write starts every batch from the state its set-up makes, as a round of the bench.
    if (fresh && family.bare.method !== 'GET') await prepare(family)
    return batch(mock, family, prepared.get(name), count)
  },
  hits,
  async close() {
    await mock.close()
    setImmediate(() => process.exit(0))
  },
}

process.on('message', async (message) => {
  try {
    process.send({ id: message.id, result: await handlers[message.type](message) })
  } catch (error) {
    process.send({ id: message.id, error: String(error?.stack ?? error) })
  }
})
// The parent has gone (crashed, or ^C): go too.
process.on('disconnect', () => process.exit(0))
process.send({ id: 0, result: 'ready' })
