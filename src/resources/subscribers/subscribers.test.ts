import { describe, expect, test } from 'vitest'
import { createMock } from '../../mock.js'
import {
  INTERNAL_ERROR_MESSAGE,
  ISO_DATE,
  OBJECT_ID,
  request,
  withoutErrorId,
  withoutTimestamp,
} from '../../../test/helpers.js'

// /v2/subscribers as upstream 3.19.0 answers it (novu-trigger-facts.md §E.30).

const app = () => createMock({ seed: 'subscribers' }).app
const create = (target: ReturnType<typeof app>, body: unknown, query = '') =>
  request(target, 'POST', `/v2/subscribers${query}`, { body })

describe('POST /v2/subscribers', () => {
  test('creates a subscriber: 201, wrapped, with the fields of upstream mapper in its order', async () => {
    const res = await create(app(), {
      subscriberId: 'ada',
      firstName: 'Ada',
      email: 'ada@example.com',
      locale: 'en_GB',
      timezone: 'Europe/London',
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      data: {
        _id: expect.stringMatching(OBJECT_ID),
        firstName: 'Ada',
        email: 'ada@example.com',
        subscriberId: 'ada',
        createdAt: expect.stringMatching(ISO_DATE),
        updatedAt: expect.stringMatching(ISO_DATE),
        _environmentId: expect.stringMatching(OBJECT_ID),
        _organizationId: expect.stringMatching(OBJECT_ID),
        deleted: false,
        data: {},
        lastOnlineAt: null,
        isOnline: false,
        channels: [],
        locale: 'en_GB',
        timezone: 'Europe/London',
      },
    })
    expect(Object.keys(res.body.data).indexOf('subscriberId')).toBe(3)
  })

  test('trims the subscriberId', async () => {
    const target = app()
    const res = await create(target, { subscriberId: '  ada  ' })
    expect(res.body.data.subscriberId).toBe('ada')
    expect((await request(target, 'GET', '/v2/subscribers/ada')).status).toBe(200)
  })

  test('stores null as a value', async () => {
    const res = await create(app(), { subscriberId: 'ada', email: null, firstName: null })
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({ email: null, firstName: null })
  })

  test('updates an existing subscriber with 201 and answers it as stored now', async () => {
    const target = app()
    await create(target, { subscriberId: 'ada', firstName: 'Ada', data: { plan: 'pro' } })
    const again = await create(target, { subscriberId: 'ada', lastName: 'Lovelace' })
    expect(again.status).toBe(201)
    // The controller sends `data: body.data || {}`: an upsert without data empties it.
    expect(again.body.data).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', data: {} })
  })

  test('answers 409 with failIfExists=true for an existing subscriber, and changes nothing', async () => {
    const target = app()
    const res = await create(
      target,
      { subscriberId: 'user-1042', firstName: 'X' },
      '?failIfExists=true'
    )
    expect(res.status).toBe(409)
    expect(withoutTimestamp(res.body)).toEqual({
      error: 'Conflict',
      statusCode: 409,
      path: '/v2/subscribers?failIfExists=true',
      message: 'Subscriber with id "user-1042" already exists',
      ctx: { error: 'Conflict', statusCode: 409 },
    })
    expect((await request(target, 'GET', '/v2/subscribers/user-1042')).body.data.firstName).toBe(
      'Ada'
    )
  })

  test.each([
    {
      body: {},
      messages: [
        'subscriberId should not be null or undefined',
        'SubscriberId is required',
        'subscriberId must be a string',
      ],
    },
    { body: { subscriberId: '   ' }, messages: ['SubscriberId is required'] },
    {
      body: { subscriberId: 1, email: 'x', firstName: 2, data: [] },
      messages: [
        'subscriberId must be a string',
        'firstName must be a string',
        'email must be an email',
        'data must be an object',
      ],
    },
    {
      body: { subscriberId: 'a', email: '', locale: '', timezone: '' },
      messages: [
        'email must be an email',
        'locale must be locale',
        'timezone must be a valid IANA time-zone',
      ],
    },
    {
      body: { subscriberId: 'a', timezone: 'Mars/Olympus' },
      messages: ['timezone must be a valid IANA time-zone'],
    },
  ])('answers the pipe 422 for $body, and creates nothing', async ({ body, messages }) => {
    const target = app()
    const before = (await request(target, 'GET', '/v2/subscribers?limit=100')).body.totalCount
    const res = await create(target, body)
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual({ general: { messages, value: 'No Value Recorded' } })
    expect((await request(target, 'GET', '/v2/subscribers?limit=100')).body.totalCount).toBe(before)
  })

  test.each(['en', 'en-US', 'en_US', 'zz_ZZ', 'zh-Hant-TW'])(
    'accepts the locale %s',
    async (locale) => {
      const res = await create(app(), { subscriberId: 'a', locale })
      expect(res.status).toBe(201)
    }
  )

  test('answers 500 for data nested deeper than MongoDB stores', async () => {
    const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000)
    const res = await create(app(), `{"subscriberId":"deep","data":${deep}}`)
    expect(res.status).toBe(500)
    expect(withoutErrorId(res.body)).toMatchObject({ message: INTERNAL_ERROR_MESSAGE })
  })

  test('keeps odd unicode as sent', async () => {
    const target = app()
    const res = await create(target, { subscriberId: 'zoë-😀', firstName: 'Zoë 😀' })
    expect(res.status).toBe(201)
    const read = await request(target, 'GET', `/v2/subscribers/${encodeURIComponent('zoë-😀')}`)
    expect(read.body.data.firstName).toBe('Zoë 😀')
  })
})

describe('GET, PATCH and DELETE /v2/subscribers/{subscriberId}', () => {
  test('GET answers a subscriber a seeded message named, with its names', async () => {
    const res = await request(app(), 'GET', '/v2/subscribers/user-1042')
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      subscriberId: 'user-1042',
      firstName: 'Ada',
      lastName: 'Lovelace',
      deleted: false,
    })
  })

  test('GET answers a subscriber only a seeded topic named', async () => {
    const target = app()
    const members = await request(target, 'GET', '/v1/topics?page=1&pageSize=10')
    const member = members.body.data.flatMap((t: { subscribers: string[] }) => t.subscribers)[0]
    expect((await request(target, 'GET', `/v2/subscribers/${member}`)).status).toBe(200)
  })

  test('GET answers 404 in the v2 wording', async () => {
    const res = await request(app(), 'GET', '/v2/subscribers/ghost')
    expect(res.status).toBe(404)
    expect(res.body.message).toBe('Subscriber: ghost was not found')
  })

  test('PATCH sets the fields sent, clears one sent as null, and answers the previous updatedAt', async () => {
    const target = app()
    const before = await request(target, 'GET', '/v2/subscribers/user-1042')
    const res = await request(target, 'PATCH', '/v2/subscribers/user-1042', {
      body: { firstName: 'Augusta', lastName: null, email: 'ada@example.com' },
    })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      firstName: 'Augusta',
      lastName: null,
      email: 'ada@example.com',
      updatedAt: before.body.data.updatedAt,
    })
    const after = await request(target, 'GET', '/v2/subscribers/user-1042')
    expect(after.body.data.firstName).toBe('Augusta')
    expect(after.body.data.updatedAt).not.toBe(before.body.data.updatedAt)
  })

  test('PATCH shows in the messages that name the subscriber', async () => {
    const target = app()
    await request(target, 'PATCH', '/v2/subscribers/user-1042', { body: { firstName: 'Augusta' } })
    const messages = await request(target, 'GET', '/v1/messages?subscriberId=user-1042')
    expect(messages.body.data[0].subscriber.firstName).toBe('Augusta')
  })

  test('PATCH answers 404 in its own wording, and 422 before it for a bad field', async () => {
    const target = app()
    const missing = await request(target, 'PATCH', '/v2/subscribers/ghost', { body: {} })
    expect(missing.status).toBe(404)
    expect(missing.body.message).toBe('Subscriber ghost was not found')
    const bad = await request(target, 'PATCH', '/v2/subscribers/ghost', { body: { email: 'no' } })
    expect(bad.status).toBe(422)
  })

  test('DELETE answers 200 and removes the subscriber, its subscriptions and its messages', async () => {
    const target = app()
    const res = await request(target, 'DELETE', '/v2/subscribers/user-1042')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ data: { acknowledged: true, status: 'deleted' } })
    expect((await request(target, 'GET', '/v2/subscribers/user-1042')).status).toBe(404)
    const topic = await request(target, 'GET', '/v1/topics/team-alpha')
    expect(topic.body.data.subscribers).toEqual(['user-2210'])
    const messages = await request(target, 'GET', '/v1/messages?transactionId=tx-order-1001')
    expect(messages.body.totalCount).toBe(0)
    const list = await request(target, 'GET', '/v1/messages?subscriberId=user-1042')
    expect(list.status).toBe(404)
    expect(list.body.message).toBe("Subscriber 'user-1042' was not found")
  })

  test('DELETE answers 404 with externalSubscriberId flat and in ctx', async () => {
    const res = await request(app(), 'DELETE', '/v2/subscribers/ghost')
    expect(res.status).toBe(404)
    expect(withoutTimestamp(res.body)).toEqual({
      externalSubscriberId: 'ghost',
      statusCode: 404,
      path: '/v2/subscribers/ghost',
      message: 'Subscriber was not found',
      ctx: { externalSubscriberId: 'ghost' },
    })
  })

  test('a deleted subscriberId can be created again', async () => {
    const target = app()
    await request(target, 'DELETE', '/v2/subscribers/user-1042')
    const res = await create(target, { subscriberId: 'user-1042' })
    expect(res.status).toBe(201)
    expect(res.body.data).not.toHaveProperty('firstName')
  })

  test('a created subscriber can be added to a topic and listed in messages filters', async () => {
    const target = app()
    await create(target, { subscriberId: 'new-one' })
    const added = await request(target, 'POST', '/v1/topics/beta-testers/subscribers', {
      body: { subscribers: ['new-one'] },
    })
    expect(added.body).toEqual({ data: { succeeded: ['new-one'] } })
    const messages = await request(target, 'GET', '/v1/messages?subscriberId=new-one')
    expect(messages.status).toBe(200)
    expect(messages.body.totalCount).toBe(0)
  })
})

describe('GET /v2/subscribers', () => {
  test('lists subscribers newest first in the five-key envelope', async () => {
    const res = await request(app(), 'GET', '/v2/subscribers?limit=3')
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual([
      'data',
      'next',
      'previous',
      'totalCount',
      'totalCountCapped',
    ])
    expect(res.body.data).toHaveLength(3)
    expect(res.body.next).toBe(res.body.data[2]._id)
  })

  test('filters by email, name, phone substrings and exact subscriberId', async () => {
    const target = app()
    await create(target, {
      subscriberId: 'g',
      firstName: 'Zelda',
      lastName: 'Quux',
      email: 'Zelda@Navy.mil',
      phone: '+1555',
    })
    const byEmail = await request(target, 'GET', '/v2/subscribers?email=navy')
    expect(byEmail.body.data.map((s: { subscriberId: string }) => s.subscriberId)).toEqual(['g'])
    const byName = await request(target, 'GET', '/v2/subscribers?name=A%20qU')
    expect(byName.body.data.map((s: { subscriberId: string }) => s.subscriberId)).toEqual(['g'])
    const byPhone = await request(target, 'GET', '/v2/subscribers?phone=555')
    expect(byPhone.body.totalCount).toBe(1)
    const byId = await request(target, 'GET', '/v2/subscribers?subscriberId=user-2210')
    expect(byId.body.totalCount).toBe(1)
  })

  test.each(['?limit=abc', '?limit=0', '?limit='])('reads %s as ten', async (query) => {
    const res = await request(app(), 'GET', `/v2/subscribers${query}`)
    expect(res.status).toBe(200)
    expect(res.body.data).toHaveLength(10)
  })

  test('answers the command 422 for a limit over 100', async () => {
    const res = await request(app(), 'GET', '/v2/subscribers?limit=101')
    expect(res.status).toBe(422)
    expect(res.body.message).toBe(
      'Validation failed for ListSubscribersCommand: limit: limit must not be greater than 100'
    )
  })

  test('answers an empty page for a cursor that is not an id', async () => {
    const res = await request(app(), 'GET', '/v2/subscribers?after=nope')
    expect(res.body).toEqual({
      data: [],
      next: null,
      previous: null,
      totalCount: 0,
      totalCountCapped: false,
    })
  })

  test('sorts ascending for any direction but DESC', async () => {
    const res = await request(app(), 'GET', '/v2/subscribers?orderDirection=desc&limit=100')
    const ids = res.body.data.map((s: { _id: string }) => s._id)
    expect(ids).toEqual([...ids].sort())
  })

  test('2024-10: answers 404 on every /v2/subscribers path', async () => {
    const old = createMock({ seed: 'subscribers', apiGeneration: '2024-10' }).app
    for (const [method, path] of [
      ['GET', '/v2/subscribers'],
      ['POST', '/v2/subscribers'],
      ['GET', '/v2/subscribers/user-1042'],
      ['PATCH', '/v2/subscribers/user-1042'],
      ['DELETE', '/v2/subscribers/user-1042'],
    ] as const) {
      const res = await request(old, method, path)
      expect(res.status).toBe(404)
      expect(res.body.message).toBe(`Cannot ${method} ${path}`)
    }
  })
})
