import { describe, expect, test } from 'vitest'
import { createMock } from '../../mock.js'
import { request } from '../../../test/helpers.js'
import {
  createWorkflow,
  GENERATIONS,
  inApp,
  messagesOf,
  trigger,
  triggerMock,
} from '../../../test/trigger-helpers.js'

// Tenants per environment, and a trigger's `tenant` reaching the templates (more facts §1).

type App = ReturnType<typeof triggerMock>['app']
const acme = { identifier: 'acme', name: 'Acme', data: { plan: 'pro' } }
const create = (app: App, body: unknown) => request(app, 'POST', '/v1/tenants', { body })

describe.each(GENERATIONS)('tenants (%s)', (generation) => {
  test('POST creates a tenant and answers 201 with it and its id virtual', async () => {
    const { app } = triggerMock(generation)
    const res = await create(app, acme)
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({ ...acme, __v: 0, id: res.body.data._id })
  })

  test('a taken identifier is 409', async () => {
    const { app } = triggerMock(generation)
    await create(app, acme)
    const res = await create(app, acme)
    expect(res.status).toBe(409)
    expect(res.body.message).toMatch(
      /^Tenant with identifier: acme already exists under environment [0-9a-f]{24}$/
    )
  })

  test('an empty body names both fields', async () => {
    const { app } = triggerMock(generation)
    const res = await create(app, {})
    const messages = [
      'identifier should not be empty',
      'identifier must be a string',
      'name should not be empty',
      'name must be a string',
    ]
    if (generation === '2024-10') expect([res.status, res.body.message]).toEqual([400, messages])
    else {
      expect(res.status).toBe(422)
      expect(res.body.message).toBe(
        'Validation failed for CreateTenantCommand: identifier: identifier should not be empty, identifier must be a string; name: name should not be empty, name must be a string'
      )
    }
  })

  test('GET lists newest first without the id virtual, and pages', async () => {
    const { app } = triggerMock(generation)
    for (const n of [1, 2, 3]) await create(app, { identifier: `t${n}`, name: `T${n}` })
    const res = await request(app, 'GET', '/v1/tenants?limit=2')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ page: 0, hasMore: true, pageSize: 2 })
    expect(res.body.data.map((t: { identifier: string }) => t.identifier)).toEqual(['t3', 't2'])
    expect(res.body.data[0].id).toBeUndefined()
    const over = await request(app, 'GET', '/v1/tenants?limit=101')
    expect(over.text).toContain('limit must not be greater than 100')
  })

  test('PATCH renames and replaces data; DELETE answers 204 and the tenant is gone', async () => {
    const { app } = triggerMock(generation)
    await create(app, acme)
    const res = await request(app, 'PATCH', '/v1/tenants/acme', {
      body: { identifier: 'acme2', data: { plan: 'free' } },
    })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      identifier: 'acme2',
      name: 'Acme',
      data: { plan: 'free' },
    })
    const del = await request(app, 'DELETE', '/v1/tenants/acme2')
    expect([del.status, del.text]).toEqual([204, ''])
    const gone = await request(app, 'GET', '/v1/tenants/acme2')
    expect(gone.status).toBe(404)
    expect(gone.body.message).toMatch(
      /^Tenant with identifier: acme2 does not exist under environment /
    )
  })

  test('a trigger naming an unknown tenant answers no_tenant_found and sends nothing', async () => {
    const { app } = triggerMock(generation)
    const wf = await createWorkflow(app, 'Hello', [inApp('Hi')])
    const res = await trigger(app, { name: wf.identifier, to: 'u1', payload: {}, tenant: 'nope' })
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({ acknowledged: true, status: 'no_tenant_found' })
  })

  test('a known tenant reaches the template, and a trigger object updates its name', async () => {
    const { app } = triggerMock(generation)
    await create(app, acme)
    const wf = await createWorkflow(app, 'Hello', [
      inApp('Hi from {{tenant.name}} ({{tenant.data.plan}})'),
    ])
    const res = await trigger(app, {
      name: wf.identifier,
      to: 'u1',
      payload: {},
      tenant: { identifier: 'acme', name: 'Acme Inc' },
    })
    expect(res.body.data.status).toBe('processed')
    const [message] = await messagesOf(app, res.body.data.transactionId)
    expect(message?.content).toBe('Hi from Acme Inc (pro)')
    const stored = await request(app, 'GET', '/v1/tenants/acme')
    expect(stored.body.data.name).toBe('Acme Inc')
  })
})

test('IS_V2_ENABLED on turns every tenant route into 405', async () => {
  const mock = createMock({ scenario: 'empty' })
  await mock.admin.loadScenario({ name: 'v2-on', serverFlags: { IS_V2_ENABLED: true } })
  const res = await request(mock.app, 'POST', '/v1/tenants', { body: acme })
  expect(res.status).toBe(405)
  expect(res.body).toMatchObject({
    statusCode: 405,
    message: 'Tenants is not supported in code first version of the API.',
    error: 'Method Not Allowed',
  })
})
