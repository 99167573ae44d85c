import { expect, test } from 'vitest'
import { createMock } from '../mock.js'
import { MALFORMED_BODY } from './faults.js'

const TX = '/v1/messages/transaction/tx-order-1001'
const STATUS = '/v1/workflows/66fbb0a0c1f2e3d4a5b61002/status'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const read = (res: Response): Promise<any> => res.json()

/** A mock of its own, and helpers that talk to it over app.request(). */
function setup(options: { seed?: string } = {}) {
  const mock = createMock({
    apiGeneration: '2024-10',
    seed: options.seed ?? 'chaos',
    logLevel: 'silent',
  })
  const call = (method: string, path: string, init: { apiKey?: string; body?: unknown } = {}) =>
    mock.app.request(path, {
      method,
      headers: {
        Authorization: `ApiKey ${init.apiKey ?? 'test'}`,
        ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    })
  const addRule = async (rule: unknown) => {
    const res = await mock.app.request('/__admin/rules', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(rule),
    })
    expect(res.status).toBe(201)
    return (await read(res)).data as { id: string }
  }
  const rules = async () => (await read(await mock.app.request('/__admin/rules'))).data as unknown[]
  return { ...mock, call, addRule, rules }
}

const statuses = async (calls: (() => Response | Promise<Response>)[]) => {
  const out: number[] = []
  for (const call of calls) out.push((await call()).status)
  return out
}

test('a 503 fault answers the real Novu error body with Retry-After: 1', async () => {
  const { call, addRule } = setup()
  await addRule({ match: { path: '/v1/topics' }, fault: { status: 503 } })
  const res = await call('GET', '/v1/topics?page=1')
  expect(res.status).toBe(503)
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
  expect(res.headers.get('retry-after')).toBe('1')
  expect(await read(res)).toEqual({
    statusCode: 503,
    timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    path: '/v1/topics?page=1',
    message: 'Service Unavailable',
  })
})

test.each([
  ['/v1/topics', 'configuration', '10000', '11000'],
  [TX, 'global', '15000', '16500'],
])(
  'a 429 fault on %s answers "API rate limit exceeded" with the %s rate-limit headers',
  async (path, category, limit, burst) => {
    const { call, addRule } = setup()
    await addRule({ match: { path }, fault: { status: 429 } })
    const res = await call(path === TX ? 'DELETE' : 'GET', path)
    expect(res.status).toBe(429)
    expect(Object.fromEntries(res.headers)).toMatchObject({
      'retry-after': '1',
      'ratelimit-limit': limit,
      'ratelimit-remaining': '0',
      'ratelimit-reset': '1',
      'ratelimit-policy': `${limit};w=5;burst=${burst};comment="token bucket";category="${category}";cost="single";serviceLevel="unlimited"`,
    })
    const body = await read(res)
    expect(body).toEqual({
      statusCode: 429,
      timestamp: expect.any(String),
      path,
      message: 'API rate limit exceeded',
    })
  }
)

test('a 500 fault answers the internal error body with an errorId', async () => {
  const { call, addRule } = setup()
  await addRule({ match: { path: '/v1/topics' }, fault: { status: 500 } })
  const res = await call('GET', '/v1/topics')
  expect(res.status).toBe(500)
  expect(await read(res)).toEqual({
    statusCode: 500,
    timestamp: expect.any(String),
    path: '/v1/topics',
    message: 'Internal server error, contact support and provide them with the errorId',
    errorId: expect.stringMatching(/^[0-9a-f-]{36}$/),
  })
})

test("a status fault sends the rule's own body and headers, and its Retry-After wins", async () => {
  const { call, addRule } = setup()
  await addRule({
    match: { path: '/v1/topics' },
    fault: {
      status: 429,
      body: { message: 'slow down' },
      headers: { 'Retry-After': '7', 'X-Chaos': 'yes' },
    },
  })
  const res = await call('GET', '/v1/topics')
  expect(res.status).toBe(429)
  expect(res.headers.get('retry-after')).toBe('7')
  expect(res.headers.get('ratelimit-reset')).toBe('7')
  expect(res.headers.get('x-chaos')).toBe('yes')
  expect(await read(res)).toEqual({ message: 'slow down' })
})

test('a string body goes out as is under the rule’s own Content-Type', async () => {
  const { call, addRule } = setup()
  await addRule({
    match: {},
    fault: {
      status: 502,
      body: '<html>Bad gateway</html>',
      headers: { 'Content-Type': 'text/html' },
    },
  })
  const res = await call('GET', '/v1/topics')
  expect(res.status).toBe(502)
  expect(res.headers.get('content-type')).toBe('text/html')
  expect(await res.text()).toBe('<html>Bad gateway</html>')
})

test('a rule with times fires that many times, then expires', async () => {
  const { call, addRule, rules } = setup()
  await addRule({ match: { path: '/v1/topics' }, fault: { status: 500 }, times: 2 })
  expect(await statuses([1, 2, 3].map(() => () => call('GET', '/v1/topics')))).toEqual([
    500, 500, 200,
  ])
  expect(await rules()).toEqual([])
})

test('a rule with after lets the first matching calls through, then fires', async () => {
  const { call, addRule } = setup()
  await addRule({ match: { path: '/v1/topics' }, fault: { status: 503 }, after: 2, times: 1 })
  expect(await statuses([1, 2, 3, 4].map(() => () => call('GET', '/v1/topics')))).toEqual([
    200, 200, 503, 200,
  ])
})

test('probability follows the seed: two mocks with the same seed fail the same calls', async () => {
  const run = async (seed: string) => {
    const { call, addRule } = setup({ seed })
    await addRule({ match: { path: '/v1/topics' }, fault: { status: 503 }, probability: 0.5 })
    return statuses(Array.from({ length: 20 }, () => () => call('GET', '/v1/topics')))
  }
  const first = await run('same')
  expect(await run('same')).toEqual(first)
  expect(first).toContain(200)
  expect(first).toContain(503)
  expect(await run('other')).not.toEqual(first)
})

test('a sequence answers 503, 503, then the real answer, and expires', async () => {
  const { call, addRule, rules } = setup()
  await addRule({
    match: { method: 'DELETE', path: '/v1/messages/transaction/:id' },
    sequence: [{ status: 503 }, { status: 503 }, { pass: true }],
  })
  expect(await statuses([1, 2, 3, 4].map(() => () => call('DELETE', TX)))).toEqual([
    503, 503, 204, 404,
  ])
  expect(await rules()).toEqual([])
})

test('the newest matching rule wins over an older one', async () => {
  const { call, addRule } = setup()
  await addRule({ match: { path: '/v1/*' }, fault: { status: 500 } })
  await addRule({ match: { path: '/v1/topics' }, fault: { status: 429 }, times: 1 })
  expect(await statuses([1, 2].map(() => () => call('GET', '/v1/topics')))).toEqual([429, 500])
})

test('a newest rule that passes shadows an older fault for the calls it matches', async () => {
  const { call, addRule } = setup()
  await addRule({ match: { path: '/v1/topics' }, fault: { status: 500 } })
  await addRule({ match: { path: '/v1/topics' }, sequence: [{ pass: true }] })
  expect(await statuses([1, 2].map(() => () => call('GET', '/v1/topics')))).toEqual([200, 500])
})

test.each([
  ['method', { method: ['put', 'DELETE'] }, ['PUT', STATUS], ['GET', '/v1/topics']],
  [
    'path parameter',
    { path: '/v1/workflows/:id/status' },
    ['PUT', STATUS],
    ['GET', '/v1/workflows/66fbb0a0c1f2e3d4a5b61002'],
  ],
  ['path wildcard', { path: '/v1/topic*' }, ['GET', '/v1/topics'], ['GET', '/v1/workflows']],
  ['api key', { apiKey: 'flaky' }, ['GET', '/v1/topics', 'flaky'], ['GET', '/v1/topics', 'steady']],
  [
    'query',
    { query: { page: '1' } },
    ['GET', '/v1/topics?page=1&pageSize=2'],
    ['GET', '/v1/topics?page=2'],
  ],
])(
  'a rule matches on %s',
  async (_name, match, [method, path, apiKey], [otherMethod, otherPath, otherKey]) => {
    const { call, addRule } = setup()
    await addRule({ match, fault: { status: 418 } })
    const body = method === 'PUT' ? { active: true } : undefined
    expect((await call(method as string, path as string, { apiKey, body })).status).toBe(418)
    expect(
      (await call(otherMethod as string, otherPath as string, { apiKey: otherKey })).status
    ).not.toBe(418)
  }
)

test('a fixed delay holds the answer for about that long, then the route answers', async () => {
  const { call, addRule } = setup()
  await addRule({ match: { path: '/v1/topics' }, delay: 50 })
  const started = performance.now()
  const res = await call('GET', '/v1/topics')
  const elapsed = performance.now() - started
  expect(res.status).toBe(200)
  // A floor only: a loaded machine makes any delay longer, and one that never ended would fail
  // the test by its timeout.
  expect(elapsed).toBeGreaterThanOrEqual(45)
})

test('a uniform delay stays within its bounds', async () => {
  const { call, addRule, app } = setup()
  await addRule({ match: {}, delay: { distribution: 'uniform', min: 40, max: 80 } })
  for (let i = 0; i < 3; i++) {
    const started = performance.now()
    expect((await call('GET', '/v1/topics')).status).toBe(200)
    // A floor only: a loaded machine makes any delay longer.
    expect(performance.now() - started).toBeGreaterThanOrEqual(35)
  }
  // The delays drawn, as the journal records them: the ceiling, without a clock.
  const journal = (await read(await app.request('/__admin/requests?path=/v1/topics'))).data as {
    delayMs: number
  }[]
  expect(journal).toHaveLength(3)
  for (const { delayMs } of journal) {
    expect(delayMs).toBeGreaterThanOrEqual(40)
    expect(delayMs).toBeLessThanOrEqual(80)
  }
})

test('the global latency delays every Novu route, on top of a rule delay', async () => {
  const { call, addRule, app } = setup()
  const set = await app.request('/__admin/latency', {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ms: 50 }),
  })
  expect(set.status).toBe(200)
  let started = performance.now()
  expect((await call('GET', '/v1/topics')).status).toBe(200)
  expect(performance.now() - started).toBeGreaterThanOrEqual(45)
  await addRule({ match: { method: 'PUT' }, delay: 50 })
  started = performance.now()
  expect((await call('PUT', STATUS, { body: { active: true } })).status).toBe(200)
  expect(performance.now() - started).toBeGreaterThanOrEqual(95)
})

test('a delayed call does not hold up the others', async () => {
  const { call, addRule } = setup()
  expect((await call('GET', '/v1/topics')).status).toBe(200) // builds the environment first
  await addRule({ match: { path: '/v1/topics', query: { slow: '1' } }, delay: 500 })
  let slowDone = false
  const slow = Promise.resolve(call('GET', '/v1/topics?slow=1')).then((res) => {
    slowDone = true
    return res
  })
  expect((await call('GET', '/v1/topics')).status).toBe(200)
  expect(slowDone).toBe(false)
  expect((await slow).status).toBe(200)
})

test('malformed answers 200 with a JSON content type and a body that does not parse, without running the route', async () => {
  const { call, addRule } = setup()
  await addRule({ match: { method: 'DELETE' }, fault: { network: 'malformed' }, times: 1 })
  const res = await call('DELETE', TX)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
  const text = await res.text()
  expect(text).toBe(MALFORMED_BODY)
  expect(() => JSON.parse(text)).toThrow(SyntaxError)
  expect((await call('DELETE', TX)).status).toBe(204)
})

test('slow-body sends the real answer in chunks spaced by intervalMs', async () => {
  const { call, addRule } = setup()
  const expected = await (await call('GET', '/v1/topics')).text()
  await addRule({
    match: { path: '/v1/topics' },
    fault: { network: 'slow-body', chunkBytes: Math.ceil(expected.length / 4), intervalMs: 25 },
  })
  const started = performance.now()
  const res = await call('GET', '/v1/topics')
  expect(res.status).toBe(200)
  expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(expected)))
  const chunks: Uint8Array[] = []
  for await (const chunk of res.body as ReadableStream<Uint8Array>) chunks.push(chunk)
  expect(performance.now() - started).toBeGreaterThanOrEqual(4 * 25 - 10)
  expect(chunks.length).toBeGreaterThanOrEqual(4)
  expect(Buffer.concat(chunks).toString()).toBe(expected)
})

test.each(['reset', 'empty', 'hang'])(
  'a %s fault under app.request() answers a 500 that says it needs a real socket',
  async (network) => {
    const { call, addRule } = setup()
    await addRule({ match: {}, fault: { network } })
    const res = await call('GET', '/v1/topics')
    expect(res.status).toBe(500)
    expect(await read(res)).toMatchObject({
      statusCode: 500,
      message: `The "${network}" network fault needs a real socket: start the mock with startMock() or the CLI (app.request() has none).`,
      error: 'Internal Server Error',
    })
  }
)

test('the journal records the rule that fired and the fault it caused', async () => {
  const { call, addRule, state } = setup()
  await addRule({ match: { path: '/v1/topics' }, fault: { status: 503 }, times: 1 })
  await addRule({ id: 'broken-json', match: { method: 'DELETE' }, fault: { network: 'malformed' } })
  await call('GET', '/v1/topics')
  await call('GET', '/v1/topics')
  await call('DELETE', TX)
  expect(state.journal.list().map(({ status, rule, fault }) => ({ status, rule, fault }))).toEqual([
    { status: 200, rule: 'broken-json', fault: 'malformed' },
    { status: 200, rule: undefined, fault: undefined },
    { status: 503, rule: 'rule-1', fault: undefined },
  ])
})

test('a rule skipped by its probability or after count leaves the call to older rules', async () => {
  const { call, addRule } = setup()
  await addRule({ match: { path: '/v1/topics' }, fault: { status: 500 } })
  await addRule({ match: { path: '/v1/topics' }, fault: { status: 429 }, after: 1 })
  await addRule({ match: { path: '/v1/topics' }, fault: { status: 503 }, probability: 0 })
  expect(await statuses([1, 2].map(() => () => call('GET', '/v1/topics')))).toEqual([500, 429])
})
