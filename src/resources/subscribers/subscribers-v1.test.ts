import { describe, expect, test } from 'vitest'
import { request, withoutErrorId, withoutTimestamp } from '../../../test/helpers.js'
import {
  createWorkflow,
  inApp,
  messagesOf,
  trigger,
  triggerMock,
} from '../../../test/trigger-helpers.js'

// The v1 subscriber routes @novu/node calls, on the store the v2 routes use.

const create = (app: ReturnType<typeof triggerMock>['app'], body: unknown) =>
  request(app, 'POST', '/v1/subscribers', { body })

describe('POST /v1/subscribers', () => {
  test('creates a subscriber and answers 201 with it in data', async () => {
    const { app } = triggerMock('2024-10')
    const res = await create(app, { subscriberId: 'u1', firstName: 'Ada', email: 'ada@x.io' })
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({
      subscriberId: 'u1',
      firstName: 'Ada',
      email: 'ada@x.io',
      channels: [],
      deleted: false,
      __v: 0,
      id: res.body.data._id,
    })
    expect(res.body.data.isOnline).toBeUndefined()
  })

  test('a second POST updates it and replaces data', async () => {
    const { app } = triggerMock('2026-08')
    await create(app, { subscriberId: 'u1', data: { test1: 1, test2: 2 } })
    const res = await create(app, { subscriberId: 'u1', data: { test1: 1, test3: 3 } })
    expect(res.status).toBe(201)
    expect(res.body.data.data).toEqual({ test1: 1, test3: 3 })
  })

  test('the subscriberId is trimmed', async () => {
    const { app } = triggerMock('2024-10')
    const res = await create(app, { subscriberId: '  a ' })
    expect(res.body.data.subscriberId).toBe('a')
  })

  test.each([
    [
      '2024-10',
      {},
      ['subscriberId should not be null or undefined', 'subscriberId must be a string'],
    ],
    [
      '2024-10',
      { subscriberId: 1, email: 'x', firstName: 2, channels: 'a' },
      [
        'subscriberId must be a string',
        'email must be an email',
        'firstName must be a string',
        'channels must be an array',
      ],
    ],
    ['2024-10', { subscriberId: '' }, ['subscriberId should not be empty']],
    [
      '2026-08',
      {},
      [
        'subscriberId should not be null or undefined',
        'SubscriberId is required',
        'subscriberId must be a string',
      ],
    ],
    ['2026-08', { subscriberId: '' }, ['SubscriberId is required']],
  ] as const)('%s refuses %j', async (generation, body, messages) => {
    const { app } = triggerMock(generation)
    const res = await create(app, body)
    if (generation === '2024-10') {
      expect(res.status).toBe(400)
      expect(res.body.message).toEqual(messages)
    } else {
      expect(res.status).toBe(422)
      expect(res.body.errors.general.messages).toEqual(messages)
    }
  })
})

describe('GET /v1/subscribers', () => {
  test('pages the subscribers in creation order', async () => {
    const { app } = triggerMock('2026-08')
    for (const id of ['a', 'b', 'c']) await create(app, { subscriberId: id })
    const res = await request(app, 'GET', '/v1/subscribers?page=1&limit=2')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ page: 1, hasMore: false, pageSize: 2 })
    expect(res.body.data.map((s: { subscriberId: string }) => s.subscriberId)).toEqual(['c'])
  })

  test('refuses a limit over 100', async () => {
    const { app } = triggerMock('2024-10')
    const res = await request(app, 'GET', '/v1/subscribers?limit=101')
    expect(res.status).toBe(400)
    expect(res.body.message).toEqual(['limit must not be greater than 100'])
  })
})

describe('GET /v1/subscribers/{subscriberId}', () => {
  test.each([
    ['2024-10', 'Subscriber not found for id nobody'],
    ['2026-08', "Subscriber 'nobody' was not found"],
  ] as const)('%s answers 404 for an unknown subscriber', async (generation, message) => {
    const { app } = triggerMock(generation)
    const res = await request(app, 'GET', '/v1/subscribers/nobody')
    expect(res.status).toBe(404)
    expect(res.body.message).toBe(message)
  })

  test('sees a subscriber created through /v2/subscribers', async () => {
    const { app } = triggerMock('2026-08')
    await request(app, 'POST', '/v2/subscribers', {
      body: { subscriberId: 'v2-made', lastName: 'L' },
    })
    const res = await request(app, 'GET', '/v1/subscribers/v2-made')
    expect(res.body.data).toMatchObject({ subscriberId: 'v2-made', lastName: 'L' })
  })
})

describe('PUT /v1/subscribers/{subscriberId}', () => {
  test('updates the fields sent and unsets email with null', async () => {
    const { app } = triggerMock('2024-10')
    await create(app, { subscriberId: 'u1', email: 'a@x.io', firstName: 'A' })
    const res = await request(app, 'PUT', '/v1/subscribers/u1', {
      body: { email: null, lastName: 'B', subscriberId: 'ignored' },
    })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      subscriberId: 'u1',
      email: null,
      firstName: 'A',
      lastName: 'B',
    })
  })

  test('answers 400 for an unknown subscriber', async () => {
    const { app } = triggerMock('2026-08')
    const res = await request(app, 'PUT', '/v1/subscribers/nobody', { body: { firstName: 'x' } })
    expect(res.status).toBe(400)
    expect(res.body.message).toBe('SubscriberId: nobody not found')
  })

  test('refuses a bad email', async () => {
    const { app } = triggerMock('2024-10')
    await create(app, { subscriberId: 'u1' })
    const res = await request(app, 'PUT', '/v1/subscribers/u1', {
      body: { email: 'x', firstName: 1 },
    })
    expect(res.body.message).toEqual(['email must be an email', 'firstName must be a string'])
  })
})

describe('DELETE /v1/subscribers/{subscriberId}', () => {
  test('deletes the subscriber and its topic memberships, keeps its messages', async () => {
    const { app } = triggerMock('2026-08')
    const wf = await createWorkflow(app, 'Ping', [inApp('x')])
    await trigger(app, { name: wf.identifier, to: 'u1', transactionId: 'tx' })
    await request(app, 'POST', '/v1/topics', { body: { key: 'team', name: 'Team' } })
    await request(app, 'POST', '/v1/topics/team/subscribers', { body: { subscribers: ['u1'] } })
    const res = await request(app, 'DELETE', '/v1/subscribers/u1')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ data: { acknowledged: true, status: 'deleted' } })
    expect((await request(app, 'GET', '/v1/subscribers/u1')).status).toBe(404)
    expect((await request(app, 'GET', '/v1/topics/team')).body.data.subscribers).toEqual([])
    expect(await messagesOf(app, 'tx')).toHaveLength(1)
  })

  test('2026-08 answers 404 with the externalSubscriberId for an unknown one', async () => {
    const { app } = triggerMock('2026-08')
    const res = await request(app, 'DELETE', '/v1/subscribers/nobody')
    expect(res.status).toBe(404)
    expect(withoutTimestamp(res.body)).toEqual({
      externalSubscriberId: 'nobody',
      statusCode: 404,
      path: '/v1/subscribers/nobody',
      message: 'Subscriber was not found',
      ctx: { externalSubscriberId: 'nobody' },
    })
  })

  test('2024-10 deletes softly: creating the id again fails with 500, a trigger skips it', async () => {
    const { app } = triggerMock('2024-10')
    const wf = await createWorkflow(app, 'Ping', [inApp('x')])
    await create(app, { subscriberId: 'u1' })
    await request(app, 'DELETE', '/v1/subscribers/u1')
    const again = await create(app, { subscriberId: 'u1' })
    expect(again.status).toBe(500)
    expect(withoutErrorId(again.body)).toMatchObject({ statusCode: 500 })
    await trigger(app, { name: wf.identifier, to: 'u1', transactionId: 'tx' })
    expect(await messagesOf(app, 'tx')).toEqual([])
  })

  test('2026-08 deletes for good: the id can be created again', async () => {
    const { app } = triggerMock('2026-08')
    await create(app, { subscriberId: 'u1' })
    await request(app, 'DELETE', '/v1/subscribers/u1')
    expect((await create(app, { subscriberId: 'u1' })).status).toBe(201)
  })
})
