import { describe, expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import { request } from './helpers.js'
import {
  createWorkflow,
  GENERATIONS,
  inApp,
  recipients,
  snapshot,
  trigger,
  type StepInput,
} from './trigger-helpers.js'

// The work of one trigger request is bounded (issue 18): the mock fans out before it answers,
// where upstream's workers do it after, so a trigger naming tens of thousands of recipients
// would block every other request for seconds. Past 25,000 jobs for its recipients, steps and
// (bulk) events, it answers 400 naming the limit, before it writes anything.

type Obj = Record<string, unknown>
const LIMIT = /creates more than 25000 jobs .*novu-mock's limit of a trigger request's work/

const mockOf = (apiGeneration: (typeof GENERATIONS)[number]) =>
  createMock({ apiGeneration, scenario: 'empty', journalSize: 0, logLevel: 'silent' })

/**
 * Ten steps, with the trigger job 11 jobs a recipient, so 2,272 recipients fit. The delay first
 * keeps the others pending: jobs without messages, which keeps the test quick.
 */
const TEN_STEPS: StepInput[] = [
  { template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'hours' } },
  ...Array.from({ length: 9 }, (_, i) => inApp(`Step ${i}`)),
]
const FITTING = 2272

type Mock = ReturnType<typeof createMock>

/** The notifications each transaction holds, from the environment's exported records. */
async function notificationsByTransaction(mock: Mock): Promise<Map<string, number>> {
  const { notifications = [] } = (await mock.admin.exportState('test-key')) as {
    notifications?: Obj[]
  }
  const counts = new Map<string, number>()
  for (const n of notifications) {
    const tx = String(n.transactionId)
    counts.set(tx, (counts.get(tx) ?? 0) + 1)
  }
  return counts
}

describe.each(GENERATIONS)('%s', (generation) => {
  test('a trigger whose recipients would make more than 25,000 jobs answers 400 naming the limit and stores nothing', async () => {
    const mock = mockOf(generation)
    const wf = await createWorkflow(mock.app, 'Wide', TEN_STEPS)
    const before = await snapshot(mock)
    const res = await trigger(mock.app, {
      name: wf.identifier,
      to: recipients(FITTING + 1),
      transactionId: 'wide',
    })
    expect(res.status).toBe(400)
    expect(res.body.statusCode).toBe(400)
    expect(res.body.message).toMatch(LIMIT)
    expect(await snapshot(mock)).toBe(before)
  })

  test('a broadcast counts every subscriber it reaches against the limit', async () => {
    const mock = mockOf(generation)
    const wf = await createWorkflow(mock.app, 'Wide', TEN_STEPS)
    for (const [to, tx] of [
      [recipients(FITTING), 'first'],
      ['one-more', 'second'],
    ] as const)
      expect((await trigger(mock.app, { name: wf.identifier, to, transactionId: tx })).status).toBe(
        201
      )
    const before = await snapshot(mock)
    const res = await request(mock.app, 'POST', '/v1/events/trigger/broadcast', {
      body: { name: wf.identifier, payload: {} },
    })
    expect(res.status).toBe(400)
    expect(res.body.message).toMatch(LIMIT)
    expect(await snapshot(mock)).toBe(before)
  }, 60_000)
})

test('a trigger making exactly as many jobs as the limit allows is processed for every recipient', async () => {
  const mock = mockOf('2026-08')
  const wf = await createWorkflow(mock.app, 'Wide', TEN_STEPS)
  const res = await trigger(mock.app, {
    name: wf.identifier,
    to: recipients(FITTING),
    transactionId: 'at-limit',
  })
  expect(res.status).toBe(201)
  expect(res.body.data).toMatchObject({ acknowledged: true, status: 'processed' })
  expect((await notificationsByTransaction(mock)).get('at-limit')).toBe(FITTING)
})

test('the events of a bulk trigger share the job allowance: the one past it is an error, later smaller ones run', async () => {
  const mock = mockOf('2026-08')
  const wf = await createWorkflow(mock.app, 'Wide', TEN_STEPS)
  const event = (n: number, count: number) => ({
    name: wf.identifier,
    to: recipients(count, `e${n}-`),
    payload: {},
    transactionId: `bulk-${n}`,
  })
  const res = await request(mock.app, 'POST', '/v1/events/trigger/bulk', {
    body: { events: [event(1, 1500), event(2, 1500), event(3, 100)] },
  })
  expect(res.status).toBe(201)
  const data = res.body.data as Obj[]
  expect(data.map((r) => r.status)).toEqual(['processed', 'error', 'processed'])
  expect(String(data[1]?.error)).toMatch(LIMIT)
  const counts = await notificationsByTransaction(mock)
  expect(Object.fromEntries(counts)).toEqual({ 'bulk-1': 1500, 'bulk-3': 100 })
})
