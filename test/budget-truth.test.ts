import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import { cachesEnabled } from '../src/cache.js'
import { request } from './helpers.js'

// The memory budget counts what records take, not a multiple of it (issue 24): a budget that
// over-counts refuses creates long before memory runs short. bench/budget.mjs measures every
// kind of record over 10,000 of each; these check the two largest gaps it closed.
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
const heapUsed = () => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

const KEY = 'budget-truth'
const BODY = {
  name: 'Order shipped',
  steps: [
    { template: { type: 'in_app', content: 'Hi {{subscriber.firstName}}, {{orderId}} shipped' } },
    { template: { type: 'email', subject: 'Order {{orderId}}', content: 'It is on its way.' } },
  ],
}

const mockFor = (journalSize = 0) =>
  createMock({
    apiGeneration: '2026-08',
    scenario: 'empty',
    maxWorkflows: 0,
    journalSize,
    logLevel: 'silent',
  })

/** The heap and the key's budgeted footprint that `count` runs of `write` add, per run. */
async function perRecord(
  state: ReturnType<typeof mockFor>['state'],
  count: number,
  write: () => Promise<unknown>
) {
  const before = heapUsed()
  const counted = state.environments.footprint(KEY)
  for (let i = 0; i < count; i++) await write()
  return {
    heap: (heapUsed() - before) / count,
    budget: (state.environments.footprint(KEY) - counted) / count,
  }
}

/** The body, in the key's first notification group (2026-08 asks for one). */
async function bodyFor(app: ReturnType<typeof mockFor>['app']) {
  const groups = await request(app, 'GET', '/v1/notification-groups', { key: KEY })
  return { ...BODY, notificationGroupId: groups.body.data[0]._id as string }
}

test('a workflow created again from the same body is counted above the heap it takes and within half again of it', async () => {
  const { app, state } = mockFor()
  const body = await bodyFor(app)
  // Past the 256 workflows the hydrated-workflow cache keeps, which the caches' part counts.
  for (let i = 0; i < 300; i++)
    expect((await request(app, 'POST', '/v1/workflows', { key: KEY, body })).status).toBe(201)
  const { heap, budget } = await perRecord(state, 3_000, () =>
    request(app, 'POST', '/v1/workflows', { key: KEY, body })
  )
  expect(budget).toBeGreaterThanOrEqual(heap)
  expect(budget).toBeLessThanOrEqual(heap * 1.5)
}, 120_000)

test('a trigger is counted by the records it keeps, not also by its request body', async () => {
  const { app, state } = mockFor()
  const created = await request(app, 'POST', '/v1/workflows', {
    key: KEY,
    body: { ...(await bodyFor(app)), active: true },
  })
  const name = created.body.data.triggers[0].identifier
  const to = { subscriberId: 'ada', firstName: 'Ada' }
  const trigger = { name, to, payload: { orderId: 'A-1' } }
  expect(
    (await request(app, 'POST', '/v1/events/trigger', { key: KEY, body: trigger })).status
  ).toBe(201)
  const { heap, budget } = await perRecord(state, 2_000, () =>
    request(app, 'POST', '/v1/events/trigger', { key: KEY, body: trigger })
  )
  expect(budget).toBeGreaterThanOrEqual(heap)
  expect(budget).toBeLessThanOrEqual(heap * 1.5)
}, 120_000)

test('the journal counts the entries it holds, not its capacity at its largest', async () => {
  const { app, state } = mockFor(1_000)
  const { budget } = state.environments
  const empty = budget.get('journal')
  expect(empty).toBe(0)
  for (let i = 0; i < 100; i++) await request(app, 'GET', '/v1/topics', { key: KEY })
  const held = budget.get('journal')
  expect(held).toBeGreaterThan(100 * 1_000)
  expect(held).toBeLessThan(100 * 4_000)
})

// With caches off (CI runs the suites so too) no cache holds anything.
test.skipIf(!cachesEnabled())(
  'the caches count what they hold in the budget, weak caches included',
  async () => {
    const { app, state } = mockFor()
    for (let i = 0; i < 20; i++)
      await request(app, 'POST', '/v1/topics', {
        key: KEY,
        body: { key: `t-${i}`, name: `T ${i}` },
      })
    const before = state.environments.budget.get('caches')
    for (let i = 0; i < 20; i++) await request(app, 'GET', `/v1/topics/t-${i}`, { key: KEY })
    const weak = (await request(app, 'GET', '/__admin/caches', { key: null })).body.caches.find(
      (cache: { name: string }) => cache.name === 'topic JSON'
    )
    expect(weak.bytes).toBeGreaterThan(20 * 64)
    expect(state.environments.budget.get('caches')).toBeGreaterThanOrEqual(before + weak.bytes / 2)
  }
)
