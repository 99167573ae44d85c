import { expect, test } from 'vitest'
import { createMock } from '../mock.js'
import { NOVU_ROUTES } from '../novu-routes.js'
import { adminRoutes } from './admin.routes.js'
import { openApiPath } from '../openapi.js'

const key = (name: string) => ({ Authorization: `ApiKey ${name}` })
const jsonHeaders = { 'Content-Type': 'application/json' }
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const read = (res: Response): Promise<any> => res.json()
const post = (body: unknown) => ({
  method: 'POST',
  headers: jsonHeaders,
  body: JSON.stringify(body),
})

test('health answers 200 with the version, uptime and active scenario', async () => {
  const { app } = createMock({ apiGeneration: '2024-10' })
  const res = await app.request('/__admin/health')
  expect(res.status).toBe(200)
  expect(await read(res)).toMatchObject({
    status: 'ok',
    version: expect.any(String),
    scenario: 'default',
  })
})

test('lists the built-in scenarios with their descriptions', async () => {
  const { app } = createMock({ apiGeneration: '2024-10' })
  const body = await read(await app.request('/__admin/scenarios'))
  const names = body.data.map((s: { name: string }) => s.name)
  expect(names).toEqual(expect.arrayContaining(['default', 'empty', 'large', 'production-key']))
  expect(body.data[0]).toMatchObject({ description: expect.any(String), source: 'builtin' })
})

test('loading a scenario by name resets every environment to it', async () => {
  const { app } = createMock({ apiGeneration: '2024-10' })
  const before = await read(await app.request('/v1/topics', { headers: key('a') }))
  expect(before.totalCount).toBeGreaterThan(0)
  const res = await app.request('/__admin/scenario', post({ name: 'empty' }))
  expect(res.status).toBe(200)
  const after = await read(await app.request('/v1/topics', { headers: key('a') }))
  expect(after).toEqual({ page: 0, totalCount: 0, pageSize: 10, data: [] })
  expect((await read(await app.request('/__admin/scenario'))).data.name).toBe('empty')
})

test('an inline scenario with explicit records is served as written', async () => {
  const { app } = createMock({ apiGeneration: '2024-10' })
  const scenario = { name: 'inline', data: { topics: [{ key: 'only-one', subscribers: ['s1'] }] } }
  expect((await app.request('/__admin/scenario', post({ scenario }))).status).toBe(200)
  const body = await read(await app.request('/v1/topics', { headers: key('a') }))
  expect(body.data).toEqual([
    expect.objectContaining({ key: 'only-one', name: 'only-one', subscribers: ['s1'] }),
  ])
})

test('a bad scenario is refused with every problem and its path, and the state is untouched', async () => {
  const { app } = createMock({ apiGeneration: '2024-10' })
  await app.request('/v1/notification-groups', {
    ...post({ name: 'Mine' }),
    headers: { ...jsonHeaders, ...key('a') },
  })
  const bad = {
    name: 'bad',
    clock: { mode: 'fixed' },
    data: {
      topics: [{ key: 7 }],
      workflows: [{ name: 'w', steps: [{ template: { type: 'fax' } }] }],
    },
  }
  const res = await app.request('/__admin/scenario', post({ scenario: bad }))
  expect(res.status).toBe(400)
  const body = await read(res)
  expect(body).toMatchObject({ statusCode: 400, path: '/__admin/scenario', error: 'Bad Request' })
  expect(body.message).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^data\.topics\.0\.key: /),
      expect.stringMatching(/^clock/),
    ])
  )
  const groups = await read(await app.request('/v1/notification-groups', { headers: key('a') }))
  expect(groups.data.map((g: { name: string }) => g.name)).toContain('Mine')
  expect((await read(await app.request('/__admin/scenario'))).data.name).toBe('default')
})

test('a workflow record that does not build is refused at load time with its path', async () => {
  const { app } = createMock({ apiGeneration: '2024-10' })
  const scenario = {
    name: 'bad-steps',
    data: { workflows: [{ name: 'w', steps: [{ template: { type: 'fax' } }] }] },
  }
  const res = await app.request('/__admin/scenario', post({ scenario }))
  expect(res.status).toBe(400)
  expect((await read(res)).message[0]).toMatch(
    /^data\.workflows\.0: type must be one of the following values/
  )
})

test('an unknown scenario name answers 404 naming the available ones', async () => {
  const { app } = createMock({ apiGeneration: '2024-10' })
  const res = await app.request('/__admin/scenario', post({ name: 'nope' }))
  expect(res.status).toBe(404)
  expect((await read(res)).message).toMatch(/^Unknown scenario "nope"\. Available: .*default/)
})

test('reset rebuilds every environment and clears the journal', async () => {
  const { app } = createMock({ apiGeneration: '2024-10' })
  await app.request('/v1/messages/transaction/tx-order-1001', {
    method: 'DELETE',
    headers: key('a'),
  })
  expect((await app.request('/__admin/reset', { method: 'POST' })).status).toBe(200)
  expect((await read(await app.request('/__admin/requests'))).data).toEqual([])
  const again = await app.request('/v1/messages/transaction/tx-order-1001', {
    method: 'DELETE',
    headers: key('a'),
  })
  expect(again.status).toBe(204)
})

test('reset with an apiKey rebuilds only that environment', async () => {
  const { app } = createMock({ apiGeneration: '2024-10' })
  for (const k of ['a', 'b'])
    await app.request('/v1/messages/transaction/tx-order-1001', {
      method: 'DELETE',
      headers: key(k),
    })
  await app.request('/__admin/reset?apiKey=a', { method: 'POST' })
  const a = await app.request('/v1/messages/transaction/tx-order-1001', {
    method: 'DELETE',
    headers: key('a'),
  })
  const b = await app.request('/v1/messages/transaction/tx-order-1001', {
    method: 'DELETE',
    headers: key('b'),
  })
  expect([a.status, b.status]).toEqual([204, 404])
})

test('an exported state fed back in gives the same responses', async () => {
  const { app } = createMock({ apiGeneration: '2024-10' })
  const headers = { ...jsonHeaders, ...key('a') }
  await app.request('/v1/workflows', {
    method: 'POST',
    headers,
    body: JSON.stringify({
      name: 'Exported',
      notificationGroupId: '66fbb0a0c1f2e3d4a5b60001',
      steps: [{ template: { type: 'sms', content: '{{code}}' } }],
    }),
  })
  await app.request('/v1/messages/transaction/tx-order-1001?channel=sms', {
    method: 'DELETE',
    headers,
  })
  const paths = [
    '/v1/topics?pageSize=10',
    '/v1/workflows?limit=100',
    '/v1/messages?limit=100',
    '/v1/notification-groups',
  ]
  const readAll = async () =>
    Promise.all(paths.map(async (p) => (await app.request(p, { headers })).text()))
  const before = await readAll()
  const exported = await (await app.request('/__admin/state?apiKey=a')).text()
  await app.request('/__admin/reset', { method: 'POST' })
  const put = await app.request('/__admin/state?apiKey=a', {
    method: 'PUT',
    headers: jsonHeaders,
    body: exported,
  })
  expect(put.status).toBe(200)
  expect(await readAll()).toEqual(before)
})

test('a bad state body is refused and the environment keeps its data', async () => {
  const { app } = createMock({ apiGeneration: '2024-10' })
  const res = await app.request('/__admin/state?apiKey=a', {
    method: 'PUT',
    headers: jsonHeaders,
    body: JSON.stringify({ topics: [{ name: 'no key' }], messages: 'x' }),
  })
  expect(res.status).toBe(400)
  expect((await read(res)).message).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^topics\.0\.key/),
      expect.stringMatching(/^messages/),
    ])
  )
  expect((await read(await app.request('/v1/topics', { headers: key('a') }))).totalCount).toBe(23)
})

test('state without an apiKey answers 400 in the error shape', async () => {
  const { app } = createMock({ apiGeneration: '2024-10' })
  const res = await app.request('/__admin/state')
  expect(res.status).toBe(400)
  expect(await read(res)).toMatchObject({
    statusCode: 400,
    path: '/__admin/state',
    error: 'Bad Request',
  })
})

test('the journal counts calls by method and path pattern', async () => {
  const { app } = createMock({ apiGeneration: '2024-10' })
  const headers = { ...jsonHeaders, ...key('a') }
  const body = JSON.stringify({
    name: 'Counted',
    notificationGroupId: '66fbb0a0c1f2e3d4a5b60001',
    steps: [],
  })
  await app.request('/v1/workflows', { method: 'POST', headers, body })
  await app.request('/v1/workflows', { method: 'POST', headers, body })
  await app.request('/v1/topics', { headers })
  const count = await (
    await app.request('/__admin/requests/count?method=POST&path=/v1/workflows')
  ).json()
  expect(count).toEqual({ count: 2 })
  const pattern = await read(await app.request('/__admin/requests/count?path=/v1/*'))
  expect(pattern).toEqual({ count: 3 })
})

test('journal entries redact the API key and record status, body and duration', async () => {
  const { app } = createMock({ apiGeneration: '2024-10' })
  await app.request('/v1/notification-groups', {
    method: 'POST',
    headers: { ...jsonHeaders, ...key('secret-key-123') },
    body: '{"name":"G"}',
  })
  const [entry] = (await read(await app.request('/__admin/requests'))).data
  expect(entry).toMatchObject({
    method: 'POST',
    path: '/v1/notification-groups',
    status: 201,
    body: '{"name":"G"}',
    matched: true,
  })
  expect(entry.headers.authorization).toBe('ApiKey secr…23')
  expect(JSON.stringify(entry)).not.toContain('secret-key-123')
  expect(entry.durationMs).toEqual(expect.any(Number))
})

test('the journal filters by API key without showing it', async () => {
  const { app } = createMock({ apiGeneration: '2024-10' })
  await app.request('/v1/topics', { headers: key('first') })
  await app.request('/v1/topics', { headers: key('second') })
  const body = await read(await app.request('/__admin/requests?apiKey=second'))
  expect(body.totalCount).toBe(1)
  expect(body.data[0].apiKey).toBe('se…')
})

test('unmatched requests are easy to find and name the closest routes', async () => {
  const { app } = createMock({ apiGeneration: '2024-10' })
  await app.request('/v1/topic', { headers: key('a') })
  const body = await read(await app.request('/__admin/requests?matched=false'))
  expect(body.data).toHaveLength(1)
  expect(body.data[0]).toMatchObject({ path: '/v1/topic', status: 404, matched: false })
  expect(body.data[0].closestRoutes[0]).toBe('GET /v1/topics')
})

test('the journal holds at most its configured size', async () => {
  const { app } = createMock({ apiGeneration: '2024-10', journalSize: 3 })
  for (let i = 0; i < 10; i++) await app.request(`/v1/topics?page=${i}`, { headers: key('a') })
  const body = await read(await app.request('/__admin/requests'))
  expect(body.data.map((e: { query: { page: string } }) => e.query.page)).toEqual(['9', '8', '7'])
})

test('clearing the journal answers how many entries went', async () => {
  const { app } = createMock({ apiGeneration: '2024-10' })
  await app.request('/v1/topics', { headers: key('a') })
  const res = await app.request('/__admin/requests', { method: 'DELETE' })
  expect(await read(res)).toEqual({ data: { cleared: 1 } })
  expect((await read(await app.request('/__admin/requests/count'))).count).toBe(0)
})

test('a bad journal filter answers 400 naming the field', async () => {
  const { app } = createMock({ apiGeneration: '2024-10' })
  const res = await app.request('/__admin/requests?status=abc&since=yesterday')
  expect(res.status).toBe(400)
  const { message } = await read(res)
  expect(message).toEqual([expect.stringMatching(/^status: /), expect.stringMatching(/^since: /)])
})

test('with an admin token, admin routes answer 401 without it and Novu routes are unaffected', async () => {
  const { app } = createMock({ apiGeneration: '2024-10', adminToken: 's3cret' })
  const denied = await app.request('/__admin/scenario')
  expect(denied.status).toBe(401)
  expect(await read(denied)).toMatchObject({
    statusCode: 401,
    path: '/__admin/scenario',
    error: 'Unauthorized',
  })
  const wrong = await app.request('/__admin/scenario', {
    headers: { Authorization: 'Bearer wrong' },
  })
  expect(wrong.status).toBe(401)
  const right = await app.request('/__admin/scenario', {
    headers: { Authorization: 'Bearer s3cret' },
  })
  expect(right.status).toBe(200)
  expect((await app.request('/v1/topics', { headers: key('a') })).status).toBe(200)
})

test('with an admin token, health stays open for container probes', async () => {
  const { app } = createMock({ apiGeneration: '2024-10', adminToken: 's3cret' })
  expect((await app.request('/__admin/health')).status).toBe(200)
})

test('an unknown admin route answers 404 in the error shape', async () => {
  const { app } = createMock({ apiGeneration: '2024-10' })
  const res = await app.request('/__admin/nope')
  expect(res.status).toBe(404)
  expect(await read(res)).toMatchObject({
    statusCode: 404,
    message: 'Cannot GET /__admin/nope',
    error: 'Not Found',
  })
})

test('malformed JSON on an admin route answers 400 in the error shape', async () => {
  const { app } = createMock({ apiGeneration: '2024-10' })
  const res = await app.request('/__admin/scenario', {
    method: 'POST',
    headers: jsonHeaders,
    body: '{"name":',
  })
  expect(res.status).toBe(400)
  expect((await read(res)).message).toBe('Unexpected end of JSON input')
})

test('every route the app serves appears in the OpenAPI document', async () => {
  const mock = createMock({ apiGeneration: '2024-10' })
  const document = await read(await mock.app.request('/__admin/openapi.json'))
  const mounted = [...NOVU_ROUTES, ...adminRoutes(mock.state)]
  // A route another generation has (the /v2 ones) is mounted, answers Express's 404 here, and
  // is left out of this generation's document.
  const served = mounted.filter(
    (route) => !route.existsIn || route.existsIn(mock.state.generation())
  )
  for (const route of served) {
    expect(
      document.paths[openApiPath(route.path)]?.[route.method.toLowerCase()],
      `${route.method} ${route.path}`
    ).toBeDefined()
  }
  const documented = Object.values(document.paths).flatMap((ops) =>
    Object.keys(ops as object)
  ).length
  expect(documented).toBe(served.length)
  const hono = mock.app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path}`)
  expect(new Set(hono)).toEqual(new Set(mounted.map((r) => `${r.method} ${r.path}`)))
})

test('the OpenAPI document carries the validation bounds of the topic list', async () => {
  const { app } = createMock({ apiGeneration: '2024-10' })
  const document = await read(await app.request('/__admin/openapi.json'))
  const params = document.paths['/v1/topics'].get.parameters
  expect(params).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        name: 'pageSize',
        in: 'query',
        schema: expect.objectContaining({ maximum: 10 }),
      }),
    ])
  )
})
