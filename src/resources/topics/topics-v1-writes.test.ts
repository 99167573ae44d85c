import { describe, expect, test } from 'vitest'
import { createMock } from '../../mock.js'
import {
  INTERNAL_ERROR_MESSAGE,
  OBJECT_ID,
  request,
  withoutErrorId,
  withoutTimestamp,
} from '../../../test/helpers.js'
import type { GenerationName } from '../../generations/generation.js'

// The v1 topic writes (hidden from upstream's OpenAPI since 2025, still served), in both
// generations: novu-trigger-facts.md §4.2 (2024-10) and §E.31 (2026-08).

const mockOf = (apiGeneration: GenerationName) => createMock({ seed: 'topics-v1', apiGeneration })
const today = () => mockOf('2026-08')
const old = () => mockOf('2024-10')
const envId = async (mock: ReturnType<typeof mockOf>) =>
  (await request(mock.app, 'GET', '/v1/topics?key=team-alpha')).body.data[0]
    ._environmentId as string

describe('POST /v1/topics', () => {
  test.each(['2026-08', '2024-10'] as const)('%s: answers 201 with only _id and key', async (g) => {
    const { app } = mockOf(g)
    const res = await request(app, 'POST', '/v1/topics', { body: { key: 'news', name: 'News' } })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ data: { _id: expect.stringMatching(OBJECT_ID), key: 'news' } })
    const listed = await request(app, 'GET', '/v1/topics?key=news')
    expect(listed.body.data[0]).toMatchObject({ key: 'news', name: 'News', subscribers: [] })
  })

  test('2026-08: the topic it creates is read by /v2/topics', async () => {
    const { app } = today()
    const created = await request(app, 'POST', '/v1/topics', {
      body: { key: 'news', name: 'News' },
    })
    const v2 = await request(app, 'GET', '/v2/topics/news')
    expect(v2.body.data).toMatchObject({ _id: created.body.data._id, key: 'news', name: 'News' })
  })

  test('2026-08: trims the key and the name', async () => {
    const { app } = today()
    const res = await request(app, 'POST', '/v1/topics', { body: { key: ' news ', name: ' N ' } })
    expect(res.body.data.key).toBe('news')
    expect((await request(app, 'GET', '/v1/topics/news')).body.data.name).toBe('N')
  })

  test('2024-10: keeps the key as sent', async () => {
    const { app } = old()
    const res = await request(app, 'POST', '/v1/topics', { body: { key: ' news ', name: 'N' } })
    expect(res.body.data.key).toBe(' news ')
  })

  test('answers 409 naming the environment and organization for a taken key', async () => {
    const mock = today()
    const res = await request(mock.app, 'POST', '/v1/topics', {
      body: { key: 'team-alpha', name: 'x' },
    })
    expect(res.status).toBe(409)
    const listed = (await request(mock.app, 'GET', '/v1/topics?key=team-alpha')).body.data[0]
    expect(res.body).toMatchObject({
      error: 'Conflict',
      message: `Topic exists with key team-alpha in the environment ${listed._environmentId} of the organization ${listed._organizationId}`,
      ctx: { error: 'Conflict', statusCode: 409 },
    })
  })

  test('answers 500 for an empty key, which Mongoose refuses as missing', async () => {
    const res = await request(today().app, 'POST', '/v1/topics', { body: { key: '', name: 'x' } })
    expect(res.status).toBe(500)
    expect(withoutErrorId(res.body)).toMatchObject({ message: INTERNAL_ERROR_MESSAGE })
  })

  const messages = [
    'key should not be null or undefined',
    'key must be a string',
    'name should not be null or undefined',
    'name must be a string',
  ]

  test('2026-08: answers the pipe 422 for an empty body', async () => {
    const res = await request(today().app, 'POST', '/v1/topics', { body: {} })
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual({ general: { messages, value: 'No Value Recorded' } })
  })

  test('2024-10: answers 400 with the message array for an empty body', async () => {
    const res = await request(old().app, 'POST', '/v1/topics', { body: {} })
    expect(res.status).toBe(400)
    expect(withoutTimestamp(res.body)).toEqual({
      statusCode: 400,
      path: '/v1/topics',
      message: messages,
      error: 'Bad Request',
    })
  })
})

describe('GET, PATCH and DELETE /v1/topics/{topicKey}', () => {
  test('2026-08: GET answers the topic with its subscribers and dates', async () => {
    const res = await request(today().app, 'GET', '/v1/topics/team-alpha')
    expect(res.status).toBe(200)
    expect(Object.keys(res.body.data)).toEqual([
      '_id',
      '_environmentId',
      '_organizationId',
      'key',
      'name',
      'subscribers',
      'createdAt',
      'updatedAt',
    ])
    expect(res.body.data.subscribers).toEqual(['user-1042', 'user-2210'])
  })

  test('2024-10: GET answers the topic without dates', async () => {
    const res = await request(old().app, 'GET', '/v1/topics/team-alpha')
    expect(res.body.data).not.toHaveProperty('createdAt')
    expect(res.body.data.subscribers).toEqual(['user-1042', 'user-2210'])
  })

  test.each(['2026-08', '2024-10'] as const)(
    '%s: GET answers 404 naming the environment',
    async (g) => {
      const mock = mockOf(g)
      const res = await request(mock.app, 'GET', '/v1/topics/nope')
      expect(res.status).toBe(404)
      expect(res.body.message).toBe(
        `Topic not found for id nope in the environment ${await envId(mock)}`
      )
    }
  )

  test('PATCH renames, and the list reads the new name at once', async () => {
    const { app } = today()
    await request(app, 'GET', '/v1/topics?key=team-alpha')
    const res = await request(app, 'PATCH', '/v1/topics/team-alpha', { body: { name: 'Team A' } })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ key: 'team-alpha', name: 'Team A' })
    const listed = await request(app, 'GET', '/v1/topics?key=team-alpha')
    expect(listed.body.data[0].name).toBe('Team A')
  })

  test('2026-08: PATCH refuses an empty name with 400 Name is required', async () => {
    const res = await request(today().app, 'PATCH', '/v1/topics/team-alpha', { body: { name: '' } })
    expect(res.status).toBe(400)
    expect(res.body.message).toBe('Name is required')
  })

  test('2024-10: PATCH renames to an empty name', async () => {
    const res = await request(old().app, 'PATCH', '/v1/topics/team-alpha', { body: { name: '' } })
    expect(res.status).toBe(200)
    expect(res.body.data.name).toBe('')
  })

  test('PATCH checks the body before it looks the topic up', async () => {
    const res = await request(today().app, 'PATCH', '/v1/topics/nope', { body: {} })
    expect(res.status).toBe(422)
  })

  test('DELETE answers 204 for a topic without subscribers, then 404', async () => {
    const { app } = today()
    const res = await request(app, 'DELETE', '/v1/topics/beta-testers')
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect((await request(app, 'GET', '/v2/topics/beta-testers')).status).toBe(404)
    expect((await request(app, 'DELETE', '/v1/topics/beta-testers')).status).toBe(404)
  })

  test('DELETE answers 409 while the topic has subscribers, and keeps it', async () => {
    const mock = today()
    const res = await request(mock.app, 'DELETE', '/v1/topics/team-alpha')
    expect(res.status).toBe(409)
    expect(res.body.message).toBe(
      `Topic with key team-alpha in the environment ${await envId(mock)} can't be deleted as it still has subscribers assigned`
    )
  })
})

describe('POST /v1/topics/{topicKey}/subscribers and /removal', () => {
  test.each(['2026-08', '2024-10'] as const)(
    '%s: adds known subscribers with 200 and lists the unknown ones under failed',
    async (g) => {
      const { app } = mockOf(g)
      const res = await request(app, 'POST', '/v1/topics/beta-testers/subscribers', {
        body: { subscribers: ['user-2210', 'ghost', 'user-1042'] },
      })
      expect(res.status).toBe(200)
      // Found subscribers come in the order they are stored, not the order sent.
      expect(res.body).toEqual({
        data: { succeeded: ['user-1042', 'user-2210'], failed: { notFound: ['ghost'] } },
      })
      const topic = await request(app, 'GET', '/v1/topics/beta-testers')
      expect(topic.body.data.subscribers).toEqual(['user-1042', 'user-2210'])
    }
  )

  test('answers without failed when every subscriber exists, and adds no duplicate', async () => {
    const { app } = today()
    const res = await request(app, 'POST', '/v1/topics/team-alpha/subscribers', {
      body: { subscribers: ['user-1042'] },
    })
    expect(res.body).toEqual({ data: { succeeded: ['user-1042'] } })
    const topic = await request(app, 'GET', '/v1/topics/team-alpha')
    expect(topic.body.data.subscribers).toEqual(['user-1042', 'user-2210'])
  })

  test('creates an unknown topic named Autogenerated-<key>', async () => {
    const { app } = today()
    await request(app, 'POST', '/v1/topics/fresh/subscribers', { body: { subscribers: [] } })
    const topic = await request(app, 'GET', '/v1/topics/fresh')
    expect(topic.body.data).toMatchObject({ name: 'Autogenerated-fresh', subscribers: [] })
  })

  test('2026-08: answers the pipe 422 without a list', async () => {
    const res = await request(today().app, 'POST', '/v1/topics/x/subscribers', { body: {} })
    expect(res.status).toBe(422)
    expect(res.body.errors.general.messages).toEqual([
      'subscribers should not be null or undefined',
      'subscribers must be an array',
    ])
  })

  test('answers 500 for a member MongoDB cannot cast to a string', async () => {
    const res = await request(today().app, 'POST', '/v1/topics/team-alpha/subscribers', {
      body: { subscribers: [{ id: 1 }] },
    })
    expect(res.status).toBe(500)
  })

  test.each(['2026-08', '2024-10'] as const)('%s: removal answers 204 and removes', async (g) => {
    const { app } = mockOf(g)
    const res = await request(app, 'POST', '/v1/topics/team-alpha/subscribers/removal', {
      body: { subscribers: ['user-1042', 'ghost'] },
    })
    expect(res.status).toBe(204)
    const topic = await request(app, 'GET', '/v1/topics/team-alpha')
    expect(topic.body.data.subscribers).toEqual(['user-2210'])
  })

  test('removal answers 204 for an unknown topic too', async () => {
    const res = await request(today().app, 'POST', '/v1/topics/nope/subscribers/removal', {
      body: { subscribers: ['user-1042'] },
    })
    expect(res.status).toBe(204)
  })
})

describe('GET /v1/topics/{topicKey}/subscribers/{subscriberId}', () => {
  test('2026-08: answers the six fields of the membership', async () => {
    const res = await request(today().app, 'GET', '/v1/topics/team-alpha/subscribers/user-1042')
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({
      externalSubscriberId: 'user-1042',
      topicKey: 'team-alpha',
      _topicId: '66fbb0a0c1f2e3d4a5b62002',
      _organizationId: expect.stringMatching(OBJECT_ID),
      _environmentId: expect.stringMatching(OBJECT_ID),
      _subscriberId: expect.stringMatching(OBJECT_ID),
    })
  })

  test('2024-10: answers the whole membership document', async () => {
    const res = await request(old().app, 'GET', '/v1/topics/team-alpha/subscribers/user-1042')
    expect(res.body.data).toMatchObject({
      _id: expect.stringMatching(OBJECT_ID),
      topicKey: 'team-alpha',
      externalSubscriberId: 'user-1042',
      __v: 0,
    })
  })

  test('answers 404 for a subscriber outside the topic', async () => {
    const mock = today()
    const res = await request(mock.app, 'GET', '/v1/topics/beta-testers/subscribers/user-1042')
    expect(res.status).toBe(404)
    expect(res.body.message).toBe(
      `Subscriber user-1042 not found for topic beta-testers in the environment ${await envId(mock)}`
    )
  })
})
