import { expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import { INTERNAL_ERROR_MESSAGE, request, withoutErrorId, withoutTimestamp } from './helpers.js'

const GENERAL = '66fbb0a0c1f2e3d4a5b60001'
const KB = 1024
const MB = 1024 * KB

const mock = () => createMock({ apiGeneration: '2024-10', seed: 'test' }).app

/** A JSON body of exactly `size` bytes: `{"name":"xxx…"}`. */
const groupBodyOfSize = (size: number) => `{"name":"${'x'.repeat(size - '{"name":""}'.length)}"}`

test.each([
  {
    path: '/v1/notification-groups',
    text: '{"name":}',
    message: `Unexpected token '}', "{"name":}" is not valid JSON`,
  },
  {
    path: '/v1/notification-groups',
    text: '{name}',
    message: "Expected property name or '}' in JSON at position 1",
  },
  {
    path: '/v1/workflows',
    text: '{',
    message: "Expected property name or '}' in JSON at position 1",
  },
  {
    path: '/v1/workflows',
    text: '[1,]',
    message: `Unexpected token ']', "[1,]" is not valid JSON`,
  },
  {
    path: '/v1/notification-groups',
    text: '"hello"',
    message: `Unexpected token '"', ""hello"" is not valid JSON`,
  },
  {
    path: '/v1/notification-groups',
    text: '123',
    message: `Unexpected token '1', "123" is not valid JSON`,
  },
])('answers 400 with the JSON.parse message to $text on $path', async ({ path, text, message }) => {
  const res = await request(mock(), 'POST', path, { body: text })
  expect(res.status).toBe(400)
  expect(withoutTimestamp(res.body)).toEqual({
    statusCode: 400,
    path,
    message,
    error: 'Bad Request',
  })
})

test('reads an empty JSON body as {}', async () => {
  const res = await request(mock(), 'POST', '/v1/notification-groups', { body: '' })
  expect(res.status).toBe(400)
  expect(res.body.message).toEqual([
    'name should not be null or undefined',
    'name must be a string',
  ])
})

test('parses a JSON body sent with a charset', async () => {
  const res = await request(mock(), 'POST', '/v1/notification-groups', {
    body: { name: 'Charset' },
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  })
  expect(res.status).toBe(201)
  expect(res.body.data.name).toBe('Charset')
})

test.each(['text/plain', 'application/x-www-form-urlencoded'])(
  'treats a %s body as {} on POST /v1/notification-groups',
  async (type) => {
    const res = await request(mock(), 'POST', '/v1/notification-groups', {
      body: '{"name":"Ignored"}',
      headers: { 'Content-Type': type },
    })
    expect(res.status).toBe(400)
    expect(withoutTimestamp(res.body)).toEqual({
      statusCode: 400,
      path: '/v1/notification-groups',
      message: ['name should not be null or undefined', 'name must be a string'],
      error: 'Bad Request',
    })
  }
)

test('treats a text/plain body as {} on POST /v1/workflows', async () => {
  const body = JSON.stringify({ name: 'Ignored', notificationGroupId: GENERAL, steps: [] })
  const res = await request(mock(), 'POST', '/v1/workflows', {
    body,
    headers: { 'Content-Type': 'text/plain' },
  })
  expect(res.status).toBe(400)
  expect(res.body.message).toEqual([
    'name should not be null or undefined',
    'name must be a string',
    'Notification group must be provided ',
    'notificationGroupId must be a string',
    'steps should not be null or undefined',
    'steps must be an array',
  ])
})

test('accepts a body of exactly 100 kB on /v1/notification-groups', async () => {
  const res = await request(mock(), 'POST', '/v1/notification-groups', {
    body: groupBodyOfSize(100 * KB),
  })
  expect(res.status).toBe(201)
})

test('answers 413 in the Novu error shape to a body over 100 kB on /v1/notification-groups', async () => {
  const res = await request(mock(), 'POST', '/v1/notification-groups', {
    body: groupBodyOfSize(100 * KB + 1),
  })
  expect(res.status).toBe(413)
  expect(withoutTimestamp(res.body)).toEqual({
    statusCode: 413,
    path: '/v1/notification-groups',
    message: 'request entity too large',
    error: 'Payload Too Large',
  })
})

test('accepts a body over 100 kB on /v1/workflows, whose limit is 20 MB', async () => {
  const body = {
    name: 'Big',
    notificationGroupId: GENERAL,
    steps: [],
    data: { blob: 'x'.repeat(200 * KB) },
  }
  const res = await request(mock(), 'POST', '/v1/workflows', { body })
  expect(res.status).toBe(201)
  expect(res.body.data.data.blob).toHaveLength(200 * KB)
})

test('answers 413 in the Novu error shape to a body over 20 MB on /v1/workflows', async () => {
  const body = JSON.stringify({
    name: 'Huge',
    notificationGroupId: GENERAL,
    steps: [],
    data: { blob: 'x'.repeat(20 * MB) },
  })
  const res = await request(mock(), 'POST', '/v1/workflows', { body })
  expect(res.status).toBe(413)
  expect(withoutTimestamp(res.body)).toEqual({
    statusCode: 413,
    path: '/v1/workflows',
    message: 'request entity too large',
    error: 'Payload Too Large',
  })
})

test.each([
  { label: 'an emoji', name: '🚀 Launch 👩‍👩‍👧' },
  { label: 'right-to-left text', name: 'مرحبا بالعالم \u202Eevil' },
  { label: 'a NUL character', name: 'before\u0000after' },
  { label: 'combining marks', name: 'Zalgo z\u0351\u0352\u0357' },
  { label: 'ten thousand characters', name: 'n'.repeat(10_000) },
])('stores and echoes a group name with $label', async ({ name }) => {
  const app = mock()
  const created = await request(app, 'POST', '/v1/notification-groups', { body: { name } })
  expect(created.status).toBe(201)
  expect(created.body.data.name).toBe(name)
  const got = await request(app, 'GET', `/v1/notification-groups/${created.body.data._id}`)
  expect(got.body.data.name).toBe(name)
})

test('stores and echoes an emoji workflow name and drops the emoji from its identifier', async () => {
  const res = await request(mock(), 'POST', '/v1/workflows', {
    body: { name: '🚀 Launch', notificationGroupId: GENERAL, steps: [] },
  })
  expect(res.status).toBe(201)
  expect(res.body.data.name).toBe('🚀 Launch')
  expect(res.body.data.triggers[0].identifier).toBe('launch')
})

test('echoes unicode in the error path as the client encoded it', async () => {
  const path = `/v1/messages/transaction/${encodeURIComponent('tx-ü 🚀')}`
  const res = await request(mock(), 'DELETE', path)
  expect(res.status).toBe(404)
  expect(res.body.path).toBe(path)
})

test('keeps __proto__ keys of a group body from polluting Object.prototype', async () => {
  const res = await request(mock(), 'POST', '/v1/notification-groups', {
    body: '{"name":"Proto","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
  })
  expect(res.status).toBe(201)
  expect(res.body.data.name).toBe('Proto')
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()
})

test('keeps __proto__ keys of a workflow body from polluting Object.prototype', async () => {
  const text = JSON.stringify({
    name: 'Proto',
    notificationGroupId: GENERAL,
    steps: [{ name: 'In-App', template: { type: 'in_app', content: 'Hi' } }],
  })
    .replace('{"name":"Proto"', '{"__proto__":{"polluted":true},"name":"Proto"')
    .replace('"template":{', '"template":{"__proto__":{"polluted":true},')
    .replace(
      '"steps":[{',
      '"preferenceSettings":{"__proto__":{"email":false}},"data":{"__proto__":{"polluted":true}},"steps":[{"__proto__":{"polluted":true},'
    )
  const res = await request(mock(), 'POST', '/v1/workflows', { body: text })
  expect(res.status).toBe(201)
  expect(res.body.data.preferenceSettings.email).toBe(true)
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()
})

test('keeps __proto__ query parameters from polluting Object.prototype', async () => {
  const res = await request(
    mock(),
    'GET',
    '/v1/topics?__proto__[polluted]=1&__proto__=x&constructor[prototype][polluted]=1'
  )
  expect(res.status).toBe(200)
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()
})

test('answers 500 without an error key and with a uuid errorId', async () => {
  const res = await request(mock(), 'GET', '/v1/topics?pageSize=0&key=x')
  expect(res.status).toBe(500)
  expect(res.body).not.toHaveProperty('error')
  expect(withoutErrorId(res.body)).toEqual({
    statusCode: 500,
    path: '/v1/topics?pageSize=0&key=x',
    message: INTERNAL_ERROR_MESSAGE,
  })
})

test.each([
  { method: 'GET', path: '/v1/topics' },
  { method: 'GET', path: '/v1/topics?page=-1' },
  { method: 'GET', path: '/v1/nope' },
  { method: 'DELETE', path: `/v1/notification-groups/${GENERAL}` },
])('answers $method $path with JSON in utf-8', async ({ method, path }) => {
  const res = await request(mock(), method, path)
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
})

test('answers the error path with the query string exactly as sent', async () => {
  const path = '/v1/topics?pageSize=big&page=%2D1&x=a%20b'
  const res = await request(mock(), 'GET', path)
  expect(res.status).toBe(400)
  expect(res.body.path).toBe(path)
})

test('a key beyond the environment limit answers 403 with a message that says what to do', async () => {
  const { app } = createMock({ apiGeneration: '2024-10', maxEnvironments: 2 })
  for (const key of ['one', 'two'])
    expect(
      (await app.request('/v1/topics', { headers: { Authorization: `ApiKey ${key}` } })).status
    ).toBe(200)
  const res = await app.request('/v1/topics', { headers: { Authorization: 'ApiKey three' } })
  expect(res.status).toBe(403)
  const body = (await res.json()) as { message: string; error: string }
  expect(body.error).toBe('Forbidden')
  expect(body.message).toMatch(/at most 2 environments.*--max-environments/)
  expect(
    (await app.request('/v1/topics', { headers: { Authorization: 'ApiKey one' } })).status
  ).toBe(200)
})
