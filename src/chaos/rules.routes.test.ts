import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import type { Hono } from 'hono'
import { createMock } from '../mock.js'

type App = Hono<never>
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const read = (res: Response): Promise<any> => res.json()
const send = (app: App, method: string, path: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
const addRule = (app: App, rule: unknown) => send(app, 'POST', '/__admin/rules', rule)
const mock = (options: { maxRules?: number } = {}) =>
  createMock({ apiGeneration: '2024-10', seed: 'chaos', logLevel: 'silent', ...options })
    .app as unknown as App

const unavailable = { match: { path: '/v1/topics' }, fault: { status: 503 } }

test('adds a rule with a generated id and answers 201 with it and its counters', async () => {
  const app = mock()
  const res = await addRule(app, unavailable)
  expect(res.status).toBe(201)
  expect(await read(res)).toEqual({
    data: { id: 'rule-1', source: 'admin', ...unavailable, matched: 0, fired: 0, remaining: {} },
  })
})

test('numbers rules rule-1, rule-2 and keeps an id the rule brings', async () => {
  const app = mock()
  await addRule(app, unavailable)
  await addRule(app, { ...unavailable, id: 'topics-down' })
  await addRule(app, unavailable)
  const body = await read(await app.request('/__admin/rules'))
  expect(body.data.map((r: { id: string }) => r.id)).toEqual(['rule-2', 'topics-down', 'rule-1'])
})

test('lists rules newest first with what is left of times, after and sequence', async () => {
  const app = mock()
  await addRule(app, { match: { path: '/v1/topics' }, fault: { status: 500 }, times: 3, after: 1 })
  await addRule(app, { match: { path: '/v1/topics' }, sequence: [{ status: 503 }, { pass: true }] })
  await app.request('/v1/topics', { headers: { Authorization: 'ApiKey k' } })
  const body = await read(await app.request('/__admin/rules'))
  expect(body).toMatchObject({
    maxRules: 1000,
    data: [
      { id: 'rule-2', matched: 1, fired: 1, remaining: { sequence: 1 } },
      { id: 'rule-1', matched: 0, fired: 0, remaining: { times: 3, after: 1 } },
    ],
  })
})

test('answers 409 in the Novu shape for an id that is taken', async () => {
  const app = mock()
  await addRule(app, { ...unavailable, id: 'dup' })
  const res = await addRule(app, { ...unavailable, id: 'dup' })
  expect(res.status).toBe(409)
  expect(await read(res)).toMatchObject({
    statusCode: 409,
    path: '/__admin/rules',
    message: 'A rule with id "dup" already exists: delete it first or pick another id.',
    error: 'Conflict',
  })
})

test('answers 400 in the Novu shape with every problem of an invalid rule and its path', async () => {
  const app = mock()
  const res = await addRule(app, {
    match: { path: 'v1/topics', method: 'FETCH' },
    fault: { status: 200 },
    probability: 2,
    extra: true,
  })
  expect(res.status).toBe(400)
  expect(await read(res)).toEqual({
    statusCode: 400,
    timestamp: expect.any(String),
    path: '/__admin/rules',
    message: [
      'match.method: must be one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS',
      'match.path: must start with "/" (or be "*")',
      'fault.status: must be at least 400',
      'probability: must be at most 1',
      'unknown field "extra"',
    ],
    error: 'Bad Request',
  })
})

test.each([
  [{}, ['match: is required']],
  [{ match: {} }, ['a rule needs a "delay", a "fault" or a "sequence"']],
  [[1], ['a rule is a JSON object such as {"match":{"path":"/v1/topics"},"fault":{"status":503}}']],
  [
    { match: {}, delay: 'slow' },
    ['delay: must be a number of ms or an object with a "distribution"'],
  ],
  [
    { match: {}, delay: { distribution: 'pareto' } },
    [
      'delay: needs "distribution": "fixed" (ms), "uniform" (min, max), "normal" (mean, stddev) or "lognormal" (median, sigma)',
    ],
  ],
  [{ match: {}, delay: { distribution: 'uniform', min: 50 } }, ['delay.max: is required']],
  [
    { match: {}, delay: { distribution: 'uniform', min: 50, max: 10 } },
    ['delay.max: must be at least min'],
  ],
  [{ match: {}, delay: 700_000 }, ['delay: must be at most 600000']],
  [
    { match: {}, fault: {} },
    [
      'fault: needs exactly one of "status" (400-599) or "network" (reset, empty, hang, malformed, slow-body)',
    ],
  ],
  [
    { match: {}, fault: { network: 'reset', chunkBytes: 4 } },
    ['fault.chunkBytes: goes only with "network": "slow-body"'],
  ],
  [
    { match: {}, fault: { network: 'teleport' } },
    [
      'fault.network: Invalid option: expected one of "reset"|"empty"|"hang"|"malformed"|"slow-body"',
    ],
  ],
  [
    { match: {}, fault: { status: 503, headers: { 'Bad Name': 'x' } } },
    ["fault.headers.Bad Name: a header name is letters, digits and !#$%&'*+.^_`|~-"],
  ],
  [
    { match: {}, fault: { status: 503 }, sequence: [{ status: 503 }] },
    ['sequence: give either "fault" or "sequence", not both'],
  ],
  [
    { match: {}, sequence: [{ status: 503 }, { pass: false }] },
    ['sequence.1.pass: Invalid input: expected true'],
  ],
  [
    { match: {}, sequence: [{ pass: true, status: 503 }] },
    [
      'sequence.0: needs exactly one of "status" (400-599), "network" (reset, empty, hang, malformed, slow-body) or "pass": true',
    ],
  ],
  [{ match: { method: [] }, delay: 1 }, ['match.method: needs at least 1 item(s)']],
  [
    { match: { path: '/v1/topics?page=1' }, delay: 1 },
    ['match.path: must not hold a query string: use match.query'],
  ],
  [{ match: {}, delay: 1, times: 0 }, ['times: must be at least 1']],
  [{ match: {}, delay: 1, after: 1.5 }, ['after: must be a whole number']],
  [{ id: 'a b', match: {}, delay: 1 }, ['id: letters, digits, ".", "_", ":" and "-", at most 128']],
])('refuses %j with a 400 that says %j', async (rule, message) => {
  const res = await addRule(mock(), rule)
  expect(res.status).toBe(400)
  expect(await read(res)).toMatchObject({ statusCode: 400, message, error: 'Bad Request' })
})

test('answers 400 once maxRules rules exist', async () => {
  const app = mock({ maxRules: 2 })
  expect((await addRule(app, unavailable)).status).toBe(201)
  expect((await addRule(app, unavailable)).status).toBe(201)
  const res = await addRule(app, unavailable)
  expect(res.status).toBe(400)
  expect(await read(res)).toMatchObject({
    statusCode: 400,
    message:
      'Too many rules: the limit is 2 (option maxRules). Remove some with DELETE /__admin/rules/:id or DELETE /__admin/rules.',
    error: 'Bad Request',
  })
})

test('deletes a rule by id and answers with it', async () => {
  const app = mock()
  await addRule(app, unavailable)
  const res = await send(app, 'DELETE', '/__admin/rules/rule-1')
  expect(res.status).toBe(200)
  expect(await read(res)).toMatchObject({ data: { id: 'rule-1', fault: { status: 503 } } })
  expect((await read(await app.request('/__admin/rules'))).data).toEqual([])
})

test('answers 404 in the Novu shape for an unknown rule id', async () => {
  const res = await send(mock(), 'DELETE', '/__admin/rules/rule-9')
  expect(res.status).toBe(404)
  expect(await read(res)).toEqual({
    statusCode: 404,
    timestamp: expect.any(String),
    path: '/__admin/rules/rule-9',
    message: 'No rule with id "rule-9". GET /__admin/rules lists the rules.',
    error: 'Not Found',
  })
})

test('DELETE /__admin/rules removes every rule and says how many', async () => {
  const app = mock()
  await addRule(app, unavailable)
  await addRule(app, unavailable)
  const res = await send(app, 'DELETE', '/__admin/rules')
  expect(res.status).toBe(200)
  expect(await read(res)).toEqual({ data: { removed: 2 } })
  expect((await read(await app.request('/__admin/rules'))).data).toEqual([])
})

test('PUT /__admin/latency sets the global latency and GET shows it', async () => {
  const app = mock()
  expect(await read(await app.request('/__admin/latency'))).toEqual({ data: { ms: 0 } })
  const res = await send(app, 'PUT', '/__admin/latency', { ms: 120 })
  expect(res.status).toBe(200)
  expect(await read(res)).toEqual({ data: { ms: 120 } })
  expect(await read(await app.request('/__admin/latency'))).toEqual({ data: { ms: 120 } })
})

test('PUT /__admin/latency refuses a negative latency', async () => {
  const res = await send(mock(), 'PUT', '/__admin/latency', { ms: -5 })
  expect(res.status).toBe(400)
  expect(await read(res)).toMatchObject({
    statusCode: 400,
    message: [expect.stringMatching(/^ms: /)],
  })
})

test('admin routes are never faulted, even by a rule that matches every path', async () => {
  const app = mock()
  await addRule(app, { match: { path: '*' }, fault: { status: 503 } })
  expect((await app.request('/__admin/rules')).status).toBe(200)
  expect((await app.request('/v1/topics', { headers: { Authorization: 'ApiKey k' } })).status).toBe(
    503
  )
})

test("a scenario's rules are active from the start and come back fresh on reset, without added ones", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'novu-mock-chaos-'))
  const file = join(dir, 'flaky.json')
  writeFileSync(
    file,
    JSON.stringify({
      name: 'flaky',
      rules: [{ match: { path: '/v1/topics' }, fault: { status: 502 }, times: 5 }],
    })
  )
  try {
    const { app: hono, state } = createMock({
      apiGeneration: '2024-10',
      scenario: file,
      logLevel: 'silent',
    })
    const app = hono as unknown as App
    expect(
      (await app.request('/v1/topics', { headers: { Authorization: 'ApiKey k' } })).status
    ).toBe(502)
    await addRule(app, unavailable)
    state.rules.resetTo(state.scenario.rules)
    expect((await read(await app.request('/__admin/rules'))).data).toEqual([
      expect.objectContaining({
        id: 'rule-1',
        source: 'scenario',
        matched: 0,
        fired: 0,
        remaining: { times: 5 },
      }),
    ])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('resetTo refuses a bad scenario rule and keeps the rules it had', async () => {
  const { app: hono, state } = createMock({ apiGeneration: '2024-10', logLevel: 'silent' })
  await addRule(hono as unknown as App, unavailable)
  expect(() =>
    state.rules.resetTo([
      { match: {}, delay: 1 },
      { match: {}, fault: { status: 42 } },
    ])
  ).toThrow('rules[1]: fault.status: must be at least 400')
  expect(state.rules.list().map((r) => r.id)).toEqual(['rule-1'])
})

test('the OpenAPI document describes the rule body', async () => {
  const doc = await read(await mock().request('/__admin/openapi.json'))
  const schema = doc.paths['/__admin/rules'].post.requestBody.content['application/json'].schema
  expect(schema).toMatchObject({ type: 'object', required: ['match'] })
  expect(Object.keys(schema.properties)).toEqual(
    expect.arrayContaining(['match', 'delay', 'fault', 'probability', 'times', 'after', 'sequence'])
  )
  expect(schema.properties.delay.anyOf).toHaveLength(5)
})

test('an automatic id skips the ids that other scenario rules declare', () => {
  const { state } = createMock({ apiGeneration: '2024-10', logLevel: 'silent' })
  state.rules.resetTo([
    { match: {}, delay: 1 },
    { id: 'rule-1', match: {}, delay: 2 },
  ])
  expect(state.rules.list().map((r) => [r.id, r.delay])).toEqual([
    ['rule-1', 2],
    ['rule-2', 1],
  ])
})
