import { describe, expect, test } from 'vitest'
import { createMock } from './mock.js'

// The generation is fixed before the first step: the steps before authentication (chaos, body,
// the route's 404) answer in the key's generation as the route itself does. A 2026-08 mock with
// one key pinned to 2024-10; 2024-10's error bodies carry no `ctx`.

async function mixedMock() {
  const mock = createMock({ seed: 'serve', logLevel: 'silent' })
  await mock.admin.loadScenario({
    name: 'mixed',
    fixture: 'default',
    environments: { keys: [{ apiKey: 'old-server', apiGeneration: '2024-10' }] },
  })
  return mock
}

type Mock = Awaited<ReturnType<typeof mixedMock>>

const send = async (mock: Mock, key: string, method: string, path: string, body?: string) =>
  await mock.app.request(path, {
    method,
    headers: { Authorization: `ApiKey ${key}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body }),
  })

const steps: {
  step: string
  status: number
  ask: (mock: Mock, key: string) => Promise<Response>
}[] = [
  {
    step: 'the 404 of a path no route serves',
    status: 404,
    ask: (mock, key) => send(mock, key, 'GET', '/v1/no-such-route'),
  },
  {
    step: 'the body step, refusing malformed JSON',
    status: 400,
    ask: (mock, key) => send(mock, key, 'POST', '/v1/topics', '{"key": '),
  },
  {
    step: 'a chaos fault, before any environment exists',
    status: 503,
    ask: async (mock, key) => {
      const rule = { match: { path: '/v1/topics' }, fault: { status: 503 } }
      const added = await send(mock, key, 'POST', '/__admin/rules', JSON.stringify(rule))
      expect(added.status).toBe(201)
      return send(mock, key, 'GET', '/v1/topics')
    },
  },
]

describe.each(steps)('$step', ({ status, ask }) => {
  test('answers in the generation the key is pinned to', async () => {
    const res = await ask(await mixedMock(), 'old-server')
    expect(res.status).toBe(status)
    const body: unknown = await res.json()
    expect(body).toHaveProperty('statusCode', status)
    expect(body).not.toHaveProperty('ctx')
  })

  test("answers in the mock's generation for any other key", async () => {
    const res = await ask(await mixedMock(), 'any-other')
    expect(res.status).toBe(status)
    expect(await res.json()).toHaveProperty('ctx.statusCode', status)
  })
})
