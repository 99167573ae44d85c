import { expect, test } from 'vitest'
import { createMock } from '../../mock.js'
import {
  INTERNAL_ERROR_MESSAGE,
  OBJECT_ID,
  request,
  withoutErrorId,
  withoutTimestamp,
} from '../../../test/helpers.js'

// The default scenario holds three hand-named topics, then 20 generated ones.
const TOTAL = 23
const NAMED_KEYS = ['beta-testers', 'team-alpha', 'newsletter-weekly']

const listTopics = (query = '') =>
  request(createMock({ apiGeneration: '2024-10', seed: 'test' }).app, 'GET', `/v1/topics${query}`)

test('answers 200 with page 0, pageSize 10 and the first ten topics when no parameter is given', async () => {
  const res = await listTopics()
  expect(res.status).toBe(200)
  expect(Object.keys(res.body)).toEqual(['page', 'totalCount', 'pageSize', 'data'])
  expect(res.body).toMatchObject({ page: 0, totalCount: TOTAL, pageSize: 10 })
  expect(res.body.data).toHaveLength(10)
  expect(res.body.data.slice(0, 3).map((t: { key: string }) => t.key)).toEqual(NAMED_KEYS)
})

test('returns each topic with exactly the six fields of upstream projection', async () => {
  const res = await listTopics('?key=team-alpha')
  expect(res.status).toBe(200)
  const [topic] = res.body.data
  expect(Object.keys(topic).sort()).toEqual(
    ['_environmentId', '_id', '_organizationId', 'key', 'name', 'subscribers'].sort()
  )
  expect(topic).toEqual({
    _id: '66fbb0a0c1f2e3d4a5b62002',
    _environmentId: expect.stringMatching(OBJECT_ID),
    _organizationId: expect.stringMatching(OBJECT_ID),
    key: 'team-alpha',
    name: 'Team Alpha',
    subscribers: ['user-1042', 'user-2210'],
  })
})

test('returns an empty subscribers array for a topic without subscribers', async () => {
  const res = await listTopics('?key=beta-testers')
  expect(res.status).toBe(200)
  expect(res.body.data[0].subscribers).toEqual([])
})

test('scopes every topic to the caller environment and organization', async () => {
  const res = await listTopics('?pageSize=10&page=1')
  expect(res.status).toBe(200)
  const envs = new Set(res.body.data.map((t: { _environmentId: string }) => t._environmentId))
  const orgs = new Set(res.body.data.map((t: { _organizationId: string }) => t._organizationId))
  expect(envs.size).toBe(1)
  expect(orgs.size).toBe(1)
})

test('returns topics in insertion order, page after page', async () => {
  const { app } = createMock({ apiGeneration: '2024-10', seed: 'test' })
  const pages = await Promise.all(
    [0, 1, 2].map((page) => request(app, 'GET', `/v1/topics?page=${page}&pageSize=10`))
  )
  const keys = pages.flatMap((p) => p.body.data.map((t: { key: string }) => t.key))
  expect(keys).toHaveLength(TOTAL)
  expect(new Set(keys).size).toBe(TOTAL)
  expect(keys.slice(0, 3)).toEqual(NAMED_KEYS)
  const first = await request(app, 'GET', '/v1/topics?page=0&pageSize=2')
  expect(first.body.data.map((t: { name: string }) => t.name)).toEqual([
    'Beta testers',
    'Team Alpha',
  ])
})

test.each([
  { query: '?page=0&pageSize=2', page: 0, pageSize: 2, count: 2 },
  { query: '?page=1&pageSize=2', page: 1, pageSize: 2, count: 2 },
  { query: '?page=2&pageSize=10', page: 2, pageSize: 10, count: 3 },
  { query: '?page=3&pageSize=10', page: 3, pageSize: 10, count: 0 },
  { query: '?page=100&pageSize=1', page: 100, pageSize: 1, count: 0 },
  { query: '?pageSize=10', page: 0, pageSize: 10, count: 10 },
  { query: '?page=', page: 0, pageSize: 10, count: 10 },
])(
  'paginates $query to $count items with the full totalCount',
  async ({ query, page, pageSize, count }) => {
    const res = await listTopics(query)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ page, pageSize, totalCount: TOTAL })
    expect(res.body.data).toHaveLength(count)
  }
)

test('filters by exact key and counts only the matching topics', async () => {
  const res = await listTopics('?key=team-alpha')
  expect(res.status).toBe(200)
  expect(res.body).toMatchObject({ page: 0, totalCount: 1, pageSize: 10 })
  expect(res.body.data.map((t: { key: string }) => t.key)).toEqual(['team-alpha'])
})

test.each([
  { name: 'another case', key: 'Team-Alpha' },
  { name: 'a prefix', key: 'team' },
  { name: 'a regular expression', key: 'team-.*' },
  { name: 'an unknown key', key: 'topic-key-not-existing' },
])('answers 200 with no topic for $name', async ({ key }) => {
  const res = await listTopics(`?key=${encodeURIComponent(key)}`)
  expect(res.status).toBe(200)
  expect(res.body).toEqual({ page: 0, totalCount: 0, pageSize: 10, data: [] })
})

test('treats an empty key as no filter', async () => {
  const res = await listTopics('?key=')
  expect(res.status).toBe(200)
  expect(res.body).toMatchObject({ page: 0, totalCount: TOTAL, pageSize: 10 })
  expect(res.body.data).toHaveLength(10)
})

test('pages within the key filter', async () => {
  const res = await listTopics('?key=team-alpha&page=1&pageSize=1')
  expect(res.status).toBe(200)
  expect(res.body).toEqual({ page: 1, totalCount: 1, pageSize: 1, data: [] })
})

test('ignores unknown query parameters', async () => {
  const res = await listTopics('?unsupportedParam=whatever')
  expect(res.status).toBe(200)
  expect(res.body).toMatchObject({ page: 0, totalCount: TOTAL, pageSize: 10 })
  expect(res.body.data).toHaveLength(10)
})

test('accepts the largest page size, 10', async () => {
  const res = await listTopics('?pageSize=10&page=2')
  expect(res.status).toBe(200)
  expect(res.body).toMatchObject({ page: 2, pageSize: 10, totalCount: TOTAL })
})

test.each([
  {
    query: '?page=first&pageSize=big',
    message: [
      'page must not be less than 0',
      'page must be an integer number',
      'pageSize must not be less than 0',
      'pageSize must be an integer number',
    ],
  },
  {
    query: '?page=1.5&pageSize=1.5',
    message: ['page must be an integer number', 'pageSize must be an integer number'],
  },
  {
    query: '?page=-1&pageSize=-1',
    message: ['page must not be less than 0', 'pageSize must not be less than 0'],
  },
  {
    query: '?page=1&page=2',
    message: ['page must not be less than 0', 'page must be an integer number'],
  },
  { query: '?key=a&key=b', message: ['key must be a string'] },
])('answers 400 with the validation messages in order for $query', async ({ query, message }) => {
  const res = await listTopics(query)
  expect(res.status).toBe(400)
  expect(withoutTimestamp(res.body)).toEqual({
    statusCode: 400,
    path: `/v1/topics${query}`,
    message,
    error: 'Bad Request',
  })
})

test.each(['?page=1&pageSize=101', '?pageSize=11'])(
  'answers 400 with the page-size string for %s',
  async (query) => {
    const res = await listTopics(query)
    expect(res.status).toBe(400)
    expect(withoutTimestamp(res.body)).toEqual({
      statusCode: 400,
      path: `/v1/topics${query}`,
      message: 'Page size can not be larger then 10',
      error: 'Bad Request',
    })
  }
)

test('reports validation messages before the page-size limit', async () => {
  const res = await listTopics('?page=-1&pageSize=11')
  expect(res.status).toBe(400)
  expect(res.body.message).toEqual(['page must not be less than 0'])
})

test.each(['?pageSize=0', '?pageSize=', '?page=1&pageSize=0'])(
  'answers 500 with an errorId for %s',
  async (query) => {
    const res = await listTopics(query)
    expect(res.status).toBe(500)
    expect(withoutErrorId(res.body)).toEqual({
      statusCode: 500,
      path: `/v1/topics${query}`,
      message: INTERNAL_ERROR_MESSAGE,
    })
  }
)
