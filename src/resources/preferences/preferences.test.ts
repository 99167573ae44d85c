import { describe, expect, test } from 'vitest'
import { createMock } from '../../mock.js'
import { request } from '../../../test/helpers.js'
import {
  createWorkflow,
  email,
  GENERATIONS,
  inApp,
  messagesOf,
  trigger,
  triggerMock,
} from '../../../test/trigger-helpers.js'

// Subscriber preferences (subscriber facts §3): stored per subscriber over the workflow's, and
// a channel turned off skips its step.

type App = ReturnType<typeof triggerMock>['app']

async function setup(app: App, extra: Record<string, unknown> = {}) {
  const wf = await createWorkflow(app, 'Order', [inApp('hi'), email('s', 't')], extra)
  expect(
    (await request(app, 'POST', '/v1/subscribers', { body: { subscriberId: 'u1' } })).status
  ).toBe(201)
  return wf
}

async function channelsSent(app: App, identifier: string) {
  const res = await trigger(app, { name: identifier, to: 'u1', payload: {} })
  expect(res.status).toBe(201)
  return (await messagesOf(app, res.body.data.transactionId)).map((m) => m.channel).sort()
}

describe.each(GENERATIONS)('v1 preferences (%s)', (generation) => {
  test('the list shows each active workflow with the channels of its steps on', async () => {
    const { app } = triggerMock(generation)
    const wf = await setup(app)
    const res = await request(app, 'GET', '/v1/subscribers/u1/preferences')
    expect(res.status).toBe(200)
    expect(res.body.data).toHaveLength(1)
    expect(res.body.data[0]).toMatchObject({
      template: { _id: wf._id, name: 'Order', critical: false },
      preference: { enabled: true, channels: { email: true, in_app: true } },
      type: 'SUBSCRIBER_WORKFLOW',
    })
  })

  test('turning email off for a workflow shows in the list and skips the email step', async () => {
    const { app } = triggerMock(generation)
    const wf = await setup(app)
    const res = await request(app, 'PATCH', `/v1/subscribers/u1/preferences/${wf._id}`, {
      body: { channel: { type: 'email', enabled: false } },
    })
    expect(res.status).toBe(200)
    expect(res.body.data.preference.channels).toEqual({ email: false, in_app: true })
    expect(await channelsSent(app, wf.identifier)).toEqual(['in_app'])
  })

  test('a critical workflow sends whatever the subscriber chose', async () => {
    const { app } = triggerMock(generation)
    const wf = await setup(app, {
      critical: true,
      preferenceSettings: { email: true, in_app: true },
    })
    const other = await createWorkflow(app, 'Other', [inApp('x')])
    // 2026-08 refuses the change itself; 2024-10 stores it and ignores it on delivery.
    const res = await request(app, 'PATCH', `/v1/subscribers/u1/preferences/${wf._id}`, {
      body: { channel: { type: 'email', enabled: false } },
    })
    expect(res.status).toBe(generation === '2024-10' ? 200 : 400)
    expect(other.identifier).toBe('other')
    expect(await channelsSent(app, wf.identifier)).toEqual(['email', 'in_app'])
  })

  test('an unknown channel type names the generation channels', async () => {
    const { app } = triggerMock(generation)
    const wf = await setup(app)
    const res = await request(app, 'PATCH', `/v1/subscribers/u1/preferences/${wf._id}`, {
      body: { channel: { type: 'bogus', enabled: true } },
    })
    expect(res.status).toBe(generation === '2024-10' ? 400 : 422)
    const tail = generation === '2024-10' ? 'push' : 'push, tool'
    expect(res.text).toContain(
      `channel.type must be one of the following values: in_app, email, sms, chat, ${tail}`
    )
  })

  test('a global preference body with a non-boolean enabled is refused', async () => {
    const { app } = triggerMock(generation)
    await setup(app)
    const res = await request(app, 'PATCH', '/v1/subscribers/u1/preferences', {
      body: { preferences: [{ type: 'email', enabled: '' }] },
    })
    expect(res.status).toBe(generation === '2024-10' ? 400 : 422)
    expect(res.text).toContain('preferences.0.enabled must be a boolean value')
  })

  test('the level route refuses anything but global and template', async () => {
    const { app } = triggerMock(generation)
    await setup(app)
    const res = await request(app, 'GET', '/v1/subscribers/u1/preferences/other')
    expect(res.status).toBe(generation === '2024-10' ? 400 : 422)
    expect(res.text).toContain('parameter must be one of the following values: global, template')
  })
})

describe('generation differences', () => {
  test('2024-10: a global preference is stored and reported but does not stop delivery', async () => {
    const { app } = triggerMock('2024-10')
    const wf = await setup(app)
    const res = await request(app, 'PATCH', '/v1/subscribers/u1/preferences', {
      body: { enabled: false, preferences: [{ type: 'email', enabled: false }] },
    })
    expect(res.body.data.preference).toEqual({
      enabled: false,
      channels: { email: false, sms: true, in_app: true, chat: true, push: true },
    })
    expect(await channelsSent(app, wf.identifier)).toEqual(['email', 'in_app'])
  })

  test('2026-08: a global channel turned off stops that channel for every workflow', async () => {
    const { app } = triggerMock('2026-08')
    const wf = await setup(app)
    const res = await request(app, 'PATCH', '/v1/subscribers/u1/preferences', {
      body: { preferences: [{ type: 'email', enabled: false }] },
    })
    expect(res.body.data.preference).toEqual({
      channels: { email: false, in_app: true },
      enabled: true,
    })
    expect(await channelsSent(app, wf.identifier)).toEqual(['in_app'])
  })

  test('2024-10: a workflow turned off (enabled false) skips every step', async () => {
    const { app } = triggerMock('2024-10')
    const wf = await setup(app)
    await request(app, 'PATCH', `/v1/subscribers/u1/preferences/${wf._id}`, {
      body: { enabled: false },
    })
    const res = await trigger(app, { name: wf.identifier, to: 'u1', payload: {} })
    expect(await messagesOf(app, res.body.data.transactionId)).toEqual([])
  })

  test('2024-10: the per-workflow path takes only a Mongo id', async () => {
    const { app } = triggerMock('2024-10')
    await setup(app)
    const res = await request(app, 'PATCH', '/v1/subscribers/u1/preferences/order', {
      body: { channel: { type: 'email', enabled: false } },
    })
    expect(res.status).toBe(400)
    expect(res.body.message).toEqual(['templateId must be a mongodb id'])
  })

  test('2026-08: the per-workflow path takes a trigger identifier, and an unknown one is 404', async () => {
    const { app } = triggerMock('2026-08')
    await setup(app)
    const ok = await request(app, 'PATCH', '/v1/subscribers/u1/preferences/order', {
      body: { channel: { type: 'in_app', enabled: false } },
    })
    expect(ok.body.data.preference.channels).toEqual({ email: true, in_app: false })
    const missing = await request(app, 'PATCH', '/v1/subscribers/u1/preferences/nope', {
      body: { channel: { type: 'in_app', enabled: false } },
    })
    expect(missing.status).toBe(404)
    expect(missing.body).toMatchObject({ message: 'Workflow cannot be found', workflowId: 'nope' })
  })

  test('unknown subscribers get each generation text', async () => {
    const old = triggerMock('2024-10').app
    await setup(old)
    const a = await request(old, 'GET', '/v1/subscribers/ghost/preferences')
    expect([a.status, a.body.message]).toEqual([400, 'Subscriber ghost not found'])
    const now = triggerMock('2026-08').app
    const b = await request(now, 'GET', '/v1/subscribers/ghost/preferences')
    expect([b.status, b.body.message]).toEqual([404, 'Subscriber with id: ghost not found'])
  })

  test('2024-10 with IS_WORKFLOW_PREFERENCES_ENABLED off answers 400 on a preference read', async () => {
    const mock = createMock({ apiGeneration: '2024-10', scenario: 'empty' })
    await mock.admin.loadScenario({
      name: 'flag-off',
      serverFlags: { IS_WORKFLOW_PREFERENCES_ENABLED: false },
    })
    await setup(mock.app)
    const res = await request(mock.app, 'GET', '/v1/subscribers/u1/preferences')
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({
      message: 'Preferences Feature Flag are not enabled',
      userId: 'system',
      key: 'IS_WORKFLOW_PREFERENCES_ENABLED',
    })
  })
})

describe('v2 preferences', () => {
  test('PATCH a workflow by identifier, then GET shows global and workflow channels', async () => {
    const { app } = triggerMock('2026-08')
    await setup(app)
    const res = await request(app, 'PATCH', '/v2/subscribers/u1/preferences', {
      body: { workflowId: 'order', channels: { email: false } },
    })
    expect(res.status).toBe(200)
    expect(res.body.data.global).toEqual({ enabled: true, channels: { email: true, in_app: true } })
    expect(res.body.data.workflows[0]).toMatchObject({
      enabled: true,
      channels: { email: false, in_app: true },
      workflow: { identifier: 'order', name: 'Order' },
    })
    expect(res.body.data.workflows[0].workflow.slug).toMatch(/^order_wf_/)
    expect(await channelsSent(app, 'order')).toEqual(['in_app'])
  })

  test('a non-boolean channel is the command validation error', async () => {
    const { app } = triggerMock('2026-08')
    await setup(app)
    const res = await request(app, 'PATCH', '/v2/subscribers/u1/preferences', {
      body: { channels: { email: 'no' } },
    })
    expect(res.status).toBe(422)
    expect(res.body.message).toBe(
      'Validation failed for UpdatePreferencesCommand: email: email must be a boolean value'
    )
    expect(res.body.errors).toEqual({
      email: { messages: ['email must be a boolean value'], value: 'no' },
    })
  })

  test('a bad criticality is refused', async () => {
    const { app } = triggerMock('2026-08')
    await setup(app)
    const res = await request(app, 'GET', '/v2/subscribers/u1/preferences?criticality=some')
    expect(res.status).toBe(422)
    expect(res.body.errors.general.messages).toEqual([
      'criticality must be one of the following values: critical, nonCritical, all',
    ])
  })

  test('2024-10 has no v2 preference routes', async () => {
    const { app } = triggerMock('2024-10')
    const res = await request(app, 'GET', '/v2/subscribers/u1/preferences')
    expect(res.status).toBe(404)
    expect(res.body.message).toBe('Cannot GET /v2/subscribers/u1/preferences')
  })

  test('bulk refuses more than 100 workflows and writes nothing', async () => {
    const { app } = triggerMock('2026-08')
    await setup(app)
    const preferences = Array.from({ length: 101 }, () => ({
      workflowId: 'order',
      channels: { email: false },
    }))
    const res = await request(app, 'PATCH', '/v2/subscribers/u1/preferences/bulk', {
      body: { preferences },
    })
    expect(res.status).toBe(422)
    expect(res.body.errors.general.messages).toEqual([
      'preferences must contain no more than 100 elements',
    ])
    const after = await request(app, 'GET', '/v2/subscribers/u1/preferences')
    expect(after.body.data.workflows[0].channels.email).toBe(true)
  })

  test('bulk with one unknown workflow is 404 and writes nothing', async () => {
    const { app } = triggerMock('2026-08')
    await setup(app)
    const res = await request(app, 'PATCH', '/v2/subscribers/u1/preferences/bulk', {
      body: {
        preferences: [
          { workflowId: 'order', channels: { email: false } },
          { workflowId: 'nope', channels: {} },
        ],
      },
    })
    expect(res.status).toBe(404)
    const after = await request(app, 'GET', '/v2/subscribers/u1/preferences')
    expect(after.body.data.workflows[0].channels.email).toBe(true)
  })
})
