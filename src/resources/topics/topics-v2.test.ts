import { describe, expect, test } from 'vitest'
import { createMock } from '../../mock.js'
import { cursorDocumentsRead } from './cursor.js'
import {
  counted,
  INTERNAL_ERROR_MESSAGE,
  ISO_DATE,
  OBJECT_ID,
  request,
  withoutErrorId,
  withoutTimestamp,
} from '../../../test/helpers.js'

// GET, POST, PATCH, DELETE /v2/topics as upstream 3.19.0 answers them (novu-v2-facts.md §2-6).

const app = () => createMock({ seed: 'topics-v2' }).app

/** Five topics a..e whose ids end f0..f4: the example of novu-v2-facts.md §2.7. */
const ID = (n: number) => `68b5a1c2d3e4f5a6b7c8d9f${n}`
async function fiveTopics() {
  const mock = createMock({ seed: 'topics-v2' })
  await mock.admin.loadScenario({
    name: 'five-topics',
    data: {
      topics: ['a', 'b', 'c', 'd', 'e'].map((letter, n) => ({
        _id: ID(n),
        key: `topic-${letter}`,
        name: `Topic ${letter.toUpperCase()}`,
      })),
    },
  })
  return mock.app
}
const keys = (body: { data: { key: string }[] }) => body.data.map((t) => t.key)

describe('GET /v2/topics', () => {
  test('answers the unwrapped five-key envelope, newest first, ten by default', async () => {
    const res = await request(app(), 'GET', '/v2/topics')
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual([
      'data',
      'next',
      'previous',
      'totalCount',
      'totalCountCapped',
    ])
    expect(res.body.data).toHaveLength(10)
    expect(res.body).toMatchObject({ previous: null, totalCount: 23, totalCountCapped: false })
    expect(res.body.next).toBe(res.body.data[9]._id)
    const ids = res.body.data.map((t: { _id: string }) => t._id)
    expect([...ids].sort().reverse()).toEqual(ids)
  })

  test('projects each topic to _id, name, key, createdAt and updatedAt, in that order', async () => {
    const res = await request(app(), 'GET', '/v2/topics?key=team-alpha')
    expect(res.body.data).toEqual([
      {
        _id: '66fbb0a0c1f2e3d4a5b62002',
        name: 'Team Alpha',
        key: 'team-alpha',
        createdAt: expect.stringMatching(ISO_DATE),
        updatedAt: expect.stringMatching(ISO_DATE),
      },
    ])
    expect(Object.keys(res.body.data[0])).toEqual(['_id', 'name', 'key', 'createdAt', 'updatedAt'])
  })

  test.each([
    { query: '?limit=3', page: ['topic-e', 'topic-d', 'topic-c'], next: 2, previous: null },
    { query: `?limit=3&after=${ID(2)}`, page: ['topic-b', 'topic-a'], next: null, previous: 1 },
    {
      query: `?limit=3&before=${ID(1)}`,
      page: ['topic-e', 'topic-d', 'topic-c'],
      next: 2,
      previous: null,
    },
    { query: `?limit=2&after=${ID(3)}`, page: ['topic-c', 'topic-b'], next: 1, previous: 2 },
    {
      query: `?limit=2&after=${ID(3)}&includeCursor=true`,
      page: ['topic-d', 'topic-c'],
      next: 2,
      previous: 3,
    },
    { query: '?limit=2&orderDirection=ASC', page: ['topic-a', 'topic-b'], next: 1, previous: null },
  ])('pages $query as upstream does', async ({ query, page, next, previous }) => {
    const res = await request(await fiveTopics(), 'GET', `/v2/topics${query}`)
    expect(res.status).toBe(200)
    expect(keys(res.body)).toEqual(page)
    expect(res.body.next).toBe(next === null ? null : ID(next))
    expect(res.body.previous).toBe(previous === null ? null : ID(previous))
    expect(res.body.totalCount).toBe(5)
  })

  test('walks every topic once by following next', async () => {
    const target = app()
    const seen: string[] = []
    let after = ''
    for (let round = 0; round < 10; round++) {
      const res = await request(
        target,
        'GET',
        `/v2/topics?limit=7${after ? `&after=${after}` : ''}`
      )
      seen.push(...keys(res.body))
      if (!res.body.next) break
      after = res.body.next
    }
    expect(seen).toHaveLength(23)
    expect(new Set(seen).size).toBe(23)
  })

  test('filters key and name as case-insensitive substrings, and counts the matches', async () => {
    const target = await fiveTopics()
    const byKey = await request(target, 'GET', '/v2/topics?key=TOPIC-C')
    expect(keys(byKey.body)).toEqual(['topic-c'])
    expect(byKey.body.totalCount).toBe(1)
    const byName = await request(target, 'GET', '/v2/topics?name=topic&key=-c')
    expect(keys(byName.body)).toEqual(['topic-c'])
  })

  test('takes regular-expression characters in a filter literally', async () => {
    const res = await request(await fiveTopics(), 'GET', '/v2/topics?key=.*')
    expect(res.body).toEqual({
      data: [],
      next: null,
      previous: null,
      totalCount: 0,
      totalCountCapped: false,
    })
  })

  test('sorts on another field with orderBy', async () => {
    const res = await request(app(), 'GET', '/v2/topics?orderBy=key&orderDirection=ASC&limit=100')
    const listed = keys(res.body)
    expect(listed).toEqual([...listed].sort())
  })

  test('answers an empty page, counting nothing, for a cursor that is no topic of the environment', async () => {
    const res = await request(app(), 'GET', '/v2/topics?after=0123456789abcdef01234567')
    expect(res.body).toEqual({
      data: [],
      next: null,
      previous: null,
      totalCount: 0,
      totalCountCapped: false,
    })
  })

  test('answers 500 with an errorId for a cursor MongoDB cannot cast', async () => {
    const res = await request(app(), 'GET', '/v2/topics?after=nope')
    expect(res.status).toBe(500)
    expect(withoutErrorId(res.body)).toEqual({
      statusCode: 500,
      path: '/v2/topics?after=nope',
      message: INTERNAL_ERROR_MESSAGE,
    })
  })

  test('answers 400 when both cursors are given', async () => {
    const query = `?after=${ID(1)}&before=${ID(2)}`
    const res = await request(app(), 'GET', `/v2/topics${query}`)
    expect(res.status).toBe(400)
    expect(withoutTimestamp(res.body)).toEqual({
      error: 'Bad Request',
      statusCode: 400,
      path: `/v2/topics${query}`,
      message: 'Cannot specify both "before" and "after" cursors at the same time.',
      ctx: { error: 'Bad Request', statusCode: 400 },
    })
  })

  test.each(['?limit=101', '?limit=abc', '?limit=1&limit=2', '?limit=Infinity'])(
    'answers the pipe 422 for %s',
    async (query) => {
      const res = await request(app(), 'GET', `/v2/topics${query}`)
      expect(res.status).toBe(422)
      expect(withoutTimestamp(res.body)).toEqual({
        statusCode: 422,
        path: `/v2/topics${query}`,
        message: 'Validation Error',
        ctx: {},
        errors: {
          general: { messages: ['limit must not be greater than 100'], value: 'No Value Recorded' },
        },
      })
    }
  )

  test('answers the command 422 for a negative limit', async () => {
    const res = await request(app(), 'GET', '/v2/topics?limit=-5')
    expect(res.status).toBe(422)
    expect(withoutTimestamp(res.body)).toEqual({
      statusCode: 422,
      path: '/v2/topics?limit=-5',
      message: 'Validation failed for ListTopicsCommand: limit: limit must not be less than 1',
      ctx: {},
      errors: { limit: { messages: ['limit must not be less than 1'], value: -5 } },
    })
  })

  test.each(['?limit=0', '?limit='])('reads %s as the default of ten', async (query) => {
    const res = await request(app(), 'GET', `/v2/topics${query}`)
    expect(res.body.data).toHaveLength(10)
  })

  test('reports repeated text parameters before the limit, in the DTO order', async () => {
    const query = '?limit=101&after=a&after=b&key=a&key=b'
    const res = await request(app(), 'GET', `/v2/topics${query}`)
    expect(res.body.errors.general.messages).toEqual([
      'key must be a string',
      'after must be a string',
      'limit must not be greater than 100',
    ])
  })

  test('caps totalCount at 50,000 and says so', async () => {
    const mock = createMock({ seed: 'topics-v2' })
    await mock.admin.loadScenario({ name: 'many-topics', data: { generate: { topics: 50_001 } } })
    // The first request builds the environment; the pages after it read a page each, not all.
    await request(mock.app, 'GET', '/v2/topics?limit=1')
    const { result: first, work: firstRead } = await counted(cursorDocumentsRead, () =>
      request(mock.app, 'GET', '/v2/topics?limit=100')
    )
    const { result: second, work: secondRead } = await counted(cursorDocumentsRead, () =>
      request(mock.app, 'GET', `/v2/topics?limit=100&after=${first.body.next}`)
    )
    expect(first.body).toMatchObject({ totalCount: 50_000, totalCountCapped: true })
    expect(second.body.data).toHaveLength(100)
    expect([firstRead, secondRead]).toEqual([101, 101])
  }, 60_000)
})

describe('POST /v2/topics', () => {
  test('creates a topic: 201 with the topic wrapped in data', async () => {
    const target = app()
    const res = await request(target, 'POST', '/v2/topics', { body: { key: 'news', name: 'News' } })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      data: {
        _id: expect.stringMatching(OBJECT_ID),
        name: 'News',
        key: 'news',
        createdAt: expect.stringMatching(ISO_DATE),
        updatedAt: expect.stringMatching(ISO_DATE),
      },
    })
    const read = await request(target, 'GET', '/v2/topics/news')
    expect(read.body).toEqual(res.body)
  })

  test('creates a topic without a name key when none is sent', async () => {
    const res = await request(app(), 'POST', '/v2/topics', { body: { key: 'bare' } })
    expect(res.status).toBe(201)
    expect(res.body.data).not.toHaveProperty('name')
  })

  test('updates an existing key with 201 and answers the topic as it was before the update', async () => {
    const target = app()
    const created = await request(target, 'POST', '/v2/topics', {
      body: { key: 'news', name: 'News' },
    })
    const again = await request(target, 'POST', '/v2/topics', {
      body: { key: 'news', name: 'Renamed' },
    })
    expect(again.status).toBe(201)
    expect(again.body).toEqual(created.body)
    const read = await request(target, 'GET', '/v2/topics/news')
    expect(read.body.data.name).toBe('Renamed')
    expect(read.body.data._id).toBe(created.body.data._id)
  })

  test('answers 409 with failIfExists=true for a taken key, and changes nothing', async () => {
    const target = app()
    await request(target, 'POST', '/v2/topics', { body: { key: 'news', name: 'News' } })
    const res = await request(target, 'POST', '/v2/topics?failIfExists=true', {
      body: { key: 'news', name: 'Other' },
    })
    expect(res.status).toBe(409)
    expect(withoutTimestamp(res.body)).toEqual({
      error: 'Conflict',
      statusCode: 409,
      path: '/v2/topics?failIfExists=true',
      message: 'Topic with key "news" already exists',
      ctx: { error: 'Conflict', statusCode: 409 },
    })
    expect((await request(target, 'GET', '/v2/topics/news')).body.data.name).toBe('News')
  })

  test('reads any failIfExists but true as false', async () => {
    const target = app()
    await request(target, 'POST', '/v2/topics', { body: { key: 'news' } })
    const res = await request(target, 'POST', '/v2/topics?failIfExists=TRUE', {
      body: { key: 'news' },
    })
    expect(res.status).toBe(201)
  })

  test.each([
    {
      body: {},
      messages: [
        'key must be longer than or equal to 1 characters',
        'key should not be empty',
        'key must be a string',
      ],
    },
    {
      body: { key: '' },
      messages: ['key must be longer than or equal to 1 characters', 'key should not be empty'],
    },
    {
      body: { key: 'k'.repeat(101) },
      messages: ['key must be shorter than or equal to 100 characters'],
    },
    {
      body: { key: 'k', name: 'n'.repeat(101) },
      messages: ['name must be shorter than or equal to 100 characters'],
    },
    {
      body: { key: 7 },
      messages: [
        'key must be longer than or equal to 1 and shorter than or equal to 100 characters',
        'key must be a string',
      ],
    },
  ])('answers the pipe 422 for $body', async ({ body, messages }) => {
    const target = app()
    const res = await request(target, 'POST', '/v2/topics', { body })
    expect(res.status).toBe(422)
    expect(res.body).toMatchObject({
      message: 'Validation Error',
      ctx: {},
      errors: { general: { messages, value: 'No Value Recorded' } },
    })
    expect((await request(target, 'GET', '/v2/topics')).body.totalCount).toBe(23)
  })

  test.each(['my topic', 'ünïcödé', 'tab\tkey', '😀'])(
    'answers 400 for the new key %j, whose characters upstream refuses',
    async (key) => {
      const res = await request(app(), 'POST', '/v2/topics', { body: { key } })
      expect(res.status).toBe(400)
      expect(res.body.message).toBe(
        `Invalid topic key: "${key}". Topic keys must contain only alphanumeric characters (a-z, A-Z, 0-9), hyphens (-), underscores (_), colons (:), or be a valid email address.`
      )
      expect(res.body.ctx).toEqual({ error: 'Bad Request', statusCode: 400 })
    }
  )

  test.each(['task:12345', 'a.b_c-d', 'someone@example.com'])('accepts the key %s', async (key) => {
    const res = await request(app(), 'POST', '/v2/topics', { body: { key } })
    expect(res.status).toBe(201)
  })

  test('answers 413 for a body over 100 kB', async () => {
    const res = await request(app(), 'POST', '/v2/topics', {
      body: { key: 'big', name: 'x'.repeat(110 * 1024) },
    })
    expect(res.status).toBe(413)
    expect(res.body).toMatchObject({ statusCode: 413, message: 'Payload Too Large' })
  })
})

describe('GET, PATCH and DELETE /v2/topics/{topicKey}', () => {
  test('answers 404 naming the key for an unknown topic', async () => {
    const res = await request(app(), 'GET', '/v2/topics/nope')
    expect(res.status).toBe(404)
    expect(withoutTimestamp(res.body)).toEqual({
      error: 'Not Found',
      statusCode: 404,
      path: '/v2/topics/nope',
      message: 'Topic with key nope not found',
      ctx: { error: 'Not Found', statusCode: 404 },
    })
  })

  test('finds a key sent percent-encoded', async () => {
    const target = app()
    await request(target, 'POST', '/v2/topics', { body: { key: 'a@b.co' } })
    const res = await request(target, 'GET', `/v2/topics/${encodeURIComponent('a@b.co')}`)
    expect(res.status).toBe(200)
  })

  test('PATCH renames and answers the updated topic', async () => {
    const target = app()
    const res = await request(target, 'PATCH', '/v2/topics/team-alpha', {
      body: { name: 'Team A' },
    })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ _id: '66fbb0a0c1f2e3d4a5b62002', name: 'Team A' })
    const v1 = await request(target, 'GET', '/v1/topics?key=team-alpha')
    expect(v1.body.data[0]).toMatchObject({
      name: 'Team A',
      subscribers: ['user-1042', 'user-2210'],
    })
  })

  test('PATCH answers the pipe 422 without a name', async () => {
    const res = await request(app(), 'PATCH', '/v2/topics/team-alpha', { body: {} })
    expect(res.status).toBe(422)
    expect(res.body.errors.general.messages).toEqual([
      'name should not be empty',
      'name must be a string',
    ])
  })

  test('PATCH answers 404 for an unknown topic', async () => {
    const res = await request(app(), 'PATCH', '/v2/topics/nope', { body: { name: 'x' } })
    expect(res.status).toBe(404)
    expect(res.body.message).toBe('Topic with key nope not found')
  })

  test('DELETE answers 200 acknowledged, removes the topic and its subscriptions', async () => {
    const target = app()
    const res = await request(target, 'DELETE', '/v2/topics/team-alpha')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ data: { acknowledged: true } })
    expect((await request(target, 'GET', '/v2/topics/team-alpha')).status).toBe(404)
    expect((await request(target, 'GET', '/v1/topics/team-alpha')).status).toBe(404)
    const member = await request(target, 'GET', '/v1/topics/team-alpha/subscribers/user-1042')
    expect(member.status).toBe(404)
  })

  test('DELETE answers 404 for an unknown topic', async () => {
    const res = await request(app(), 'DELETE', '/v2/topics/nope')
    expect(res.status).toBe(404)
  })
})

describe('the 2024-10 generation', () => {
  const old = () => createMock({ seed: 'topics-v2', apiGeneration: '2024-10' }).app

  test.each([
    ['GET', '/v2/topics'],
    ['POST', '/v2/topics'],
    ['GET', '/v2/topics/team-alpha'],
    ['PATCH', '/v2/topics/team-alpha'],
    ['DELETE', '/v2/topics/team-alpha'],
    ['GET', '/v2/topics/team-alpha/subscriptions'],
    ['POST', '/v2/topics/team-alpha/subscriptions'],
    ['DELETE', '/v2/topics/team-alpha/subscriptions'],
  ])("answers %s %s with Express's 404, before auth", async (method, path) => {
    const res = await request(old(), method, path, { key: null })
    expect(res.status).toBe(404)
    expect(withoutTimestamp(res.body)).toEqual({
      statusCode: 404,
      path,
      message: `Cannot ${method} ${path}`,
      error: 'Not Found',
    })
  })

  test('leaves the /v2 topic paths out of its OpenAPI document', async () => {
    const res = await request(old(), 'GET', '/__admin/openapi.json')
    expect(res.body.paths['/v2/topics']).toBeUndefined()
    const today = await request(app(), 'GET', '/__admin/openapi.json')
    expect(Object.keys(today.body.paths['/v2/topics'])).toEqual(['get', 'post'])
    expect(today.body.paths['/v2/topics/{topicKey}/subscriptions']).toBeDefined()
  })
})
