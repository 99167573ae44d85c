import { expect, test } from 'vitest'
import { RETRY_DELAYS_MS } from '../src/webhooks/dispatcher.js'
import { startFixedClockMock, startReceiver, triggerWelcome, verified } from './webhook-receiver.js'

test("a failing handler sees Svix's retry schedule as the test advances the key's clock", async () => {
  const mock = await startFixedClockMock()
  const receiver = await startReceiver(500)
  try {
    const apiKey = 'webhooks-retries'
    const admin = mock.admin.forKey(apiKey)
    const endpoint = await admin.addWebhook({ url: receiver.url, events: ['message.sent'] })
    expect((await triggerWelcome(mock.url, apiKey)).status).toBe(201)
    await admin.waitForDeliveries({ status: 'retrying' })
    for (const [index, delay] of RETRY_DELAYS_MS.entries()) {
      const attempt = index + 2
      // A second short of the delay, nothing is due; at the delay, the next attempt goes.
      expect((await admin.advanceClock(delay - 1000)).webhookRetries).toBe(0)
      expect((await admin.advanceClock(1000)).webhookRetries).toBe(1)
      await receiver.next(attempt)
      const outcome = attempt < 8 ? 'retrying' : 'failed'
      await admin.waitForDeliveries(
        { status: outcome },
        { count: outcome === 'failed' ? 1 : attempt }
      )
    }
    const log = await admin.webhookDeliveries()
    expect(log.map((d) => d.attempt)).toEqual([8, 7, 6, 5, 4, 3, 2, 1])
    expect(log[0]).toMatchObject({ outcome: 'failed', status: 500 })
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1)
    for (const request of receiver.received) verified(endpoint.secret, request)
    expect((await admin.advanceClock('30d')).webhookRetries).toBe(0)
    expect(receiver.received).toHaveLength(8)
  } finally {
    await receiver.close()
    await mock.close()
  }
})

test('an endpoint whose last attempt failed is reported as failing, and healthy again after a success', async () => {
  const mock = await startFixedClockMock()
  const receiver = await startReceiver([503, 200])
  try {
    const admin = mock.admin.forKey('webhooks-failing')
    const endpoint = await admin.addWebhook({ url: receiver.url, events: ['message.sent'] })
    await triggerWelcome(mock.url, 'webhooks-failing')
    await admin.waitForDeliveries({ status: 'retrying' })
    expect((await admin.webhooks()).find((e) => e.id === endpoint.id)).toMatchObject({
      failing: true,
      lastAttempt: { status: 503, ok: false },
    })
    await admin.advanceClock('5s')
    await admin.waitForDeliveries({ status: 'delivered' })
    expect((await admin.webhooks()).find((e) => e.id === endpoint.id)).toMatchObject({
      failing: false,
      lastAttempt: { status: 200, ok: true },
    })
  } finally {
    await receiver.close()
    await mock.close()
  }
})

test('the same seed, scenario and requests give the same event ids, webhook-ids and bodies', async () => {
  const run = async () => {
    const mock = await startFixedClockMock({ seed: 42 })
    const receiver = await startReceiver()
    try {
      const admin = mock.admin.forKey('webhooks-determinism')
      await admin.addWebhook({ url: receiver.url, events: ['message.sent', 'message.delivered'] })
      await triggerWelcome(mock.url, 'webhooks-determinism')
      await receiver.next(2)
      return receiver.received.map((r) => [r.headers['webhook-id'], r.body])
    } finally {
      await receiver.close()
      await mock.close()
    }
  }
  const [first, second] = [await run(), await run()]
  expect(second).toEqual(first)
  expect(JSON.parse(first[0]?.[1] as string)).toMatchObject({
    timestamp: '2026-08-01T09:00:00.000Z',
  })
})
