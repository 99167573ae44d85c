import { afterAll, beforeAll, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../src/server.js'
import type { GenerationName } from '../src/generations/generation.js'
import type { WebhookEventType } from '../src/webhooks/event-types.js'
import { startReceiver, triggerWelcome, verified } from './webhook-receiver.js'

// Each event type from the route that causes it upstream, in each generation where the route
// exists; every delivery verified with svix.

const mocks = new Map<GenerationName, RunningMock>()
beforeAll(async () => {
  for (const generation of ['2026-08', '2024-10'] as const)
    mocks.set(
      generation,
      await startMock({ port: 0, logLevel: 'silent', apiGeneration: generation })
    )
})
afterAll(async () => {
  for (const mock of mocks.values()) await mock.close()
})

interface Envelope {
  id: string
  type: string
  object: string
  data: Record<string, unknown> & { object: Record<string, unknown> }
  environmentId: string
}

let keys = 0
/** A fresh key with an endpoint for `events`; `receive(n)` waits for n events and verifies them. */
async function subscribe(generation: GenerationName, events: WebhookEventType[]) {
  const mock = mocks.get(generation) as RunningMock
  const apiKey = `webhooks-events-${generation}-${++keys}`
  const receiver = await startReceiver()
  const endpoint = await mock.admin.addWebhook({ url: receiver.url, events }, apiKey)
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${mock.url}${path}`, {
      method,
      headers: { Authorization: `ApiKey ${apiKey}`, 'Content-Type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
    const text = await res.text()
    return { status: res.status, body: text ? (JSON.parse(text) as { data: any }) : undefined } // eslint-disable-line @typescript-eslint/no-explicit-any
  }
  return {
    mock,
    apiKey,
    call,
    async receive(count: number): Promise<Envelope[]> {
      await receiver.next(count)
      return receiver.received.map((r) => verified<Envelope>(endpoint.secret, r))
    },
    close: () => receiver.close(),
  }
}

const WORKFLOW = {
  name: 'Webhook events',
  notificationGroupId: '66fbb0a0c1f2e3d4a5b60001',
  steps: [{ template: { type: 'in_app', content: 'Hello' } }],
}

test.each(['2026-08', '2024-10'] as const)(
  '%s: creating a workflow through /v1/workflows sends workflow.created with the v2 workflow',
  async (generation) => {
    const s = await subscribe(generation, ['workflow.created'])
    try {
      const res = await s.call('POST', '/v1/workflows', WORKFLOW)
      expect(res.status).toBe(201)
      const [event] = await s.receive(1)
      expect(event).toMatchObject({
        type: 'workflow.created',
        object: 'workflow',
        data: { object: { _id: res.body?.data._id, name: 'Webhook events' } },
      })
      expect(event?.data.object.workflowId).toBe(res.body?.data.triggers[0].identifier)
    } finally {
      await s.close()
    }
  }
)

test.each(['2026-08', '2024-10'] as const)(
  '%s: changing a workflow status sends workflow.updated with the previous object',
  async (generation) => {
    const s = await subscribe(generation, ['workflow.updated'])
    try {
      const created = await s.call('POST', '/v1/workflows', { ...WORKFLOW, active: true })
      const id = created.body?.data._id as string
      expect((await s.call('PUT', `/v1/workflows/${id}/status`, { active: false })).status).toBe(
        200
      )
      const [event] = await s.receive(1)
      expect(event?.data.object).toMatchObject({ _id: id, active: false })
      expect(event?.data.previousObject).toMatchObject({ _id: id, active: true })
    } finally {
      await s.close()
    }
  }
)

test('deleting a workflow through /v2/workflows sends workflow.deleted', async () => {
  const s = await subscribe('2026-08', ['workflow.deleted'])
  try {
    const created = await s.call('POST', '/v2/workflows', {
      name: 'To delete',
      workflowId: 'to-delete',
      steps: [{ name: 'In-App', type: 'in_app', controlValues: { body: 'Hi' } }],
    })
    expect(created.status).toBe(201)
    expect((await s.call('DELETE', '/v2/workflows/to-delete')).status).toBe(204)
    const [event] = await s.receive(1)
    expect(event).toMatchObject({
      type: 'workflow.deleted',
      data: { object: { workflowId: 'to-delete' } },
    })
  } finally {
    await s.close()
  }
})

test("changing a subscriber's preference sends preference.updated with the Inbox's shape", async () => {
  const s = await subscribe('2026-08', ['preference.updated'])
  try {
    const res = await s.call('PATCH', '/v2/subscribers/user-1042/preferences', {
      channels: { email: false },
    })
    expect(res.status).toBe(200)
    const [event] = await s.receive(1)
    expect(event).toMatchObject({
      type: 'preference.updated',
      object: 'preference',
      data: { subscriberId: 'user-1042', object: { level: 'global', channels: { email: false } } },
    })
  } finally {
    await s.close()
  }
})

test('reading and archiving an inbox notification sends message.read and message.archived', async () => {
  const s = await subscribe('2026-08', ['message.read', 'message.archived'])
  try {
    expect((await triggerWelcome(s.mock.url, s.apiKey)).status).toBe(201)
    const list = await s.call('GET', '/v2/subscribers/user-1042/notifications')
    const id = list.body?.data[0].id as string
    const base = `/v2/subscribers/user-1042/notifications/${id}`
    expect((await s.call('PATCH', `${base}/read`)).status).toBe(200)
    expect((await s.call('PATCH', `${base}/archive`)).status).toBe(200)
    const events = await s.receive(2)
    expect(events.map((e) => [e.type, e.data.object._id])).toEqual([
      ['message.read', id],
      ['message.archived', id],
    ])
    expect(events[1]?.data.object).toMatchObject({ read: true, archived: true })
  } finally {
    await s.close()
  }
})

test.each(['2026-08', '2024-10'] as const)(
  '%s: marking a message seen through /v1 mark-as sends message.seen',
  async (generation) => {
    const s = await subscribe(generation, ['message.seen'])
    try {
      expect((await triggerWelcome(s.mock.url, s.apiKey)).status).toBe(201)
      const feed = await s.call('GET', '/v1/subscribers/user-1042/notifications/feed')
      const id = feed.body?.data[0]._id as string
      const res = await s.call('POST', '/v1/subscribers/user-1042/messages/mark-as', {
        messageId: id,
        markAs: 'seen',
      })
      expect(res.status).toBe(201)
      const [event] = await s.receive(1)
      expect(event).toMatchObject({
        type: 'message.seen',
        data: { object: { _id: id, seen: true } },
      })
    } finally {
      await s.close()
    }
  }
)

test.each(['2026-08', '2024-10'] as const)(
  '%s: an email without an address sends message.failed with the reason',
  async (generation) => {
    const s = await subscribe(generation, ['message.failed'])
    try {
      const res = await s.call('POST', '/v1/events/trigger', {
        name: 'welcome-email',
        to: 'no-email-subscriber',
        payload: { firstName: 'Ada', productName: 'Acme' },
      })
      expect(res.status).toBe(201)
      const [event] = await s.receive(1)
      expect(event).toMatchObject({
        type: 'message.failed',
        data: {
          object: { channel: 'email', status: 'warning', subscriberId: 'no-email-subscriber' },
          error: { message: 'Subscriber does not have an email address' },
        },
      })
    } finally {
      await s.close()
    }
  }
)

test.each([
  ['2026-08', true],
  ['2024-10', false],
] as const)(
  '%s: an in-app step sends message.sent then message.delivered (deliveredAt: %s)',
  async (generation, delivered) => {
    const s = await subscribe(generation, ['message.sent', 'message.delivered'])
    try {
      expect((await triggerWelcome(s.mock.url, s.apiKey)).status).toBe(201)
      const events = await s.receive(2)
      expect(events.map((e) => e.type)).toEqual(['message.sent', 'message.delivered'])
      expect(events[0]?.data.object).toMatchObject({
        channel: 'in_app',
        workflowId: 'welcome-email',
      })
      expect('deliveredAt' in (events[1]?.data.object ?? {})).toBe(delivered)
    } finally {
      await s.close()
    }
  }
)
