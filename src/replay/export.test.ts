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
  expect(script.steps.map((s) => s.request?.path)).toEqual(['/v1/topics', '/v1/workflows'])
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
  expect(script.steps[0]).toEqual({
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
  expect(script.steps[0]?.request?.headers).toEqual({ Authorization: null })
})

test('leaves out a truncated body and says so', () => {
  const step = journalToScript([entry({ method: 'POST', body: '{"a":', bodyTruncated: true })])
    .steps[0]
  expect(step?.request?.body).toBeUndefined()
  expect(step?.description).toMatch(/only the start of the body/)
})

test('expects nothing of a request the mock answered with a network fault', () => {
  const step = journalToScript([entry({ status: 0, fault: 'reset', rule: 'rule-1' })]).steps[0]
  expect(step?.expect).toBeUndefined()
  expect(step?.description).toMatch(/network fault \(reset\)/)
})

test('leaves admin requests out', () => {
  const script = journalToScript([entry({ path: '/__admin/reset', method: 'POST' }), entry({})])
  expect(script.steps).toHaveLength(1)
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
