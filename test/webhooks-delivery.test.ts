import { Novu } from '@novu/api'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../src/server.js'
import { startReceiver, triggerWelcome, verified, type Received } from './webhook-receiver.js'

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
    const endpoint = await addEndpoint(apiKey, {
      url: receiver.url,
      events: ['message.sent', 'message.delivered'],
    })
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

test("the mock answers while the consumer's handler hangs", async () => {
  const receiver = await startReceiver('hang')
  try {
    const apiKey = 'webhooks-hanging-handler'
    await addEndpoint(apiKey, { url: receiver.url, events: ['message.sent'] })
    expect((await triggerWelcome(mock.url, apiKey)).status).toBe(201)
    await receiver.next(1)
    const res = await triggerWelcome(mock.url, apiKey)
    expect(res.status).toBe(201)
    expect(receiver.hanging()).toBe(1)
  } finally {
    await receiver.close()
  }
})

test("a dead endpoint's queue stops at its bound and the dropped deliveries say why", async () => {
  const receiver = await startReceiver('hang')
  try {
    const apiKey = 'webhooks-bounded-queue'
    await addEndpoint(apiKey, { url: receiver.url })
    // 100 events of 6 recipients without an email address: 600 in-app messages, each sent and
    // delivered, and 600 emails that fail: 1800 deliveries for a queue of 1000.
    const events = Array.from({ length: 100 }, (_, i) => ({
      name: 'welcome-email',
      to: Array.from({ length: 6 }, (_, j) => `bulk-${i}-${j}`),
      payload: { firstName: 'Ada', productName: 'Acme' },
    }))
    const res = await fetch(`${mock.url}/v1/events/trigger/bulk`, {
      method: 'POST',
      headers: { Authorization: `ApiKey ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ events }),
    })
    expect(res.status).toBe(201)
    const dropped = await mock.admin.waitForDeliveries(
      { apiKey, status: 'dropped', limit: 1000 },
      { count: 800 }
    )
    expect(dropped).toHaveLength(800)
    expect(dropped[0]?.error).toContain('webhook queue of this API key is full (1000 deliveries')
    const listed = await fetch(`${mock.url}/__admin/webhooks?apiKey=${apiKey}`)
    expect(((await listed.json()) as { queue: unknown }).queue).toEqual({
      waiting: 1000,
      scheduled: 0,
      limit: 1000,
    })
  } finally {
    await receiver.close()
  }
})

test('a test send reaches the endpoint signed, and the log keeps the body sent', async () => {
  const receiver = await startReceiver()
  try {
    const apiKey = 'webhooks-test-send'
    const endpoint = await addEndpoint(apiKey, { url: receiver.url })
    const res = await fetch(`${mock.url}/__admin/webhooks/${endpoint.id}/test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'message.read' }),
    })
    expect(res.status).toBe(202)
    const { data } = (await res.json()) as { data: { eventId: string; webhookId: string } }
    await receiver.next(1)
    const event = verified<Envelope>(endpoint.secret, receiver.received[0] as Received)
    expect(event).toMatchObject({ id: data.eventId, type: 'message.read', object: 'message' })
    expect(receiver.received[0]?.headers['webhook-id']).toBe(data.webhookId)
    const [logged] = await mock.admin.waitForDeliveries({ apiKey, status: 'delivered' })
    expect(logged).toMatchObject({
      eventId: data.eventId,
      attempt: 1,
      status: 204,
      type: 'message.read',
    })
    expect(logged?.body).toBe(receiver.received[0]?.body)
  } finally {
    await receiver.close()
  }
})

test('the delivery log redacts the API key and secrets in the endpoint URL, as the journal does', async () => {
  const receiver = await startReceiver()
  try {
    const apiKey = 'webhooks-redacted-key-1234'
    const endpoint = await addEndpoint(apiKey, { url: `${receiver.url}?token=supersecretvalue` })
    await fetch(`${mock.url}/__admin/webhooks/${endpoint.id}/test`, { method: 'POST' })
    const [logged] = await mock.admin.waitForDeliveries({ apiKey })
    expect(logged?.url).toContain('token=supe')
    expect(logged?.url).not.toContain('supersecretvalue')
    expect(JSON.stringify(logged)).not.toContain(apiKey)
  } finally {
    await receiver.close()
  }
})

test('a global endpoint receives the events of every key, each with its environmentId', async () => {
  const receiver = await startReceiver()
  const endpoint = await addEndpoint(undefined, { url: receiver.url, events: ['message.sent'] })
  try {
    // user-1042 has no email address: one in-app message.sent per trigger.
    await triggerWelcome(mock.url, 'webhooks-global-a')
    await receiver.next(1)
    await triggerWelcome(mock.url, 'webhooks-global-b')
    await receiver.next(2)
    const events = receiver.received.map((r) => verified<Envelope>(endpoint.secret, r))
    const environments = new Set(events.map((e) => e.environmentId))
    expect(environments.size).toBe(2)
    for (const id of environments) expect(id).toMatch(/^[0-9A-Za-z]{12}$/)
  } finally {
    await fetch(`${mock.url}/__admin/webhooks/${endpoint.id}`, { method: 'DELETE' })
    await receiver.close()
  }
})

test('the log filters attempts by type and endpoint', async () => {
  const receiver = await startReceiver()
  try {
    const apiKey = 'webhooks-log-filters'
    const one = await addEndpoint(apiKey, { url: receiver.url, events: ['message.sent'] })
    const two = await addEndpoint(apiKey, { url: receiver.url, events: ['message.delivered'] })
    await triggerWelcome(mock.url, apiKey)
    await mock.admin.waitForDeliveries({ apiKey, status: 'delivered' }, { count: 2 })
    const sent = await mock.admin.webhookDeliveries({ apiKey, type: 'message.sent' })
    expect(sent.map((d) => d.endpointId)).toEqual([one.id])
    const toTwo = await mock.admin.webhookDeliveries({ apiKey, endpoint: two.id })
    expect(new Set(toTwo.map((d) => d.type))).toEqual(new Set(['message.delivered']))
  } finally {
    await receiver.close()
  }
})

test("a per-key reset clears the key's delivery log", async () => {
  const receiver = await startReceiver()
  try {
    const apiKey = 'webhooks-reset-log'
    await addEndpoint(apiKey, { url: receiver.url, events: ['message.sent'] })
    await triggerWelcome(mock.url, apiKey)
    await mock.admin.waitForDeliveries({ apiKey })
    await mock.admin.reset(apiKey)
    expect(await mock.admin.webhookDeliveries({ apiKey })).toEqual([])
    expect(await mock.admin.webhooks(apiKey)).toEqual([])
  } finally {
    await receiver.close()
  }
})
