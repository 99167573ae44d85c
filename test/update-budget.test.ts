import { describe, expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import type { GenerationName } from '../src/generations/generation.js'
import { request, type Requestable } from './helpers.js'

// Updates are counted as creates are (issue 18, finding 3): a PUT or PATCH keeps what it adds to
// the record its path names, so updates that grow records meet the memory budget's 403, updating
// a record again with as much costs nothing more, and a reset gives back what the key held.

type Obj = Record<string, unknown>
const BUDGET = /memory budget of \d+ MB.*this request.*--max-memory-mb/
/** A text to grow a record by: 90 kB where upstream's body limit is 100 kB, 1 MB for workflows. */
const big = (i: number, size: number) => `${i}:`.padEnd(size, 'z')
const SMALL = 90 * 1024
const LARGE = 1024 * 1024

interface Update {
  route: string
  size: number
  generations: GenerationName[]
  create(app: Requestable, i: number): Promise<unknown>
  update(app: Requestable, i: number, text: string): Promise<{ status: number; body: Obj }>
}

const both: GenerationName[] = ['2026-08', '2024-10']
const v2Step = (body: string) => ({ name: 'In app', type: 'in_app', controlValues: { body } })
const createV2Workflow = (app: Requestable, i: number) =>
  request(app, 'POST', '/v2/workflows', {
    body: { name: `W${i}`, workflowId: `w${i}`, steps: [v2Step('x')] },
  })

const UPDATES: Update[] = [
  {
    route: 'PATCH /v2/subscribers/:subscriberId',
    size: SMALL,
    generations: ['2026-08'],
    create: (app, i) =>
      request(app, 'POST', '/v2/subscribers', { body: { subscriberId: `s${i}` } }),
    update: (app, i, text) =>
      request(app, 'PATCH', `/v2/subscribers/s${i}`, { body: { data: { text } } }),
  },
  {
    route: 'PUT /v1/subscribers/:subscriberId',
    size: SMALL,
    generations: both,
    create: (app, i) =>
      request(app, 'POST', '/v1/subscribers', { body: { subscriberId: `s${i}` } }),
    update: (app, i, text) =>
      request(app, 'PUT', `/v1/subscribers/s${i}`, {
        body: { email: `s${i}@example.com`, data: { text } },
      }),
  },
  {
    route: 'PATCH /v1/topics/:topicKey',
    size: SMALL,
    generations: both,
    create: (app, i) => request(app, 'POST', '/v1/topics', { body: { key: `t${i}`, name: 'T' } }),
    update: (app, i, text) => request(app, 'PATCH', `/v1/topics/t${i}`, { body: { name: text } }),
  },
  {
    route: 'PATCH /v2/topics/:topicKey',
    size: SMALL,
    generations: ['2026-08'],
    create: (app, i) => request(app, 'POST', '/v2/topics', { body: { key: `t${i}`, name: 'T' } }),
    update: (app, i, text) => request(app, 'PATCH', `/v2/topics/t${i}`, { body: { name: text } }),
  },
  {
    route: 'PUT /v2/workflows/:workflowId',
    size: LARGE,
    generations: ['2026-08'],
    create: createV2Workflow,
    update: (app, i, text) =>
      request(app, 'PUT', `/v2/workflows/w${i}`, {
        body: { name: `W${i}`, steps: [v2Step(text)] },
      }),
  },
  {
    route: 'PATCH /v2/workflows/:workflowId',
    size: LARGE,
    generations: ['2026-08'],
    create: createV2Workflow,
    update: (app, i, text) =>
      request(app, 'PATCH', `/v2/workflows/w${i}`, {
        body: { payloadSchema: { type: 'object', description: text } },
      }),
  },
]

const smallMock = (apiGeneration: GenerationName) =>
  createMock({
    apiGeneration,
    scenario: 'empty',
    maxMemoryMb: 24,
    journalSize: 0,
    maxWorkflows: 0,
    logLevel: 'silent',
  })

/** Creates records and grows each by a megabyte until the budget refuses: the refusal. */
async function growUntilRefused(app: Requestable, update: Update) {
  for (let i = 0; i < (24 * 1024 * 1024) / update.size + 20; i++) {
    await update.create(app, i)
    const res = await update.update(app, i, big(i, update.size))
    if (res.status !== 200) return res
  }
  return undefined
}

for (const update of UPDATES)
  describe.each(update.generations)(`${update.route} (%s)`, (generation) => {
    test('updates that grow records past the memory budget answer its 403', async () => {
      const { app, state } = smallMock(generation)
      const refused = await growUntilRefused(app, update)
      expect(refused?.status).toBe(403)
      expect(refused?.body.message).toMatch(BUDGET)
      expect(state.environments.budget.used()).toBeLessThanOrEqual(state.environments.budget.limit)
    })

    test('updating one record again with as much keeps the budget where it was', async () => {
      const { app, state } = smallMock(generation)
      await update.create(app, 0)
      expect((await update.update(app, 0, big(0, update.size))).status).toBe(200)
      const used = state.environments.budget.used()
      for (let n = 1; n <= 10; n++)
        expect((await update.update(app, 0, big(n, update.size))).status).toBe(200)
      expect(state.environments.budget.used()).toBe(used)
    })
  })

test('a per-key reset gives back what the key’s updates held', async () => {
  const { app, state } = smallMock('2026-08')
  const [update] = UPDATES as [Update]
  // The caches and the journal are left out: the budget empties the caches before it refuses,
  // so they may hold less, and the journal holds the requests of the test.
  const held = () => {
    const { budget } = state.environments
    const besides = budget.get('caches') + budget.get('journal')
    return budget.used() - besides
  }
  const before = held()
  expect((await growUntilRefused(app, update))?.status).toBe(403)
  expect((await request(app, 'POST', '/__admin/reset?apiKey=test-key', { key: null })).status).toBe(
    200
  )
  expect(held()).toBe(before)
  await update.create(app, 0)
  expect((await update.update(app, 0, big(0, update.size))).status).toBe(200)
})
