import { Novu } from '@novu/api'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../src/server.js'
import { startReceiver, verified } from './webhook-receiver.js'

let mock: RunningMock
beforeAll(async () => {
  mock = await startMock({ port: 0, logLevel: 'silent' })
})
afterAll(() => mock.close())

interface Envelope {
  id: string
  type: string
  object: string
  data: { object: Record<string, unknown> }
  timestamp: string
  environmentId: string
}

async function addEndpoint(apiKey: string | undefined, body: Record<string, unknown>) {
  const query = apiKey === undefined ? '' : `?apiKey=${apiKey}`
  const res = await fetch(`${mock.url}/__admin/webhooks${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(res.status).toBe(201)
  return ((await res.json()) as { data: { id: string; secret: string } }).data
}

test('a trigger through @novu/api leads to message.sent and message.delivered that svix verifies', async () => {
  const receiver = await startReceiver()
  try {
    const apiKey = 'webhooks-sdk-trigger'
    const endpoint = await addEndpoint(apiKey, { url: receiver.url })
    const novu = new Novu({ secretKey: apiKey, serverURL: mock.url })
    await novu.trigger({
      workflowId: 'welcome-email',
      to: { subscriberId: 'user-1042' },
      payload: { firstName: 'Ada', productName: 'Acme' },
    })
    await receiver.next(2)
    const events = receiver.received.map((r) => verified<Envelope>(endpoint.secret, r))
    expect(events.map((e) => e.type)).toEqual(['message.sent', 'message.delivered'])
    expect(events[0]).toMatchObject({
      object: 'message',
      data: { object: { channel: 'in_app', status: 'sent', subscriberId: 'user-1042' } },
    })
    expect(events[0]?.id).toMatch(/^evt_[0-9a-f]{24}$/)
    expect(receiver.received[0]?.headers['webhook-id']).toMatch(/^msg_[0-9A-Za-z]{27}$/)
  } finally {
    await receiver.close()
  }
})
