import { afterAll, beforeAll, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../src/server.js'
import { createMock } from '../src/mock.js'
import { MAX_EVENT_CLIENTS, MAX_QUEUED_EVENTS } from '../src/admin/events.routes.js'
import { GENERAL_GROUP_ID } from './trigger-helpers.js'
import { startReceiver } from './webhook-receiver.js'

let mock: RunningMock
beforeAll(async () => {
  mock = await startMock({ port: 0, logLevel: 'silent', scenario: 'empty' })
})
afterAll(() => mock.close())

interface Sse {
  event: string
  data: Record<string, unknown>
}

/** Opens the stream and reads events from it until `until` says enough. */
async function openStream(url: string, headers: Record<string, string> = {}) {
  const controller = new AbortController()
  const res = await fetch(`${url}/__admin/events`, { headers, signal: controller.signal })
  const reader = (res.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  async function next(until: (e: Sse) => boolean): Promise<Sse> {
    for (;;) {
      let split = buffer.indexOf('\n\n')
      while (split !== -1) {
        const block = buffer.slice(0, split)
        buffer = buffer.slice(split + 2)
        const event = /^event: (.*)$/m.exec(block)?.[1]
        const data = /^data: (.*)$/m.exec(block)?.[1]
        if (event && data) {
          const parsed = { event, data: JSON.parse(data) }
          if (until(parsed)) return parsed
        }
        split = buffer.indexOf('\n\n')
      }
      const { value, done } = await reader.read()
      if (done) throw new Error('the stream ended')
      buffer += decoder.decode(value, { stream: true })
    }
  }
  return { res, next, close: () => controller.abort() }
}

const post = (path: string, body: unknown, key?: string) =>
  fetch(`${mock.url}${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(key ? { Authorization: `ApiKey ${key}` } : {}),
    },
    body: JSON.stringify(body),
  })

test('the stream is text/event-stream and sends each request as its journal entry', async () => {
  const stream = await openStream(mock.url)
  expect(stream.res.status).toBe(200)
  expect(stream.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
  await fetch(`${mock.url}/v1/topics?from=events-test`, {
    headers: { Authorization: 'ApiKey events-key-123456' },
  })
  const { data } = await stream.next((e) => e.event === 'request' && e.data.path === '/v1/topics')
  expect(data).toMatchObject({ method: 'GET', status: 200, apiKey: 'even…56' })
  expect(JSON.stringify(data)).not.toContain('events-key-123456')
  stream.close()
})

test('a trigger sends each message it creates, rendered', async () => {
  const key = 'events-trigger'
  await post(
    '/v1/workflows',
    {
      name: 'Event Flow',
      notificationGroupId: GENERAL_GROUP_ID,
      active: true,
      steps: [{ template: { type: 'sms', content: 'Hi {{name}}' } }],
    },
    key
  )
  const stream = await openStream(mock.url)
  await post(
    '/v1/events/trigger',
    {
      name: 'event-flow',
      to: { subscriberId: 's1', phone: '+15550100' },
      payload: { name: 'Ada' },
    },
    key
  )
  const { data } = await stream.next((e) => e.event === 'message')
  expect(data).toMatchObject({
    channel: 'sms',
    templateIdentifier: 'event-flow',
    rendered: { channel: 'sms', text: 'Hi Ada' },
  })
  stream.close()
})

test('rule changes and resets are announced', async () => {
  const stream = await openStream(mock.url)
  const added = await post('/__admin/rules', {
    match: { path: '/v1/nothing-here' },
    fault: { status: 503 },
  })
  expect(added.status).toBe(201)
  await stream.next((e) => e.event === 'rules')
  await fetch(`${mock.url}/__admin/reset?apiKey=events-reset-key`, { method: 'POST' })
  const reset = await stream.next((e) => e.event === 'reset')
  expect(reset.data).toEqual({ apiKey: 'even…ey' })
  await fetch(`${mock.url}/__admin/rules`, { method: 'DELETE' })
  stream.close()
})

test('closing the server ends the open streams', async () => {
  const own = await startMock({ port: 0, logLevel: 'silent', scenario: 'empty' })
  const stream = await openStream(own.url)
  await own.close()
  await expect(stream.next(() => false)).rejects.toThrow('the stream ended')
})

test(`at most ${MAX_EVENT_CLIENTS} streams are open at once; a closed one makes room`, async () => {
  const { app, state } = createMock({ scenario: 'empty' })
  const open: Response[] = []
  for (let i = 0; i < MAX_EVENT_CLIENTS; i++) open.push(await app.request('/__admin/events'))
  expect(open.every((res) => res.status === 200)).toBe(true)
  const refused = await app.request('/__admin/events')
  expect(refused.status).toBe(429)
  expect(await refused.json()).toMatchObject({
    message: `At most ${MAX_EVENT_CLIENTS} event streams may be open at once`,
  })
  await open.pop()?.body?.cancel()
  expect((await app.request('/__admin/events')).status).toBe(200)
  expect(state.events.active).toBe(true)
})

test('nothing listens to the mock once the last stream is gone', async () => {
  const { app, state } = createMock({ scenario: 'empty' })
  const res = await app.request('/__admin/events')
  expect(state.events.active).toBe(true)
  await res.body?.cancel()
  expect(state.events.active).toBe(false)
})

test('with ADMIN_TOKEN set, the stream needs the token', async () => {
  const { app } = createMock({ adminToken: 'tok', scenario: 'empty' })
  expect((await app.request('/__admin/events')).status).toBe(401)
  const res = await app.request('/__admin/events', { headers: { Authorization: 'Bearer tok' } })
  expect(res.status).toBe(200)
  await res.body?.cancel()
})

test('a client that does not read is cut off with an overflow event, not buffered forever', async () => {
  const { app, state } = createMock({ scenario: 'empty' })
  const res = await app.request('/__admin/events')
  for (let i = 0; i < MAX_QUEUED_EVENTS + 5; i++) await app.request('/v1/no-such-route')
  const text = await res.text()
  expect(text.trimEnd().split('\n\n').at(-1)).toMatch(
    new RegExp(`^id: \\d+\\nevent: overflow\\ndata: {"maxQueuedEvents":${MAX_QUEUED_EVENTS}}$`)
  )
  expect(state.events.active).toBe(false)
})

test('each webhook delivery attempt is sent as a webhook event, the key redacted', async () => {
  const receiver = await startReceiver()
  const stream = await openStream(mock.url)
  try {
    const apiKey = 'events-webhook-key'
    const endpoint = await mock.admin.addWebhook({ url: receiver.url }, apiKey)
    await mock.admin.testWebhook(endpoint.id)
    const { data } = await stream.next((e) => e.event === 'webhook')
    expect(data).toMatchObject({ type: 'message.sent', endpointId: endpoint.id, attempt: 1 })
    expect(data.apiKey).not.toBe(apiKey)
  } finally {
    stream.close()
    await receiver.close()
  }
})
