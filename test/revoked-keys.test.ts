import { expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import { request, withoutTimestamp } from './helpers.js'

test.each(['2024-10', '2026-08'] as const)(
  'the default scenario’s invalid-key answers upstream’s 401 API Key not found (%s)',
  async (apiGeneration) => {
    const { app } = createMock({ apiGeneration })
    const res = await request(app, 'GET', '/v1/topics', { key: 'invalid-key' })
    expect(res.status).toBe(401)
    expect(withoutTimestamp(res.body)).toMatchObject({
      statusCode: 401,
      message: 'API Key not found',
      error: 'Unauthorized',
    })
  }
)

test('a revoked key answers 401 on every Novu route, writes included', async () => {
  const { app } = createMock()
  const res = await request(app, 'POST', '/v1/notification-groups', {
    key: 'invalid-key',
    body: { name: 'Nope' },
  })
  expect(res.status).toBe(401)
})

test('a scenario that is not strict can revoke one key and keep every other key working', async () => {
  const { app, admin } = createMock()
  await admin.loadScenario({
    name: 'one-revoked',
    environments: { keys: [{ apiKey: 'old-key', revoked: true }] },
  })
  expect((await request(app, 'GET', '/v1/topics', { key: 'old-key' })).status).toBe(401)
  expect((await request(app, 'GET', '/v1/topics', { key: 'new-key' })).status).toBe(200)
})

test('a revoked key builds no environment', async () => {
  const { app, state } = createMock()
  await request(app, 'GET', '/v1/topics', { key: 'invalid-key' })
  expect(state.environments.peek('invalid-key')).toBeUndefined()
})

test('loading another scenario lifts the default scenario’s revocation', async () => {
  const { app, admin } = createMock()
  await admin.loadScenario('empty')
  expect((await request(app, 'GET', '/v1/topics', { key: 'invalid-key' })).status).toBe(200)
})
