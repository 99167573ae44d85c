import { expect, test } from 'vitest'
import { createMock } from '../../mock.js'
import { request } from '../../../test/helpers.js'

// Subscribers and subscriptions in scenarios, in state export and import, and their ids.

const KEY = 'state-subscribers'

test('a scenario declares subscribers with data.subscribers', async () => {
  const mock = createMock({ seed: 'state' })
  await mock.admin.loadScenario({
    name: 'people',
    data: {
      subscribers: [
        {
          subscriberId: 'grace',
          firstName: 'Grace',
          email: 'grace@example.com',
          data: { plan: 'pro' },
        },
      ],
      topics: [{ key: 'navy', subscribers: ['grace', 'hopper'] }],
    },
  })
  const grace = await request(mock.app, 'GET', '/v2/subscribers/grace', { key: KEY })
  expect(grace.body.data).toMatchObject({
    subscriberId: 'grace',
    firstName: 'Grace',
    email: 'grace@example.com',
    data: { plan: 'pro' },
  })
  // A topic member nobody declared exists too.
  expect((await request(mock.app, 'GET', '/v2/subscribers/hopper', { key: KEY })).status).toBe(200)
  const subscriptions = await request(mock.app, 'GET', '/v2/topics/navy/subscriptions', {
    key: KEY,
  })
  expect(subscriptions.body.totalCount).toBe(2)
})

test('a scenario that repeats a subscriberId is refused with the path of the repeat', async () => {
  const mock = createMock({ seed: 'state' })
  await expect(
    mock.admin.loadScenario({
      name: 'twice',
      data: { subscribers: [{ subscriberId: 'a' }, { subscriberId: 'a' }] },
    })
  ).rejects.toThrow(/data\.subscribers\.1\.subscriberId/)
})

test('the state export holds subscribers, and topics with their subscriptions', async () => {
  const mock = createMock({ seed: 'state' })
  const state = await mock.admin.exportState(KEY)
  expect(Object.keys(state)).toEqual(expect.arrayContaining(['subscribers', 'topics', 'messages']))
  const ada = (state.subscribers as { subscriberId: string }[]).find(
    (s) => s.subscriberId === 'user-1042'
  )
  expect(ada).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' })
  const alpha = (state.topics as { key: string; subscriptions: unknown[] }[]).find(
    (t) => t.key === 'team-alpha'
  )
  expect(alpha?.subscriptions).toEqual([
    expect.objectContaining({
      identifier: 'tk_team-alpha:si_user-1042',
      subscriberId: 'user-1042',
    }),
    expect.objectContaining({
      identifier: 'tk_team-alpha:si_user-2210',
      subscriberId: 'user-2210',
    }),
  ])
})

test('an export fed back in answers the same, writes through the v2 routes included', async () => {
  const mock = createMock({ seed: 'state' })
  const { app } = mock
  await request(app, 'POST', '/v2/subscribers', {
    key: KEY,
    body: { subscriberId: 'zoe', firstName: null, data: { tier: 2 } },
  })
  await request(app, 'POST', '/v2/topics', { key: KEY, body: { key: 'unnamed' } })
  await request(app, 'POST', '/v2/topics/unnamed/subscriptions', {
    key: KEY,
    body: { subscriptions: [{ identifier: 'zoe-1', subscriberId: 'zoe', name: 'Zoe' }] },
  })
  const exported = await mock.admin.exportState(KEY)
  const reads = async () =>
    Promise.all(
      [
        '/v2/subscribers?limit=100',
        '/v2/topics?limit=100',
        '/v2/topics/unnamed/subscriptions',
        '/v1/topics?key=unnamed',
        '/v1/messages?limit=100',
      ].map(async (path) => (await request(app, 'GET', path, { key: KEY })).text)
    )
  const before = await reads()
  await mock.admin.importState(KEY, exported)
  expect(await reads()).toEqual(before)
  expect(await mock.admin.exportState(KEY)).toEqual(exported)
})

test('the same seed and key give the same subscriber and subscription ids', async () => {
  const ids = async () => {
    const { app } = createMock({ seed: 'state' })
    const subscribers = await request(app, 'GET', '/v2/subscribers?limit=100', { key: KEY })
    const subscriptions = await request(app, 'GET', '/v2/topics/team-alpha/subscriptions', {
      key: KEY,
    })
    return [subscribers.text, subscriptions.text]
  }
  expect(await ids()).toEqual(await ids())
})

test('the subscribers and subscriptions the default data implies move no other seeded id', async () => {
  const { app } = createMock({ seed: 'state' })
  const messages = await request(app, 'GET', '/v1/messages?transactionId=tx-order-1001', {
    key: KEY,
  })
  const ada = await request(app, 'GET', '/v2/subscribers/user-1042', { key: KEY })
  expect(messages.body.data[0]._subscriberId).toBe(ada.body.data._id)
})

test('a scenario that repeats a topic key is refused with the path of the repeat', async () => {
  const mock = createMock({ seed: 'state' })
  await expect(
    mock.admin.loadScenario({
      name: 'twice',
      data: { topics: [{ key: 'news' }, { key: 'news' }] },
    })
  ).rejects.toThrow(/data\.topics\.1\.key/)
})
