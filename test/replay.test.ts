import { expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import { loadReplayScript, parseReplayScript, runReplay } from '../src/replay/index.js'
import { closedTarget, startTestMock } from './replay-helpers.js'

const SCRIPTS = 'scenarios/scripts'

test('replays the onboarding script green against a fresh mock', async () => {
  const mock = await startTestMock()
  const report = await runReplay(await loadReplayScript(`${SCRIPTS}/onboarding.yaml`), {
    target: mock.url,
  })
  expect(report.steps.flatMap((s) => s.failures)).toEqual([])
  expect(report).toMatchObject({ name: 'onboarding', passed: 9, failed: 0, skipped: 0 })
})

test('replays the retry-under-faults script green, faults and reset included', async () => {
  const mock = await startTestMock()
  const report = await runReplay(await loadReplayScript(`${SCRIPTS}/retry-under-faults.yaml`), {
    target: mock.url,
  })
  expect(report.steps.flatMap((s) => s.failures)).toEqual([])
  expect(report.steps.map((s) => s.status)).toEqual([200, 201, 503, 503, 200, 201, 429, 200, 200])
})

test('reports a wrong status and body field with what differed', async () => {
  const mock = await startTestMock()
  const script = parseReplayScript({
    name: 'wrong',
    steps: [
      {
        request: {
          method: 'PUT',
          path: '/v1/workflows/66fbb0a0c1f2e3d4a5b61001/status',
          body: { active: true },
        },
        expect: { status: 200, body: { data: { active: true } } },
      },
    ],
  })
  const report = await runReplay(script, { target: mock.url, apiKey: 'k' })
  expect(report.failed).toBe(1)
  expect(report.steps[0]?.failures).toEqual([
    'status: expected 200, got 400',
    'body.data: expected an object, got (missing)',
  ])
})

test('reports a header that does not match its regex', async () => {
  const mock = await startTestMock()
  const script = parseReplayScript({
    name: 'header',
    steps: [
      {
        request: { method: 'GET', path: '/v1/topics' },
        expect: { headers: { 'Content-Type': '/html/' } },
      },
    ],
  })
  const report = await runReplay(script, { target: mock.url, apiKey: 'k' })
  expect(report.steps[0]?.failures).toEqual([
    'header content-type: expected /html/, got application/json; charset=utf-8',
  ])
})

test('saves values and substitutes them into later paths and bodies, keeping their type', async () => {
  const mock = await startTestMock()
  const script = parseReplayScript({
    name: 'captures',
    steps: [
      {
        request: { method: 'GET', path: '/v1/workflows?query=Welcome' },
        save: { id: '$.data[0]._id', active: '$.data[0].active' },
      },
      {
        request: {
          method: 'PUT',
          path: '/v1/workflows/{{id}}/status',
          body: { active: '{{active}}' },
        },
      },
      {
        request: { method: 'GET', path: '/v1/workflows/{{id}}' },
        expect: {
          status: 200,
          body: { data: { _id: '{{id}}', _notificationGroupId: '/^66fbb0a0/' } },
        },
      },
    ],
  })
  const report = await runReplay(script, { target: mock.url, apiKey: 'k' })
  expect(report.steps[1]?.path).toBe('/v1/workflows/66fbb0a0c1f2e3d4a5b61001/status')
  // A whole-string placeholder sends the saved boolean, not the string "true".
  expect(mock.state.journal.list({ method: 'PUT' })[0]?.body).toBe('{"active":true}')
  expect(report.steps[2]).toMatchObject({ ok: true, status: 200 })
})

test('does not send a step whose path names a variable no step saved', async () => {
  const mock = await startTestMock()
  const script = parseReplayScript({
    name: 'missing',
    steps: [
      { request: { method: 'GET', path: '/v1/topics' }, save: { id: '$.data[99]._id' } },
      { request: { method: 'GET', path: '/v1/workflows/{{id}}' } },
    ],
  })
  const report = await runReplay(script, { target: mock.url, apiKey: 'k' })
  expect(report.steps.map((s) => s.failures)).toEqual([
    ['save id: $.data[99]._id is not in the response'],
    ['not sent: variable "id" is not defined (no earlier step saved it)'],
  ])
  expect(mock.state.journal.count({ path: '/v1/workflows/*' })).toBe(0)
})

test('reports a network error as a failed step and goes on', async () => {
  const script = parseReplayScript({
    name: 'offline',
    steps: [
      { request: { method: 'GET', path: '/v1/topics' } },
      { request: { method: 'GET', path: '/v1/messages' } },
    ],
  })
  const report = await runReplay(script, { target: await closedTarget() })
  expect(report).toMatchObject({ passed: 0, failed: 2 })
  expect(report.steps[0]).toMatchObject({ status: 0, ok: false })
  expect(report.steps[0]?.failures[0]).toMatch(/^network: fetch failed: .*ECONNREFUSED/)
})

test('marks admin steps skipped with skipAdmin and counts them apart', async () => {
  const mock = await startTestMock()
  const script = parseReplayScript({
    name: 'skip',
    steps: [
      { admin: { reset: true } },
      { request: { method: 'GET', path: '/v1/topics' }, expect: { status: 200 } },
    ],
  })
  const report = await runReplay(script, { target: mock.url, apiKey: 'k', skipAdmin: true })
  expect(report).toMatchObject({ passed: 1, failed: 0, skipped: 1 })
  expect(report.steps[0]).toMatchObject({ skipped: true, ok: true, path: '/__admin/reset' })
})

test('sends the admin token as a Bearer token on admin steps', async () => {
  const mock = await startTestMock({ adminToken: 'secret' })
  const script = parseReplayScript({
    name: 'admin',
    steps: [{ admin: { reset: { apiKey: 'k' } } }],
  })
  const withToken = await runReplay(script, { target: mock.url, adminToken: 'secret' })
  const without = await runReplay(script, { target: mock.url })
  expect(withToken.steps[0]).toMatchObject({
    ok: true,
    status: 200,
    path: '/__admin/reset?apiKey=k',
  })
  expect(without.steps[0]?.failures[0]).toMatch(
    /^admin reset: expected 2xx, got 401: Admin routes need/
  )
})

test('sends an admin token beyond latin1 as the admin client does', async () => {
  const mock = await startTestMock({ adminToken: 'clé-秘密-🔑' })
  const script = parseReplayScript({
    name: 'admin',
    steps: [{ admin: { reset: { apiKey: 'k' } } }],
  })
  const report = await runReplay(script, { target: mock.url, adminToken: 'clé-秘密-🔑' })
  expect(report.steps[0]).toMatchObject({ ok: true, status: 200 })
})

test("lets a step's own Authorization header win over the API key, or drop it with null", async () => {
  const mock = await startTestMock()
  const script = parseReplayScript({
    name: 'auth',
    apiKey: 'from-script',
    steps: [
      {
        request: { method: 'GET', path: '/v1/topics', headers: { Authorization: null } },
        expect: { status: 401 },
      },
      {
        request: { method: 'GET', path: '/v1/topics', headers: { authorization: 'ApiKey own' } },
        expect: { status: 200 },
      },
      { request: { method: 'GET', path: '/v1/topics' }, expect: { status: 200 } },
    ],
  })
  const report = await runReplay(script, { target: mock.url, apiKey: 'from-cli' })
  expect(report.failed).toBe(0)
  expect(mock.state.journal.list().map((e) => e.headers.authorization)).toEqual([
    'ApiKey fr…',
    'ApiKey ow…',
    undefined,
  ])
})

test('replays in process through an injected fetch, without a socket', async () => {
  const { app } = createMock({ apiGeneration: '2024-10', logLevel: 'silent' })
  const report = await runReplay(await loadReplayScript(`${SCRIPTS}/onboarding.yaml`), {
    target: 'http://novu-mock.local',
    fetch: async (input, init) =>
      app.request(input instanceof Request ? input : String(input), init),
  })
  expect(report).toMatchObject({ passed: 9, failed: 0 })
})

test('a capture saved as __proto__ is ignored and reaches no prototype', async () => {
  const mock = await startTestMock()
  const script = parseReplayScript(
    JSON.parse(
      JSON.stringify({
        name: 'proto-capture',
        steps: [
          { request: { method: 'GET', path: '/v1/workflows' }, save: { proto: '$.data[0]' } },
          { request: { method: 'GET', path: '/v1/workflows/{{__proto__}}' } },
        ],
      }).replace('"proto":', '"__proto__":')
    )
  )
  const report = await runReplay(script, { target: mock.url, apiKey: 'k' })
  expect(report.steps[0]).toMatchObject({ ok: true, status: 200 })
  expect(({} as Record<string, unknown>)._id).toBeUndefined()
  expect(report.steps[1]?.failures).toEqual([
    'not sent: variable "__proto__" is not defined (no earlier step saved it)',
  ])
})
