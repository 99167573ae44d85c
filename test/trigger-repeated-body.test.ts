import { describe, expect, test } from 'vitest'
import { GENERAL_GROUP_ID, GENERATIONS, triggerMock } from './trigger-helpers.js'
import { request, type Requestable } from './helpers.js'

// A trigger's body is parsed and validated once per text (http/text-memo.ts) and shared, frozen,
// by every trigger that sends the same text: what a trigger stores from it (a subscriber's data
// and credentials, the payload) must stay changeable by the routes that change those records
// afterwards, and read back the same.

const BODY_OF = (name: string) => ({
  name,
  to: [
    {
      subscriberId: 'shared-1',
      firstName: 'Ada',
      data: { plan: { tier: 'pro' }, tags: ['a'] },
      channels: [{ providerId: 'fcm', credentials: { deviceTokens: ['token-1'] } }],
    },
  ],
  payload: { order: { id: 'A-1' }, items: [{ sku: 1 }] },
  overrides: { email: { from: 'shop@example.com' } },
  tenant: { identifier: 'shared-tenant', name: 'Shop', data: { region: 'eu' } },
  actor: { subscriberId: 'shared-actor', data: { role: ['admin'] } },
})

async function triggeredTwice(app: Requestable) {
  await request(app, 'POST', '/v1/tenants', { body: { identifier: 'shared-tenant', name: 'Shop' } })
  await request(app, 'POST', '/v1/integrations', {
    body: { providerId: 'fcm', channel: 'push', credentials: {}, active: true, check: false },
  })
  const created = await request(app, 'POST', '/v1/workflows', {
    body: {
      name: 'Repeated body',
      notificationGroupId: GENERAL_GROUP_ID,
      active: true,
      steps: [{ template: { type: 'in_app', content: 'Order {{order.id}}' } }],
    },
  })
  const body = BODY_OF(created.body.data.triggers[0].identifier as string)
  for (let i = 0; i < 2; i++)
    expect((await request(app, 'POST', '/v1/events/trigger', { body })).status).toBe(201)
}

describe.each(GENERATIONS)('%s', (generation) => {
  test('a subscriber two identical triggers created takes new credentials and data afterwards', async () => {
    const { app } = triggerMock(generation)
    await triggeredTwice(app)
    const credentials = await request(app, 'PATCH', '/v1/subscribers/shared-1/credentials', {
      body: { providerId: 'fcm', credentials: { deviceTokens: ['token-2'] } },
    })
    expect(credentials.status).toBe(200)
    const updated = await request(app, 'PUT', '/v1/subscribers/shared-1', {
      body: { firstName: 'Grace', data: { plan: { tier: 'free' } } },
    })
    expect(updated.status).toBe(200)
    const read = await request(app, 'GET', '/v1/subscribers/shared-1')
    expect(read.body.data.firstName).toBe('Grace')
    expect(read.body.data.data).toEqual({ plan: { tier: 'free' } })
  })

  test('the messages of two identical triggers each show the payload sent', async () => {
    const { app } = triggerMock(generation)
    await triggeredTwice(app)
    const messages = await request(app, 'GET', '/v1/messages?limit=10')
    expect(messages.status).toBe(200)
    const contents = (messages.body.data as { content: string }[]).map((m) => m.content)
    expect(contents).toEqual(['Order A-1', 'Order A-1'])
  })
})
