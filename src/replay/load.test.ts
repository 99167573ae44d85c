import { expect, test } from 'vitest'
import { parseReplayScript, ReplayScriptError } from './load.js'

function problemsOf(raw: unknown) {
  try {
    parseReplayScript(raw)
  } catch (error) {
    if (error instanceof ReplayScriptError) return error.problems
    throw error
  }
  throw new Error('the script was accepted')
}

test('accepts request steps and every kind of admin step', () => {
  const script = parseReplayScript({
    name: 'ok',
    steps: [
      { request: { method: 'GET', path: '/v1/topics' }, save: { id: '$.data[0]._id' } },
      { admin: { loadScenario: 'default' } },
      { admin: { loadScenario: { name: 'inline' } } },
      { admin: { addRule: { match: { path: '/v1/topics' }, fault: { status: 503 } } } },
      { admin: { reset: { apiKey: 'k' } } },
      { admin: { clearRules: true } },
    ],
  })
  expect(script.steps).toHaveLength(6)
})

test('lists every problem of a script with its path', () => {
  const paths = problemsOf({
    name: '',
    steps: [
      { request: { method: 'FETCH', path: 'v1/topics' } },
      { request: { method: 'GET', path: '/x' }, save: { id: 'data[0]' } },
      { admin: { reset: true, clearRules: true } },
      { request: { method: 'GET', path: '/x' }, admin: { reset: true } },
      { expect: { status: 200 }, extra: 1 },
    ],
  }).map((p) => p.path)
  expect(paths).toEqual(
    expect.arrayContaining([
      'name',
      'steps.0.request.method',
      'steps.0.request.path',
      'steps.1.save.id',
      'steps.2.admin',
      'steps.3',
      'steps.4',
    ])
  )
})

test('puts each problem on its own line in the error message', () => {
  expect(() => parseReplayScript({ name: 'x', steps: [{}] }, 'bad.yaml')).toThrow(
    'bad.yaml is not a valid replay script:\n  steps.0: a step has either "request" or "admin"'
  )
})
