import { expect, test } from 'vitest'
import { createMock } from '../mock.js'
import { leadingSegments, patternKey } from './rule-index.js'

/** A mock with these rules added in order, and a call that answers its status. */
async function withRules(rules: unknown[]) {
  const { app } = createMock({ seed: 'rule-index', logLevel: 'silent' })
  for (const rule of rules) {
    const res = await app.request('/__admin/rules', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(rule),
    })
    expect(res.status).toBe(201)
  }
  return async (method: string, path: string) =>
    (await app.request(path, { method, headers: { Authorization: 'ApiKey test' } })).status
}

test('a newer rule for every path wins over an older rule filed under the route', async () => {
  const call = await withRules([
    { match: { path: '/v1/topics' }, fault: { status: 429 } },
    { match: { path: '/v1/*' }, fault: { status: 503 } },
  ])
  expect(await call('GET', '/v1/topics')).toBe(503)
})

test('a newer rule filed under the route wins over an older rule for every path', async () => {
  const call = await withRules([
    { match: { path: '/v1/*' }, fault: { status: 503 } },
    { match: { path: '/v1/topics' }, fault: { status: 429 } },
  ])
  expect(await call('GET', '/v1/topics')).toBe(429)
})

test('a newer rule for every method wins over an older rule for the request method', async () => {
  const call = await withRules([
    { match: { method: 'GET', path: '/v1/topics' }, fault: { status: 429 } },
    { match: { path: '/v1/topics' }, fault: { status: 503 } },
  ])
  expect(await call('GET', '/v1/topics')).toBe(503)
})

test('a rule for several methods fires for each of them and for no other', async () => {
  const call = await withRules([
    { match: { method: ['GET', 'post'], path: '/v1/topics/*' }, fault: { status: 418 } },
  ])
  expect(await call('GET', '/v1/topics/a')).toBe(418)
  expect(await call('POST', '/v1/topics/a')).toBe(418)
  expect(await call('DELETE', '/v1/topics/a')).not.toBe(418)
})

test('a rule filed under one route leaves the other routes alone', async () => {
  const call = await withRules([{ match: { path: '/v1/topics/:key' }, fault: { status: 418 } }])
  expect(await call('GET', '/v1/topics/a')).toBe(418)
  expect(await call('GET', '/v1/workflows/a')).not.toBe(418)
})

test('a deleted rule no longer fires, and the older rule under the same route does', async () => {
  const { app } = createMock({ seed: 'rule-index', logLevel: 'silent' })
  const add = (rule: unknown) =>
    app.request('/__admin/rules', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(rule),
    })
  await add({ match: { path: '/v1/topics' }, fault: { status: 429 } })
  await add({ id: 'newer', match: { path: '/v1/topics' }, fault: { status: 503 } })
  await app.request('/__admin/rules/newer', { method: 'DELETE' })
  const res = await app.request('/v1/topics', { headers: { Authorization: 'ApiKey test' } })
  expect(res.status).toBe(429)
})

test.each([
  ['/v1/topics/:key', '/v1/topics'],
  ['/v1/topics', '/v1/topics'],
  ['/v1', '/v1'],
  ['/v1/topics*', undefined],
  ['/v1/*', undefined],
  ['/:version/topics', undefined],
  ['*', undefined],
  [undefined, undefined],
])('pattern %s is filed under %s', (pattern, key) => {
  expect(patternKey(pattern)).toBe(key)
})

test('every path a filed pattern matches has the pattern’s key', () => {
  expect(leadingSegments('/v1/topics/a/b')).toBe('/v1/topics')
  expect(leadingSegments('/v1/topics')).toBe('/v1/topics')
  expect(leadingSegments('/v1')).toBe('/v1')
})
