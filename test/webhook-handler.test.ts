// test/webhook-handler.test.ts: the app's Novu webhook handler, tested offline
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Novu } from '@novu/api'
import { createAdminClient } from 'novu-mock'
import { Webhook } from 'svix'
import { afterAll, beforeAll, beforeEach, expect, inject, test } from 'vitest'

const baseUrl = inject('novuMockUrl')
const apiKey = 'webhook-handler-test'
const admin = createAdminClient({ baseUrl }).forKey(apiKey)

// The code under test: the app's handler verifies each webhook, then records the event.
const seen: { type: string; messageId: string }[] = []
let secret = ''
let failNext = 0 // how many deliveries the handler answers 503, as a broken deploy would
const server = createServer((req, res) => {
  let body = ''
  req.on('data', (chunk: Buffer) => (body += chunk.toString()))
  req.on('end', () => {
    try {
      const headers = req.headers as Record<string, string>
      new Webhook(secret).verify(body, headers)
      if (failNext > 0) {
        failNext--
        return void res.writeHead(503).end()
      }
      const event = JSON.parse(body) as { type: string; data: { object: { _id: string } } }
      seen.push({ type: event.type, messageId: event.data.object._id })
      res.writeHead(204).end()
    } catch {
      res.writeHead(401).end()
    }
  })
})

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
})
afterAll(() => server.close())

beforeEach(async () => {
  await admin.reset() // also removes this key's webhook endpoints and deliveries
  seen.length = 0
  const { port } = server.address() as AddressInfo
  const endpoint = await admin.addWebhook({
    url: `http://127.0.0.1:${port}/webhooks/novu`,
    events: ['message.sent'],
  })
  secret = endpoint.secret // whsec_…, made from the seed
})

async function welcome(subscriberId: string) {
  const novu = new Novu({ secretKey: apiKey, serverURL: baseUrl })
  await novu.trigger({ workflowId: 'welcome-email', to: { subscriberId }, payload: {} })
}

test('the handler records message.sent for the in-app welcome', async () => {
  await welcome('user-1042')

  const [delivery] = await admin.waitForDeliveries({ status: 'delivered' })

  expect(delivery).toMatchObject({ type: 'message.sent', attempt: 1, status: 204 })
  expect(seen).toEqual([
    { type: 'message.sent', messageId: expect.stringMatching(/^[0-9a-f]{24}$/) },
  ])
})

test('a failed delivery is retried on the clock: 5 s, then 5 min, 30 min, 2 h…', async () => {
  failNext = 2
  await welcome('user-1042')
  await admin.waitForDeliveries({ status: 'retrying' })

  await admin.advanceClock('5s') // the second attempt goes now, and fails too
  await admin.waitForDeliveries({ status: 'retrying' }, { count: 2 })
  await admin.advanceClock('5m') // the third one succeeds

  const [last] = await admin.waitForDeliveries({ status: 'delivered' })
  expect(last).toMatchObject({ attempt: 3, status: 204 })
  expect(seen).toHaveLength(1)
})
