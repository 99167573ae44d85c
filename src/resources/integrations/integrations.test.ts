import { describe, expect, test } from 'vitest'
import { DEFAULT_KEY, OBJECT_ID, request } from '../../../test/helpers.js'
import { GENERATIONS, triggerMock } from '../../../test/trigger-helpers.js'

// POST/GET /v1/integrations (subscriber facts §7), per environment.

describe.each(GENERATIONS)('%s: /v1/integrations', (generation) => {
  test('a new environment lists only Novu in-app, email and SMS providers', async () => {
    const { app } = triggerMock(generation)

    const res = await request(app, 'GET', '/v1/integrations')

    expect(res.status).toBe(200)
    expect(res.body.data.map((i: { providerId: string }) => i.providerId)).toEqual([
      'novu',
      'novu-email',
      'novu-sms',
    ])
    expect(res.body.data[0]._id).toMatch(OBJECT_ID)
  })

  test('an integration shows its environment and organisation ids, never the API key', async () => {
    const { app } = triggerMock(generation)

    const res = await request(app, 'GET', '/v1/integrations')

    expect(res.status).toBe(200)
    expect(JSON.stringify(res.body)).not.toContain(DEFAULT_KEY)
    for (const integration of res.body.data) {
      expect(integration._environmentId).toMatch(OBJECT_ID)
      expect(integration._organizationId).toMatch(OBJECT_ID)
      expect(Object.keys(integration)).not.toContain('apiKey')
      expect(Object.keys(integration)).not.toContain('generation')
    }
  })

  test('creates an integration, inactive unless told, with an identifier made from its name', async () => {
    const { app } = triggerMock(generation)

    const res = await request(app, 'POST', '/v1/integrations', {
      body: { providerId: 'fcm', channel: 'push', credentials: {}, name: 'Push Main' },
    })

    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({
      providerId: 'fcm',
      channel: 'push',
      active: false,
      name: 'Push Main',
      credentials: {},
      deleted: false,
    })
    expect(res.body.data.identifier).toMatch(/^push-main-[0-9a-z]+$/)
    const list = await request(app, 'GET', '/v1/integrations')
    expect(list.body.data).toHaveLength(4)
  })

  test('the active list leaves an inactive integration out', async () => {
    const { app } = triggerMock(generation)
    await request(app, 'POST', '/v1/integrations', {
      body: { providerId: 'apns', channel: 'push' },
    })

    const res = await request(app, 'GET', '/v1/integrations/active')

    expect(res.status).toBe(200)
    expect(res.body.data.map((i: { providerId: string }) => i.providerId)).toEqual([
      'novu',
      'novu-email',
      'novu-sms',
    ])
  })

  test('a taken identifier answers 409', async () => {
    const { app } = triggerMock(generation)
    const body = { providerId: 'fcm', channel: 'push', identifier: 'fcm-main' }
    await request(app, 'POST', '/v1/integrations', { body })

    const res = await request(app, 'POST', '/v1/integrations', { body })

    expect(res.status).toBe(409)
    expect(res.body.message).toBe('Integration with identifier already exists')
  })

  test('the empty body lists providerId and channel messages', async () => {
    const { app } = triggerMock(generation)

    const res = await request(app, 'POST', '/v1/integrations', { body: { active: 'yes' } })

    expect(res.text).toContain('providerId should not be null or undefined')
    expect(res.text).toContain(
      'channel must be one of the following values: in_app, email, sms, chat, push'
    )
    expect(res.text).toContain('active must be a boolean value')
  })

  test('integrations belong to their environment', async () => {
    const { app } = triggerMock(generation)
    await request(app, 'POST', '/v1/integrations', {
      body: { providerId: 'fcm', channel: 'push' },
      key: 'key-a',
    })

    const other = await request(app, 'GET', '/v1/integrations', { key: 'key-b' })

    expect(other.body.data).toHaveLength(3)
  })

  test('an active push integration lets a trigger send push to the stored token', async () => {
    const { app } = triggerMock(generation)
    await request(app, 'POST', '/v1/integrations', {
      body: { providerId: 'fcm', channel: 'push', active: true },
    })
    const wf = await request(app, 'POST', '/v1/workflows', {
      body: {
        name: 'Push it',
        notificationGroupId: (await request(app, 'GET', '/v1/notification-groups')).body.data[0]
          ._id,
        active: true,
        steps: [{ template: { type: 'push', title: 'Hi', content: 'Hello {{name}}' } }],
      },
    })
    await request(app, 'POST', '/v1/subscribers', { body: { subscriberId: 'p1' } })
    await request(app, 'PUT', '/v1/subscribers/p1/credentials', {
      body: { providerId: 'fcm', credentials: { deviceTokens: ['tok-1'] } },
    })

    const sent = await request(app, 'POST', '/v1/events/trigger', {
      body: { name: wf.body.data.triggers[0].identifier, to: 'p1', payload: { name: 'Ada' } },
    })
    const messages = await request(
      app,
      'GET',
      `/v1/messages?transactionId=${sent.body.data.transactionId}`
    )

    expect(messages.body.data).toHaveLength(1)
    expect(messages.body.data[0]).toMatchObject({
      channel: 'push',
      providerId: 'fcm',
      content: 'Hello Ada',
      deviceTokens: ['tok-1'],
    })
  })
})
