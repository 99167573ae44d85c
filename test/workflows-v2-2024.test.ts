import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import { request, withoutTimestamp } from './helpers.js'

// The 2024-10 server (novu-api-facts.md §4): /v2/workflows was the dashboard's controller, not
// ExternalApiAccessible, so its guard refused the ApiKey scheme before looking the key up; it
// had no PATCH route.

const old = () => createMock({ seed: 'v2-old', apiGeneration: '2024-10' }).app

describe('/v2/workflows in the 2024-10 generation', () => {
  test.each([
    ['POST', '/v2/workflows', {}],
    ['GET', '/v2/workflows', undefined],
    ['GET', '/v2/workflows/welcome-email', undefined],
    ['PUT', '/v2/workflows/welcome-email', {}],
    ['DELETE', '/v2/workflows/welcome-email', undefined],
  ])('%s %s refuses an API key with 401 API endpoint not available', async (method, path, body) => {
    const res = await request(old(), method, path, { body })
    expect(res.status).toBe(401)
    expect(withoutTimestamp(res.body)).toEqual({
      statusCode: 401,
      path,
      message: 'API endpoint not available',
      error: 'Unauthorized',
    })
  })

  test('PATCH did not exist: Express answers 404 before any guard', async () => {
    const res = await request(old(), 'PATCH', '/v2/workflows/welcome-email', {
      body: { active: false },
    })
    expect(res.status).toBe(404)
    expect(res.body.message).toBe('Cannot PATCH /v2/workflows/welcome-email')
  })

  test('without an Authorization header the guard answers its usual 401', async () => {
    const res = await request(old(), 'GET', '/v2/workflows', { key: null })
    expect(res.body.message).toBe('Missing authorization header')
  })

  test('the refusal comes before the key is looked up: a strict scenario refuses unknown keys the same way', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'novu-mock-v2-'))
    const file = join(dir, 'strict.json')
    writeFileSync(
      file,
      JSON.stringify({
        name: 'strict',
        fixture: 'default',
        apiGeneration: '2024-10',
        environments: { strict: true, keys: [{ apiKey: 'declared' }] },
      })
    )
    try {
      const { app } = createMock({ scenario: file })
      const res = await request(app, 'GET', '/v2/workflows', { key: 'undeclared' })
      expect(res.body.message).toBe('API endpoint not available')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('a body over 100 kB is refused with 413 before the guard: the route had no larger limit', async () => {
    const res = await request(old(), 'POST', '/v2/workflows', {
      body: { name: 'x'.repeat(101 * 1024) },
    })
    expect(res.status).toBe(413)
  })

  test('a key of the other generation beside it answers /v2/workflows', async () => {
    const { app, admin } = createMock({ seed: 'v2-mixed' })
    await admin.loadScenario({
      name: 'mixed',
      fixture: 'default',
      environments: { keys: [{ apiKey: 'old-server', apiGeneration: '2024-10' }] },
    })
    expect((await request(app, 'GET', '/v2/workflows', { key: 'old-server' })).status).toBe(401)
    expect((await request(app, 'GET', '/v2/workflows', { key: 'new-server' })).status).toBe(200)
  })

  test('the OpenAPI document leaves PATCH out and keeps the other routes', async () => {
    const res = await request(old(), 'GET', '/__admin/openapi.json')
    expect(Object.keys(res.body.paths['/v2/workflows/{workflowId}'])).toEqual([
      'get',
      'put',
      'delete',
    ])
  })

  test('GET /v1/workflows lists a dashboard workflow imported into the environment', async () => {
    const fresh = createMock({ seed: 'v2-import' })
    const created = await request(fresh.app, 'POST', '/v2/workflows', {
      body: { name: 'Imported', workflowId: 'imported', steps: [] },
    })
    const exported = await fresh.admin.exportState('test-key')
    const { app, admin } = createMock({ seed: 'v2-import', apiGeneration: '2024-10' })
    await admin.importState('test-key', exported)
    const v1 = await request(app, 'GET', '/v1/workflows?limit=100')
    expect(v1.body.data.map((w: { _id: string }) => w._id)).toContain(created.body.data._id)
  })
})
