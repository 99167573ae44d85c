import { describe, expect, test } from 'vitest'
import { createMock } from '../../mock.js'
import { request } from '../../../test/helpers.js'

// Credentials and integrations in the default scenario, in scenario files and in state export and import.

describe('the default scenario', () => {
  test('user-3301 has an FCM device token on the FCM integration', async () => {
    const { app } = createMock({})

    const res = await request(app, 'GET', '/v1/subscribers/user-3301')

    expect(res.body.data).toMatchObject({
      subscriberId: 'user-3301',
      firstName: 'Lin',
      lastName: 'Park',
      email: 'lin.park@example.com',
      channels: [
        {
          credentials: { deviceTokens: ['fcm-token-user-3301'] },
          _integrationId: '66fbb0a0c1f2e3d4a5b65004',
          providerId: 'fcm',
        },
      ],
    })
    const integrations = await request(app, 'GET', '/v1/integrations')
    expect(integrations.body.data.map((i: { providerId: string }) => i.providerId)).toEqual([
      'novu',
      'novu-email',
      'novu-sms',
      'fcm',
    ])
  })

  test('a PATCH of user-3301 tokens adds to the seeded one', async () => {
    const { app } = createMock({})

    const res = await request(app, 'PATCH', '/v1/subscribers/user-3301/credentials', {
      body: { providerId: 'fcm', credentials: { deviceTokens: ['second'] } },
    })

    expect(res.body.data.channels).toEqual([
      {
        credentials: { deviceTokens: ['fcm-token-user-3301', 'second'] },
        _integrationId: '66fbb0a0c1f2e3d4a5b65004',
        providerId: 'fcm',
      },
    ])
  })
})

test('a scenario declares integrations and subscriber channels', async () => {
  const mock = createMock({ seed: 'state' })
  await mock.admin.loadScenario({
    name: 'chat',
    data: {
      integrations: [
        { _id: '66fbb0a0c1f2e3d4a5b6a001', channel: 'chat', providerId: 'slack', active: true },
      ],
      subscribers: [
        {
          subscriberId: 'sam',
          channels: [
            {
              credentials: { webhookUrl: 'https://hooks.example/sam' },
              _integrationId: '66fbb0a0c1f2e3d4a5b6a001',
              providerId: 'slack',
            },
          ],
        },
      ],
    },
  })

  const sam = await request(mock.app, 'GET', '/v1/subscribers/sam', { key: 'k' })

  expect(sam.body.data.channels[0].credentials).toEqual({ webhookUrl: 'https://hooks.example/sam' })
  const list = await request(mock.app, 'GET', '/v1/integrations', { key: 'k' })
  expect(list.body.data).toHaveLength(1)
  expect(list.body.data[0]).toMatchObject({ _id: '66fbb0a0c1f2e3d4a5b6a001', identifier: 'slack' })
})

test('an export carries integrations and credentials, and its import restores them', async () => {
  const mock = createMock({ seed: 'state', scenario: 'empty' })
  const created = await request(mock.app, 'POST', '/v1/integrations', {
    body: { providerId: 'expo', channel: 'push', active: true },
    key: 'from',
  })
  await request(mock.app, 'POST', '/v1/subscribers', { body: { subscriberId: 'e1' }, key: 'from' })
  await request(mock.app, 'PUT', '/v1/subscribers/e1/credentials', {
    body: { providerId: 'expo', credentials: { deviceTokens: ['x'] } },
    key: 'from',
  })

  const exported = await mock.admin.exportState('from')
  await mock.admin.importState('to', exported)

  const e1 = await request(mock.app, 'GET', '/v1/subscribers/e1', { key: 'to' })
  expect(e1.body.data.channels).toEqual([
    {
      credentials: { deviceTokens: ['x'] },
      _integrationId: created.body.data._id,
      providerId: 'expo',
    },
  ])
  const again = await request(mock.app, 'PATCH', '/v1/subscribers/e1/credentials', {
    body: { providerId: 'expo', credentials: { deviceTokens: ['y'] } },
    key: 'to',
  })
  expect(again.body.data.channels[0].credentials.deviceTokens).toEqual(['x', 'y'])
})

test('an export carries the online flag and its import restores it', async () => {
  const mock = createMock({ seed: 'state', scenario: 'empty' })
  await request(mock.app, 'POST', '/v1/subscribers', { body: { subscriberId: 'o1' }, key: 'a' })
  await request(mock.app, 'PATCH', '/v1/subscribers/o1/online-status', {
    body: { isOnline: false },
    key: 'a',
  })

  await mock.admin.importState('b', await mock.admin.exportState('a'))

  const o1 = await request(mock.app, 'GET', '/v1/subscribers/o1', { key: 'b' })
  expect(o1.body.data.isOnline).toBe(false)
  expect(typeof o1.body.data.lastOnlineAt).toBe('string')
})
