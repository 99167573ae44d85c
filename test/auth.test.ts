import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import { request, withoutTimestamp } from './helpers.js'

const GENERAL = '66fbb0a0c1f2e3d4a5b60001'
const ORDER_SHIPPED = '66fbb0a0c1f2e3d4a5b61002'
const WORKFLOW = { name: 'Auth', notificationGroupId: GENERAL, steps: [] }

// Every route the mock serves, each with a request that succeeds given a valid key.
const ROUTES = [
  { method: 'GET', path: '/v1/topics', status: 200 },
  { method: 'GET', path: '/v1/notification-groups', status: 200 },
  { method: 'POST', path: '/v1/notification-groups', body: { name: 'Auth' }, status: 201 },
  { method: 'GET', path: `/v1/notification-groups/${GENERAL}`, status: 200 },
  { method: 'DELETE', path: `/v1/notification-groups/${GENERAL}`, status: 200 },
  { method: 'GET', path: '/v1/messages', status: 200 },
  { method: 'DELETE', path: '/v1/messages/transaction/tx-order-1001', status: 204 },
  { method: 'DELETE', path: '/v1/messages/66fbb0a0c1f2e3d4a5b63001', status: 200 },
  ...['/v1/workflows', '/v1/notification-templates'].flatMap((prefix) => [
    { method: 'GET', path: prefix, status: 200 },
    { method: 'GET', path: `${prefix}/${ORDER_SHIPPED}`, status: 200 },
    { method: 'POST', path: prefix, body: WORKFLOW, status: 201 },
    {
      method: 'PUT',
      path: `${prefix}/${ORDER_SHIPPED}/status`,
      body: { active: true },
      status: 200,
    },
  ]),
]

const FAILURES = [
  { header: undefined, message: 'Missing authorization header', error: 'Unauthorized' },
  { header: '', message: 'Missing authorization header', error: 'Unauthorized' },
  { header: 'None', message: 'Missing authorization header', error: 'Unauthorized' },
  { header: 'Basic x', message: 'Invalid authentication scheme: "Basic"', error: 'Unauthorized' },
  { header: 'apikey x', message: 'Invalid authentication scheme: "apikey"', error: 'Unauthorized' },
  { header: 'APIKEY x', message: 'Invalid authentication scheme: "APIKEY"', error: 'Unauthorized' },
  {
    header: 'Invalid invalid_value',
    message: 'Invalid authentication scheme: "Invalid"',
    error: 'Unauthorized',
  },
  { header: 'ApiKey ', message: 'Unauthorized' },
  { header: 'Bearer x', message: 'Unauthorized' },
  { header: 'Bearer ', message: 'Unauthorized' },
]

const CASES = ROUTES.flatMap((route) => FAILURES.map((failure) => ({ ...route, ...failure })))

test.each(CASES)(
  'answers 401 "$message" to $method $path with Authorization $header',
  async ({ method, path, body, header, message, error }) => {
    const { app } = createMock({ apiGeneration: '2024-10', seed: 'test' })
    const headers: Record<string, string> = header === undefined ? {} : { Authorization: header }
    const res = await request(app, method, path, { key: null, body, headers })
    expect(res.status).toBe(401)
    expect(withoutTimestamp(res.body)).toEqual({
      statusCode: 401,
      path,
      message,
      ...(error ? { error } : {}),
    })
  }
)

test.each(ROUTES)(
  'answers $status to $method $path with any ApiKey',
  async ({ method, path, body, status }) => {
    const { app } = createMock({ apiGeneration: '2024-10', seed: 'test' })
    const res = await request(app, method, path, { key: 'any-key-at-all', body })
    expect(res.status).toBe(status)
  }
)

test('authenticates before validating the query', async () => {
  const { app } = createMock({ apiGeneration: '2024-10', seed: 'test' })
  const res = await request(app, 'GET', '/v1/topics?page=-1', { key: null })
  expect(res.status).toBe(401)
  expect(res.body.message).toBe('Missing authorization header')
})

test('authenticates before casting a malformed group id', async () => {
  const { app } = createMock({ apiGeneration: '2024-10', seed: 'test' })
  const res = await request(app, 'DELETE', '/v1/notification-groups/abc', { key: null })
  expect(res.status).toBe(401)
})

test('authenticates before validating a workflow body', async () => {
  const { app } = createMock({ apiGeneration: '2024-10', seed: 'test' })
  const res = await request(app, 'POST', '/v1/workflows', { key: null, body: {} })
  expect(res.status).toBe(401)
  expect(res.body.message).toBe('Missing authorization header')
})

test('parses the JSON body before authenticating, as the body parser runs first', async () => {
  const { app } = createMock({ apiGeneration: '2024-10', seed: 'test' })
  const res = await request(app, 'POST', '/v1/workflows', { key: null, body: '{"name":}' })
  expect(res.status).toBe(400)
  expect(res.body.message).toBe(`Unexpected token '}', "{"name":}" is not valid JSON`)
})

test('answers 404 "Cannot GET /v1/nope?x=1" to an unknown route without auth', async () => {
  const { app } = createMock({ apiGeneration: '2024-10', seed: 'test' })
  const res = await request(app, 'GET', '/v1/nope?x=1', { key: null })
  expect(res.status).toBe(404)
  expect(withoutTimestamp(res.body)).toEqual({
    statusCode: 404,
    path: '/v1/nope?x=1',
    message: 'Cannot GET /v1/nope?x=1',
    error: 'Not Found',
  })
})

test.each([
  { method: 'PATCH', path: '/v1/topics' },
  { method: 'DELETE', path: '/v1/topics' },
  { method: 'GET', path: '/topics' },
  { method: 'POST', path: '/v1/messages/transaction/tx-order-1001' },
])('answers 404 "Cannot $method $path" without auth', async ({ method, path }) => {
  const { app } = createMock({ apiGeneration: '2024-10', seed: 'test' })
  const res = await request(app, method, path, { key: null })
  expect(res.status).toBe(404)
  expect(withoutTimestamp(res.body)).toEqual({
    statusCode: 404,
    path,
    message: `Cannot ${method} ${path}`,
    error: 'Not Found',
  })
})

test('lets a Production key read and delete, but not write workflows', async () => {
  const { app } = createMock({ apiGeneration: '2024-10', seed: 'test' })
  const key = 'production-key'
  expect((await request(app, 'GET', '/v1/topics', { key })).status).toBe(200)
  expect((await request(app, 'GET', '/v1/workflows', { key })).status).toBe(200)
  expect(
    (await request(app, 'DELETE', '/v1/messages/transaction/tx-order-1001', { key })).status
  ).toBe(204)
  const write = await request(app, 'POST', '/v1/workflows', { key, body: WORKFLOW })
  expect(write.status).toBe(401)
  expect(write.body.message).toBe('This action is only allowed in Development environment')
})

test('answers 401 "API Key not found" to a key that a strict scenario does not declare', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'novu-mock-auth-'))
  const file = join(dir, 'strict.yaml')
  writeFileSync(
    file,
    [
      'name: strict',
      'fixture: default',
      'environments:',
      '  strict: true',
      '  keys:',
      '    - apiKey: known-key',
      '',
    ].join('\n')
  )
  const { app } = createMock({ apiGeneration: '2024-10', seed: 'test', scenario: file })
  const known = await request(app, 'GET', '/v1/topics', { key: 'known-key' })
  expect(known.status).toBe(200)
  const unknown = await request(app, 'GET', '/v1/topics', { key: 'invalid_key' })
  expect(unknown.status).toBe(401)
  expect(withoutTimestamp(unknown.body)).toEqual({
    statusCode: 401,
    path: '/v1/topics',
    message: 'API Key not found',
    error: 'Unauthorized',
  })
})
