// The memory budget beside the heap: for each kind of record, the heap it takes (over `count`
// of them, after full collections) and what the budget counted for it. The budget must count
// at least what the heap holds and at most half again (issue 24): a budget that over-counts
// refuses work long before memory runs short. Run in a process of its own with --expose-gc:
// `node --expose-gc bench/budget.mjs [count=20000] [2026-08|2024-10]`.
import { pathToFileURL } from 'node:url'
import { DIST } from './harness.mjs'
import { storeRecords } from './records.mjs'

const KEY = 'bench-records'
const TOPICS = { Authorization: `ApiKey ${KEY}` }

/** What the process holds: the heap and the buffers outside it (the journal keeps bytes there). */
function held() {
  globalThis.gc?.()
  globalThis.gc?.()
  const { heapUsed, arrayBuffers } = process.memoryUsage()
  return heapUsed + arrayBuffers
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10))

async function mockFor(generation, journalSize = 0) {
  const { createMock } = await import(pathToFileURL(`${DIST}/index.js`).href)
  return createMock({
    apiGeneration: generation,
    scenario: 'empty',
    maxWorkflows: 0,
    journalSize,
    logLevel: 'silent',
    maxMemoryMb: 16_384,
  })
}

/** Heap and budget per record of a kind the routes store (records.mjs). */
async function stored(kind, count, generation) {
  const mock = await mockFor(generation)
  // Past the 256 workflows the hydrated-workflow cache keeps (the caches are counted apart).
  const records = await storeRecords(mock, kind, 300)
  const before = held()
  const counted = mock.state.environments.footprint(KEY)
  await records.more(count)
  await settle()
  const heap = (held() - before) / count
  const budget = (mock.state.environments.footprint(KEY) - counted) / count
  return { mock, records, heap, budget }
}

/**
 * Triggers (a notification, three jobs, two messages each) and their messages alone: hard-
 * deleting the messages gives back what they hold; their part of the trigger's estimate is
 * the message estimate and each step's texts.
 */
async function triggers(count, generation) {
  const { mock, records, heap, budget } = await stored('message', count, generation)
  const env = records.env()
  const { MESSAGE_BYTES, stepTextBytes } = await import(
    pathToFileURL(`${DIST}/delivery/trigger-scope.js`).href
  )
  const workflow = env.workflows.live().find((w) => w.name === 'Order shipped (trigger)')
  const steps = workflow.steps.filter((step) => step.active)
  const messageBudget =
    MESSAGE_BYTES + steps.reduce((sum, step) => sum + stepTextBytes(step), 0) / steps.length
  const messages = env.messages.all().length
  const before = held()
  for (const message of env.messages.all()) env.messages.remove(message._id, '', true)
  await settle()
  const messageHeap = (before - held()) / messages
  void mock
  return [
    { kind: 'trigger (notification, 3 jobs, 2 messages)', heap: heap * 2, budget: budget * 2 },
    { kind: 'message', heap: messageHeap, budget: messageBudget },
  ]
}

/** Journal entries: GETs that store nothing else, through a journal as long as the run. */
async function journalEntries(count, generation) {
  const mock = await mockFor(generation, count)
  const get = () => mock.app.request('/v1/topics?page=0&pageSize=10', { headers: TOPICS })
  await (await get()).text()
  const before = held()
  const counted = mock.state.environments.budget.get('journal')
  for (let i = 0; i < count; i++) await (await get()).text()
  await settle()
  mock.state.environments.budget.fits(0)
  const heap = (held() - before) / count
  const budget = (mock.state.environments.budget.get('journal') - counted) / count
  return { kind: 'journal entry (GET /v1/topics)', heap, budget }
}

export async function budgetAgainstHeap({ count = 20_000, generation = '2026-08' } = {}) {
  const rows = []
  for (const [kind, label] of [
    ['workflow', 'workflow (the same body again)'],
    ['distinct-workflow', 'workflow (a body no other has)'],
    ['subscriber', 'subscriber'],
    ['topic', 'topic'],
  ]) {
    const { heap, budget } = await stored(kind, count, generation)
    rows.push({ kind: label, heap, budget })
  }
  rows.push(...(await triggers(count, generation)))
  rows.push(await journalEntries(count, generation))
  return rows.map(({ kind, heap, budget }) => ({
    kind,
    heap: Math.round(heap),
    budget: Math.round(budget),
    ratio: +(budget / heap).toFixed(2),
    ok: budget >= heap && budget <= heap * 1.5,
  }))
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await budgetAgainstHeap({
    count: Number(process.argv[2] ?? 20_000),
    generation: process.argv[3] ?? '2026-08',
  })
  if (process.send) process.send(rows, () => process.exit(0))
  else console.table(rows)
}
