import { describe, expect, test } from 'vitest'
import { createMock } from '../../mock.js'
import { ISO_DATE, OBJECT_ID, request, withoutTimestamp } from '../../../test/helpers.js'

// POST, GET, DELETE /v2/topics/{topicKey}/subscriptions (novu-v2-facts.md §7, upstream's
// CreateSubscriptionsUsecase and DeleteTopicSubscriptionsUsecase).

const app = () => createMock({ seed: 'subscriptions' }).app
const path = (key: string) => `/v2/topics/${key}/subscriptions`
const subscribe = (target: ReturnType<typeof app>, key: string, body: unknown) =>
  request(target, 'POST', path(key), { body })

describe('POST /v2/topics/{topicKey}/subscriptions', () => {
  test('subscribes known subscribers: 201, unwrapped, each new subscription with empty dates', async () => {
    const res = await subscribe(app(), 'beta-testers', { subscriberIds: ['user-1042'] })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      data: [
        {
          _id: expect.stringMatching(OBJECT_ID),
          identifier: 'tk_beta-testers:si_user-1042',
          topic: { _id: '66fbb0a0c1f2e3d4a5b62001', key: 'beta-testers', name: 'Beta testers' },
          subscriber: {
            _id: expect.stringMatching(OBJECT_ID),
            subscriberId: 'user-1042',
            avatar: null,
            firstName: 'Ada',
            lastName: 'Lovelace',
            createdAt: expect.stringMatching(ISO_DATE),
            updatedAt: expect.stringMatching(ISO_DATE),
          },
          createdAt: '',
          updatedAt: '',
        },
      ],
      meta: { totalCount: 1, successful: 1, failed: 0 },
    })
  })

  test('answers an existing subscription again with its stored dates, and adds none', async () => {
    const target = app()
    await subscribe(target, 'beta-testers', { subscriberIds: ['user-1042'] })
    const again = await subscribe(target, 'beta-testers', { subscriberIds: ['user-1042'] })
    expect(again.status).toBe(201)
    expect(again.body.data[0].createdAt).toMatch(ISO_DATE)
    const list = await request(target, 'GET', path('beta-testers'))
    expect(list.body.totalCount).toBe(1)
  })

  test('reports an unknown subscriber per item and still answers 201 for the rest', async () => {
    const res = await subscribe(app(), 'beta-testers', { subscriberIds: ['user-1042', 'ghost'] })
    expect(res.status).toBe(201)
    expect(res.body.meta).toEqual({ totalCount: 2, successful: 1, failed: 1 })
    expect(res.body.errors).toEqual([
      {
        subscriberId: 'ghost',
        code: 'SUBSCRIBER_NOT_FOUND',
        message: "Subscriber with ID 'ghost' could not be found.",
      },
    ])
  })

  test('answers 400 with the result flat and in ctx when every subscriber is unknown', async () => {
    const res = await subscribe(app(), 'beta-testers', { subscriberIds: ['ghost'] })
    expect(res.status).toBe(400)
    const result = {
      data: [],
      meta: { totalCount: 1, successful: 0, failed: 1 },
      errors: [
        {
          subscriberId: 'ghost',
          code: 'SUBSCRIBER_NOT_FOUND',
          message: "Subscriber with ID 'ghost' could not be found.",
        },
      ],
    }
    expect(withoutTimestamp(res.body)).toEqual({
      ...result,
      statusCode: 400,
      path: path('beta-testers'),
      message: 'Api Exception Raised with status 400',
      ctx: result,
    })
  })

  test('creates a missing topic, with the name sent, and keeps it although every item failed', async () => {
    const target = app()
    const res = await subscribe(target, 'new-topic', { subscriberIds: ['ghost'], name: 'New' })
    expect(res.status).toBe(400)
    const topic = await request(target, 'GET', '/v2/topics/new-topic')
    expect(topic.status).toBe(200)
    expect(topic.body.data.name).toBe('New')
  })

  test('answers 400 for a new topic whose key upstream refuses, and creates nothing', async () => {
    const target = app()
    const res = await subscribe(target, 'bad%20key', { subscriberIds: ['user-1042'] })
    expect(res.status).toBe(400)
    expect(res.body.message).toMatch(/^Invalid topic key: "bad key"/)
    expect((await request(target, 'GET', '/v2/topics')).body.totalCount).toBe(23)
  })

  test('renames an existing topic with name, answering the topic as it was', async () => {
    const target = app()
    const res = await subscribe(target, 'beta-testers', {
      subscriberIds: ['user-1042'],
      name: 'Testers',
    })
    expect(res.body.data[0].topic.name).toBe('Beta testers')
    expect((await request(target, 'GET', '/v2/topics/beta-testers')).body.data.name).toBe('Testers')
  })

  test('takes subscriptions with their own identifier and name', async () => {
    const target = app()
    const res = await subscribe(target, 'beta-testers', {
      subscriptions: [{ identifier: 'ada-weekly', subscriberId: 'user-1042', name: 'Weekly' }],
    })
    expect(res.status).toBe(201)
    expect(res.body.data[0]).toMatchObject({ identifier: 'ada-weekly', name: 'Weekly' })
    const list = await request(target, 'GET', path('beta-testers'))
    expect(list.body.data[0].identifier).toBe('ada-weekly')
  })

  test('refuses an identifier over 512 characters per item (400 when it is the only one)', async () => {
    const res = await subscribe(app(), 'beta-testers', {
      subscriptions: [{ identifier: 'i'.repeat(513), subscriberId: 'user-1042' }],
    })
    expect(res.status).toBe(400)
    expect(res.body.errors).toEqual([
      {
        subscriberId: 'user-1042',
        code: 'INVALID_SUBSCRIPTION_IDENTIFIER',
        message: 'Subscription identifier must not exceed 512 characters.',
      },
    ])
  })

  test('refuses an eleventh subscription of one subscriber to one topic', async () => {
    const target = app()
    for (let i = 0; i < 10; i++) {
      const ok = await subscribe(target, 'beta-testers', {
        subscriptions: [{ identifier: `ada-${i}`, subscriberId: 'user-1042' }],
      })
      expect(ok.body.meta).toEqual({ totalCount: 1, successful: 1, failed: 0 })
    }
    const res = await subscribe(target, 'beta-testers', {
      subscriptions: [{ identifier: 'ada-10', subscriberId: 'user-1042' }],
    })
    expect(res.status).toBe(400)
    expect(res.body.ctx.errors).toEqual([
      {
        subscriberId: 'user-1042',
        code: 'SUBSCRIPTION_LIMIT_EXCEEDED',
        message:
          'Subscriber user-1042 has reached the maximum allowed of 10 subscriptions for topic "beta-testers"',
      },
    ])
    expect(
      (await request(target, 'GET', `${path('beta-testers')}?limit=100`)).body.totalCount
    ).toBe(10)
  })

  test('fails an item whose identifier another topic holds (identifiers are unique)', async () => {
    const target = app()
    await subscribe(target, 'beta-testers', {
      subscriptions: [{ identifier: 'shared', subscriberId: 'user-1042' }],
    })
    const res = await subscribe(target, 'newsletter-weekly', {
      subscriptions: [{ identifier: 'shared', subscriberId: 'user-2210' }],
    })
    expect(res.status).toBe(400)
    expect(res.body.errors[0]).toMatchObject({
      subscriberId: 'user-2210',
      code: 'SUBSCRIPTION_CREATE_FAILED',
    })
  })

  test.each([
    {
      body: { subscriberIds: [] },
      messages: ['At least one subscriber identifier is required'],
    },
    { body: { subscriberIds: [1] }, messages: ['each value in subscriberIds must be a string'] },
    {
      body: { subscriberIds: Array.from({ length: 101 }, (_, i) => `s${i}`) },
      messages: ['Cannot subscribe more than 100 subscribers at once'],
    },
    {
      body: { subscriptions: ['user-1042'] },
      messages: [
        'subscriptions.each value in nested property subscriptions must be either object or array',
      ],
    },
    {
      body: { subscriptions: 'user-1042' },
      messages: [
        'At least one subscription is required',
        'Cannot subscribe more than 100 subscriptions at once',
        'subscriptions must be an array',
        'each value in nested property subscriptions must be either object or array',
      ],
    },
    { body: { name: 5, subscriberIds: ['user-1042'] }, messages: ['name must be a string'] },
  ])('answers the pipe 422 for $body', async ({ body, messages }) => {
    const target = app()
    const res = await subscribe(target, 'beta-testers', body)
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual({ general: { messages, value: 'No Value Recorded' } })
    expect((await request(target, 'GET', path('beta-testers'))).body.totalCount).toBe(0)
  })

  test('answers the command 422 when neither list is sent', async () => {
    const res = await subscribe(app(), 'beta-testers', {})
    expect(res.status).toBe(422)
    expect(withoutTimestamp(res.body)).toEqual({
      statusCode: 422,
      path: path('beta-testers'),
      message:
        'Validation failed for CreateSubscriptionsCommand: subscriptions: At least one subscription is required',
      ctx: {},
      errors: {
        subscriptions: { messages: ['At least one subscription is required'], value: [] },
      },
    })
  })

  test('answers the command 422, keyed by item, for a subscription without subscriberId', async () => {
    const res = await subscribe(app(), 'beta-testers', { subscriptions: [{ identifier: 'x' }] })
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual({
      'subscriptions.0.subscriberId': {
        messages: ['subscriberId should not be null or undefined', 'subscriberId must be a string'],
      },
    })
  })

  test('shows a v2 subscription in the v1 topic and its membership route', async () => {
    const target = app()
    await subscribe(target, 'beta-testers', { subscriberIds: ['user-2210'] })
    const v1 = await request(target, 'GET', '/v1/topics/beta-testers')
    expect(v1.body.data.subscribers).toEqual(['user-2210'])
    const member = await request(target, 'GET', '/v1/topics/beta-testers/subscribers/user-2210')
    expect(member.status).toBe(200)
    expect(member.body.data).toMatchObject({
      topicKey: 'beta-testers',
      externalSubscriberId: 'user-2210',
    })
  })
})

describe('GET /v2/topics/{topicKey}/subscriptions', () => {
  test("lists a topic's subscriptions, newest first, with the topic and the subscriber", async () => {
    const res = await request(app(), 'GET', path('team-alpha'))
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      next: null,
      previous: null,
      totalCount: 2,
      totalCountCapped: false,
    })
    expect(
      res.body.data
        .map((s: { subscriber: { subscriberId: string } }) => s.subscriber.subscriberId)
        .sort()
    ).toEqual(['user-1042', 'user-2210'])
    expect(Object.keys(res.body.data[0])).toEqual([
      '_id',
      'identifier',
      'topic',
      'createdAt',
      'subscriber',
    ])
    expect(res.body.data[0].topic).toMatchObject({ key: 'team-alpha', name: 'Team Alpha' })
  })

  test('pages with next and filters by subscriberId', async () => {
    const target = app()
    const first = await request(target, 'GET', `${path('team-alpha')}?limit=1`)
    expect(first.body.data).toHaveLength(1)
    const second = await request(
      target,
      'GET',
      `${path('team-alpha')}?limit=1&after=${first.body.next}`
    )
    expect(second.body).toMatchObject({ next: null, previous: second.body.data[0]._id })
    const one = await request(target, 'GET', `${path('team-alpha')}?subscriberId=user-2210`)
    expect(one.body.totalCount).toBe(1)
  })

  test('finds nothing for context keys, since no subscription has any', async () => {
    const target = app()
    const some = await request(target, 'GET', `${path('team-alpha')}?contextKeys=tenant:a`)
    expect(some.body.totalCount).toBe(0)
    const none = await request(target, 'GET', `${path('team-alpha')}?contextKeys=`)
    expect(none.body.totalCount).toBe(2)
  })

  test('answers 404 for an unknown topic', async () => {
    const res = await request(app(), 'GET', path('nope'))
    expect(res.status).toBe(404)
    expect(res.body.message).toBe('Topic with key nope not found')
  })
})

describe('DELETE /v2/topics/{topicKey}/subscriptions', () => {
  const unsubscribe = (target: ReturnType<typeof app>, key: string, body: unknown) =>
    request(target, 'DELETE', path(key), { body })

  test('removes by subscriberId and answers what it removed', async () => {
    const target = app()
    const res = await unsubscribe(target, 'team-alpha', { subscriberIds: ['user-1042'] })
    expect(res.status).toBe(200)
    expect(res.body.meta).toEqual({ totalCount: 1, successful: 1, failed: 0 })
    expect(res.body.data[0]).toMatchObject({
      identifier: 'tk_team-alpha:si_user-1042',
      subscriber: { subscriberId: 'user-1042' },
      createdAt: expect.stringMatching(ISO_DATE),
    })
    const v1 = await request(target, 'GET', '/v1/topics/team-alpha')
    expect(v1.body.data.subscribers).toEqual(['user-2210'])
  })

  test('removes by identifier', async () => {
    const target = app()
    const res = await unsubscribe(target, 'team-alpha', {
      subscriptions: [{ identifier: 'tk_team-alpha:si_user-2210' }],
    })
    expect(res.body.meta.successful).toBe(1)
  })

  test.each([
    {
      body: { subscriberIds: ['ghost'] },
      error: {
        subscriberId: 'ghost',
        code: 'SUBSCRIBER_NOT_FOUND',
        message: "Subscriber with ID 'ghost' could not be found.",
      },
    },
    {
      body: { subscriberIds: ['user-1042'] },
      key: 'beta-testers',
      error: {
        subscriberId: 'user-1042',
        code: 'SUBSCRIPTION_NOT_FOUND',
        message: "Subscription for subscriber 'user-1042' not found.",
      },
    },
    {
      body: { subscriptions: [{ identifier: 'nope' }] },
      error: {
        subscriberId: 'unknown',
        code: 'SUBSCRIPTION_NOT_FOUND',
        message: "Subscription with identifier 'nope' not found.",
      },
    },
    {
      body: { subscriptions: [{}] },
      error: {
        subscriberId: 'unknown',
        identifier: 'unknown',
        code: 'INVALID_REQUEST',
        message: 'Subscription identifier is required.',
      },
    },
  ])('answers 400 with the item error for $body', async ({ body, key, error }) => {
    const res = await unsubscribe(app(), key ?? 'team-alpha', body)
    expect(res.status).toBe(400)
    expect(res.body.message).toBe('Api Exception Raised with status 400')
    expect(res.body.errors).toEqual([error])
    expect(res.body.meta.successful).toBe(0)
  })

  test('answers 404 for an unknown topic', async () => {
    const res = await unsubscribe(app(), 'nope', { subscriberIds: ['user-1042'] })
    expect(res.status).toBe(404)
  })

  test('answers 500 for a null item, as upstream crashes on it', async () => {
    const res = await unsubscribe(app(), 'team-alpha', { subscriptions: [null] })
    expect(res.status).toBe(500)
  })

  test('answers the pipe 422 for an empty list', async () => {
    const res = await unsubscribe(app(), 'team-alpha', { subscriptions: [] })
    expect(res.status).toBe(422)
    expect(res.body.errors.general.messages).toEqual(['At least one subscription is required'])
  })
})
