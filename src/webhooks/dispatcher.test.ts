import { afterEach, expect, test } from 'vitest'
import { createLogger } from '../log.js'
import { createMemoryBudget } from '../memory/budget.js'
import { createClock } from '../tenancy/clock.js'
import { startReceiver } from '../../test/webhook-receiver.js'
import { createDeliveryLog } from './delivery-log.js'
import { createDispatcher, MAX_CONCURRENT_ATTEMPTS, type Delivery } from './dispatcher.js'
import type { Endpoint } from './endpoints.js'

const closers: (() => unknown)[] = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

function setUp(options: { budgetFull?: boolean; timeoutMs?: number } = {}) {
  const budget = createMemoryBudget(64)
  if (options.budgetFull) budget.set('filler', budget.limit - 1024)
  const log = createDeliveryLog()
  const clock = createClock('2026-08-01T09:00:00.000Z')
  const dispatcher = createDispatcher({
    log,
    logger: createLogger('silent'),
    clockOf: () => clock,
    fits: (bytes) => budget.fits(bytes),
    registered: () => true,
    changed: () => undefined,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  })
  closers.push(() => dispatcher.close())
  return { log, dispatcher }
}

const endpoint = (url: string, id = 'ep_1'): Endpoint => ({
  id,
  url,
  events: null,
  secret: `whsec_${Buffer.alloc(24, 1).toString('base64')}`,
  source: 'admin',
  createdAt: '2026-08-01T09:00:00.000Z',
})

const delivery = (to: Endpoint, body = '{}'): Delivery => ({
  apiKey: 'k',
  endpoint: to,
  eventId: 'evt_1',
  webhookId: 'msg_1',
  type: 'message.sent',
  body,
  attempt: 1,
})

test('a delivery the memory budget cannot hold is dropped, and the log says why', async () => {
  const { log, dispatcher } = setUp({ budgetFull: true })
  expect(dispatcher.enqueue(delivery(endpoint('http://127.0.0.1:9/'), 'x'.repeat(4096)))).toBe(
    false
  )
  const [entry] = log.search({}).data
  expect(entry).toMatchObject({ outcome: 'dropped', status: null })
  expect(entry?.error).toContain('memory budget (--max-memory-mb)')
  expect(dispatcher.waiting('k')).toBe(0)
})

test(`at most ${MAX_CONCURRENT_ATTEMPTS} attempts are in flight; the others wait in their lanes`, async () => {
  const receiver = await startReceiver('hang')
  closers.push(() => receiver.close())
  const { dispatcher } = setUp()
  for (let i = 0; i < MAX_CONCURRENT_ATTEMPTS + 4; i++)
    dispatcher.enqueue(delivery(endpoint(receiver.url, `ep_${i}`)))
  expect(dispatcher.inFlight()).toBe(MAX_CONCURRENT_ATTEMPTS)
  expect(dispatcher.waiting('k')).toBe(MAX_CONCURRENT_ATTEMPTS + 4)
  await receiver.next(MAX_CONCURRENT_ATTEMPTS)
  expect(receiver.hanging()).toBeLessThanOrEqual(MAX_CONCURRENT_ATTEMPTS)
})

test('an attempt with no answer within its time limit fails and is retried 5 s later', async () => {
  const receiver = await startReceiver('hang')
  closers.push(() => receiver.close())
  const { log, dispatcher } = setUp({ timeoutMs: 50 })
  dispatcher.enqueue(delivery(endpoint(receiver.url)))
  await receiver.next(1)
  while (!log.search({ status: 'retrying' }).data.length)
    await new Promise((resolve) => setTimeout(resolve, 10))
  expect(log.search({}).data[0]).toMatchObject({
    outcome: 'retrying',
    status: null,
    error: 'no answer within 0.05 s',
    nextAttemptAt: '2026-08-01T09:00:05.000Z',
  })
  expect(dispatcher.scheduled('k')).toBe(1)
})

test('one endpoint gets its deliveries one at a time, in order', async () => {
  const receiver = await startReceiver(204)
  closers.push(() => receiver.close())
  const { dispatcher } = setUp()
  const to = endpoint(receiver.url)
  for (let i = 0; i < 5; i++)
    dispatcher.enqueue({ ...delivery(to, `{"n":${i}}`), eventId: `evt_${i}` })
  expect(dispatcher.inFlight()).toBe(1)
  await receiver.next(5)
  expect(receiver.received.map((r) => r.body)).toEqual([0, 1, 2, 3, 4].map((n) => `{"n":${n}}`))
})
