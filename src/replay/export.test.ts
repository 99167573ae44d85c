import { expect, test } from 'vitest'
import { parse } from 'yaml'
import type { JournalEntry } from '../journal/journal.js'
import { journalToScript, scriptToYaml } from './export.js'
import { parseReplayScript } from './load.js'

let nextId = 1
const entry = (over: Partial<JournalEntry>): JournalEntry => ({
  id: nextId++,
  at: '2024-10-01T09:00:00.000Z',
  method: 'GET',
  path: '/v1/topics',
  query: {},
  headers: { authorization: 'ApiKey te…', host: '127.0.0.1:4000', 'user-agent': 'node' },
  status: 200,
  durationMs: 1,
  matched: true,
  ...over,
})

test('puts newest-first entries back in the order they came', () => {
  const first = entry({ path: '/v1/topics' })
  const second = entry({ path: '/v1/workflows' })
  const script = journalToScript([second, first])
  expect(script.steps.slice(1).map((s) => s.request?.path)).toEqual(['/v1/topics', '/v1/workflows'])
})

test('rebuilds the query, keeps the JSON body and expects the recorded status', () => {
  const script = journalToScript([
    entry({
      method: 'POST',
      path: '/v1/workflows',
      query: { a: '1', tag: ['x', 'y z'] },
      headers: {
        authorization: 'ApiKey te…',
        'content-type': 'application/json',
        'idempotency-key': 'k1',
      },
      body: '{"name":"W"}',
      status: 201,
    }),
  ])
  expect(script.steps[1]).toEqual({
    request: {
      method: 'POST',
      path: '/v1/workflows?a=1&tag=x&tag=y+z',
      headers: { 'idempotency-key': 'k1' },
      body: { name: 'W' },
    },
    expect: { status: 201 },
  })
})

test('sends no Authorization where the recorded request had none', () => {
  const script = journalToScript([entry({ headers: {}, status: 401 })])
  expect(script.steps[1]?.request?.headers).toEqual({ Authorization: null })
})

test('leaves out a truncated body and says so', () => {
  const step = journalToScript([entry({ method: 'POST', body: '{"a":', bodyTruncated: true })])
    .steps[1]
  expect(step?.request?.body).toBeUndefined()
  expect(step?.description).toMatch(/only the start of the body/)
})

test('leaves out a call a connection fault cut off, and says so in the description', () => {
  const script = journalToScript([
    entry({
      path: '/v1/topics',
      status: 0,
      fault: 'reset',
      rule: 'rule-1',
      outcome: { network: 'reset' },
    }),
  ])
  expect(script.steps.filter((s) => s.request)).toEqual([])
  expect(script.description).toMatch(/Left out: GET \/v1\/topics .*reset fault/)
})

test('starts with a reset of the replay key', () => {
  const script = journalToScript([entry({})])
  expect(script.steps[0]).toMatchObject({ admin: { reset: { apiKey: '{{apiKey}}' } } })
})

test('saves an id from the answer that carried it and sends it by name afterwards', () => {
  const id = '0123456789abcdef01234567'
  const script = journalToScript([
    entry({
      method: 'POST',
      path: '/v1/workflows',
      status: 201,
      responseIds: { '$.data._id': id },
    }),
    entry({
      method: 'PUT',
      path: `/v1/workflows/${id}/status`,
      body: `{"active":true,"again":"${id}"}`,
    }),
  ])
  expect(script.steps[1]?.save).toEqual({ workflowId: '$.data._id' })
  expect(script.steps[2]?.request).toMatchObject({
    path: '/v1/workflows/{{workflowId}}/status',
    body: { active: true, again: '{{workflowId}}' },
  })
})

test('keeps an id no answer carried as it is, and saves nothing for it', () => {
  const id = '66fbb0a0c1f2e3d4a5b60001'
  const script = journalToScript([entry({ path: `/v1/notification-groups/${id}` })])
  expect(script.steps[1]?.request?.path).toBe(`/v1/notification-groups/${id}`)
  expect(script.steps.some((s) => s.save)).toBe(false)
})

test('precedes a call a chaos rule answered with a one-shot rule for the replay key', () => {
  const script = journalToScript([
    entry({
      status: 503,
      rule: 'rule-4',
      outcome: { status: 503, headers: { 'Retry-After': '1' } },
    }),
  ])
  expect(script.steps[1]?.admin?.addRule).toMatchObject({
    match: { method: 'GET', path: '/v1/topics', apiKey: '{{apiKey}}' },
    fault: { status: 503, headers: { 'Retry-After': '1' } },
    times: 1,
  })
  expect(script.steps[2]).toMatchObject({ mockOnly: true, expect: { status: 503 } })
})

test('leaves admin requests out', () => {
  const script = journalToScript([entry({ path: '/__admin/reset', method: 'POST' }), entry({})])
  expect(script.steps.filter((s) => s.request)).toHaveLength(1)
})

test('writes YAML that parses back to a valid, equal script', () => {
  const script = journalToScript(
    [entry({ method: 'POST', body: '{"content":"Hi {{firstName}}"}' })],
    {
      name: 'session',
    }
  )
  const yaml = scriptToYaml(script)
  expect(yaml.startsWith('# Run it: novu-mock replay')).toBe(true)
  expect(parseReplayScript(parse(yaml))).toEqual(script)
})
