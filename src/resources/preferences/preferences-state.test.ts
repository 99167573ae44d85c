import { describe, expect, test } from 'vitest'
import { createMock } from '../../mock.js'
import { request } from '../../../test/helpers.js'
import {
  createWorkflow,
  email,
  GENERATIONS,
  inApp,
  trigger,
} from '../../../test/trigger-helpers.js'

// Preferences, tenants and read states survive an export and an import; the new routes answer
// bad bodies with upstream's messages only.

describe.each(GENERATIONS)('state (%s)', (generation) => {
  test('an exported environment imports with its preferences, tenants and read messages', async () => {
    const mock = createMock({ apiGeneration: generation, scenario: 'empty', seed: 'state' })
    const app = mock.app
    const wf = await createWorkflow(app, 'Order', [inApp('hi'), email('s', 't')])
    await trigger(app, { name: wf.identifier, to: 'u1', payload: {} })
    await request(app, 'PATCH', `/v1/subscribers/u1/preferences/${wf._id}`, {
      body: { channel: { type: 'email', enabled: false } },
    })
    await request(app, 'POST', '/v1/tenants', { body: { identifier: 'acme', name: 'Acme' } })
    await request(app, 'POST', '/v1/subscribers/u1/messages/mark-all', { body: { markAs: 'read' } })
    const exported = await mock.admin.exportState('test-key')
    expect(exported.preferences).toHaveLength(1)
    expect(exported.tenants).toHaveLength(1)
    await mock.admin.importState('other-key', exported)
    const key = { key: 'other-key' }
    const prefs = await request(app, 'GET', '/v1/subscribers/u1/preferences', key)
    expect(prefs.body.data[0].preference.channels).toEqual({ email: false, in_app: true })
    const tenant = await request(app, 'GET', '/v1/tenants/acme', key)
    expect(tenant.body.data.name).toBe('Acme')
    const feed = await request(app, 'GET', '/v1/subscribers/u1/notifications/feed', key)
    expect(feed.body.data.map((m: { read: boolean }) => m.read)).toEqual([true])
  })

  test('a scenario preference naming no subscriber refuses the scenario', async () => {
    const mock = createMock({ apiGeneration: generation, scenario: 'empty' })
    await expect(
      mock.admin.loadScenario({
        name: 'bad',
        data: { preferences: [{ subscriberId: 'ghost', channels: {} }] },
      })
    ).rejects.toThrow()
    const res = await request(mock.app, 'GET', '/v1/tenants')
    expect(res.status).toBe(200)
  })
})

const ZOD_TEXT =
  /Invalid input|expected (string|number|object|array|boolean|nonoptional)|received undefined/

describe.each(GENERATIONS)('bad bodies (%s)', (generation) => {
  const routes: [string, string][] = [
    ['PATCH', '/v1/subscribers/u1/preferences/66fbb0a0c1f2e3d4a5b61001'],
    ['PATCH', '/v1/subscribers/u1/preferences'],
    ['PATCH', '/v2/subscribers/u1/preferences'],
    ['PATCH', '/v2/subscribers/u1/preferences/bulk'],
    ['POST', '/v1/subscribers/u1/messages/mark-as'],
    ['POST', '/v1/subscribers/u1/messages/markAs'],
    ['POST', '/v1/subscribers/u1/messages/mark-all'],
    ['POST', '/v1/subscribers/u1/messages/66fbb0a0c1f2e3d4a5b61001/actions/primary'],
    ['POST', '/v1/tenants'],
    ['PATCH', '/v1/tenants/acme'],
    ['POST', '/v2/subscribers/u1/notifications/read'],
    ['PATCH', '/v2/subscribers/u1/notifications/66fbb0a0c1f2e3d4a5b61001/snooze'],
  ]
  const bodies = [
    '{}',
    '[]',
    '[1,2]',
    '{"channel":5,"enabled":"x","preferences":{"a":1},"channels":[1],"workflowId":7}',
    '{"messageId":{"$ne":1},"markAs":[],"mark":"x","status":{},"identifier":[],"name":7}',
    JSON.stringify({ preferences: [null, 5, { workflowId: null }], snoozeUntil: 'soon' }),
    JSON.stringify({ identifier: 'é\u0000𝔘'.repeat(1000), name: { a: { b: { c: {} } } } }),
  ]

  test('no answer carries a zod text or a stack, and a 500 only with an errorId', async () => {
    const mock = createMock({ apiGeneration: generation, scenario: 'empty' })
    await createWorkflow(mock.app, 'Order', [inApp('hi')])
    await request(mock.app, 'POST', '/v1/subscribers', { body: { subscriberId: 'u1' } })
    await request(mock.app, 'POST', '/v1/tenants', { body: { identifier: 'acme', name: 'Acme' } })
    for (const [method, path] of routes)
      for (const body of bodies) {
        const res = await request(mock.app, method, path, { body })
        expect(res.text, `${method} ${path} ${body}`).not.toMatch(ZOD_TEXT)
        expect(res.text).not.toMatch(/at .*\.ts:\d+/)
        // A 500 only where upstream's MongoDB refuses a value (a non-ObjectId id), with its errorId.
        if (res.status >= 500)
          expect(res.body, `${method} ${path} ${body.slice(0, 80)}`).toHaveProperty('errorId')
      }
  })
})
