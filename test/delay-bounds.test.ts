// Issue #18, finding 8: a delay too long for any date fails its job instead of answering 500
// over the records the trigger already stored; a due date past the year 9999 is compared as a
// time, not as text; and no two 500s share an errorId, across resets and restarts.
import { describe, expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import { request, type Requestable } from './helpers.js'
import {
  GENERATIONS,
  createWorkflow,
  fixedClockMock,
  inApp,
  messagesOf,
  trigger,
} from './trigger-helpers.js'

const delay = (amount: number, unit = 'minutes') => ({
  template: { type: 'delay' },
  metadata: { type: 'regular', amount, unit },
})

interface JobView {
  type: string
  status: string
  executionDetails: { detail: string }[]
}

/** Each notification's jobs of the transaction: type, status and execution details. */
async function jobsOf(app: Requestable, transactionId: string, key?: string) {
  const res = await request(app, 'GET', `/v1/notifications?transactionId=${transactionId}`, {
    ...(key ? { key } : {}),
  })
  expect(res.status).toBe(200)
  return (res.body.data as { jobs: JobView[] }[]).map((n) =>
    n.jobs.map((j) => [j.type, j.status, j.executionDetails.map((d) => d.detail)])
  )
}

const clock = (app: Requestable, advance: string) =>
  request(app, 'POST', '/__admin/clock', { key: null, body: { advance } })

describe.each(GENERATIONS)('in %s', (generation) => {
  test("a delay override too long for any date fails each recipient's delay job, and the trigger answers 201 with the messages before it", async () => {
    const { app } = await fixedClockMock(generation)
    const wf = await createWorkflow(app, 'Far', [inApp('first'), delay(5), inApp('later')])
    const res = await trigger(app, {
      name: wf.identifier,
      to: ['ada', 'bob'],
      overrides: { delay: { amount: 1e300, unit: 'days' } },
      transactionId: 'tx-far',
    })
    expect(res.status).toBe(201)
    expect(res.body.data.status).toBe('processed')
    expect((await messagesOf(app, 'tx-far')).map((m) => m.content)).toEqual(['first', 'first'])
    const failed = ['delay', 'failed', ['Defer duration limit exceeded']]
    for (const jobs of await jobsOf(app, 'tx-far'))
      expect(jobs.filter((j) => j[0] === 'delay')).toEqual([failed])
    expect((await clock(app, '1d')).body.data.pending).toBe(0)
    expect(await messagesOf(app, 'tx-far')).toHaveLength(2)
  })

  test('a delay that ends past the year 9999 waits instead of running at once', async () => {
    const { app } = await fixedClockMock(generation)
    // 3,000,000 days from 2025 end in the year 10239.
    const wf = await createWorkflow(app, 'Distant', [delay(3_000_000, 'days'), inApp('later')])
    const res = await trigger(app, { name: wf.identifier, to: 'ada', transactionId: 'tx-10k' })
    expect(res.status).toBe(201)
    expect(await messagesOf(app, 'tx-10k')).toEqual([])
    const moved = await clock(app, '1h')
    expect(moved.body.data).toMatchObject({ pending: 1, ran: 0 })
    expect(await messagesOf(app, 'tx-10k')).toEqual([])
  })
})

test('a job that throws while the clock runs it fails alone, and the clock still answers 200', async () => {
  const mock = await fixedClockMock('2026-08')
  const wf = await createWorkflow(mock.app, 'Later', [delay(5), inApp('later'), inApp('again')])
  await trigger(mock.app, { name: wf.identifier, to: 'ada', transactionId: 'tx-broken' })
  // An import is taken as written: a job without a payload cannot render.
  const exported = await mock.admin.exportState('test-key')
  const jobs = (exported.notifications?.[0]?.jobs ?? []) as Record<string, unknown>[]
  delete jobs[2]?.payload
  await mock.admin.importState('broken', exported)
  const moved = await request(mock.app, 'POST', '/__admin/clock?apiKey=broken', {
    key: null,
    body: { advance: '5m' },
  })
  expect(moved.status).toBe(200)
  const [ran] = await jobsOf(mock.app, 'tx-broken', 'broken')
  expect(ran?.map(([type, status]) => [type, status])).toEqual([
    ['delay', 'completed'],
    ['in_app', 'failed'],
    ['in_app', 'pending'],
  ])
  expect(ran?.[1]?.[2]).toContain('Job failed')
})

describe('errorIds', () => {
  const errorIdOf = async (app: Requestable) => {
    const res = await request(app, 'GET', '/v1/notification-groups/not-an-id')
    expect(res.status).toBe(500)
    return res.body.errorId as string
  }

  test('two mocks of the same seed give their first 500s different errorIds', async () => {
    const first = await errorIdOf(createMock({ seed: 'errors' }).app)
    const second = await errorIdOf(createMock({ seed: 'errors' }).app)
    expect(second).not.toBe(first)
  })

  test('a reset does not start the errorIds over', async () => {
    const { app } = createMock({ seed: 'errors' })
    const before = await errorIdOf(app)
    expect((await request(app, 'POST', '/__admin/reset', { key: null })).status).toBe(200)
    expect(await errorIdOf(app)).not.toBe(before)
  })

  test('the same seed still gives the same ids to the records it creates', async () => {
    const ids = async () => {
      const { app } = createMock({ seed: 'errors' })
      await errorIdOf(app)
      const res = await request(app, 'POST', '/v1/notification-groups', { body: { name: 'G' } })
      return res.body.data._id as string
    }
    expect(await ids()).toBe(await ids())
  })
})
