import { describe, expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import { request } from './helpers.js'
import {
  createWorkflow,
  email,
  fixedClockMock,
  inApp,
  messagesOf,
  trigger,
  triggerMock,
} from './trigger-helpers.js'

// The trigger flow and the rest of the mock: chaos, journal, OpenAPI, scenarios, state.

describe('chaos and journal', () => {
  test('a fault rule on the trigger path answers instead of it and nothing is created', async () => {
    const mock = triggerMock('2026-08')
    const wf = await createWorkflow(mock.app, 'Ping', [inApp('x')])
    await mock.admin.addRule({
      match: { method: 'POST', path: '/v1/events/trigger' },
      fault: { status: 503 },
      times: 1,
    })
    const faulted = await trigger(mock.app, { name: wf.identifier, to: 'u1', transactionId: 'tx' })
    expect(faulted.status).toBe(503)
    expect(await messagesOf(mock.app, 'tx')).toEqual([])
    const passed = await trigger(mock.app, { name: wf.identifier, to: 'u1', transactionId: 'tx' })
    expect(passed.status).toBe(201)
  })

  test('the journal counts the triggers', async () => {
    const mock = triggerMock('2024-10')
    const wf = await createWorkflow(mock.app, 'Ping', [inApp('x')])
    await trigger(mock.app, { name: wf.identifier, to: 'u1' })
    await trigger(mock.app, { name: 'ghost', to: 'u1' })
    expect(await mock.admin.countRequests({ method: 'POST', path: '/v1/events/trigger' })).toBe(2)
    expect(
      await mock.admin.countRequests({
        method: 'POST',
        path: '/v1/events/trigger',
        status: 422,
      } as never)
    ).toBe(1)
  })
})

describe('OpenAPI', () => {
  test.each(['2026-08', '2024-10'] as const)(
    '%s documents the trigger flow routes',
    async (generation) => {
      const res = await request(triggerMock(generation).app, 'GET', '/__admin/openapi.json', {
        key: null,
      })
      const paths = Object.keys(res.body.paths)
      for (const path of [
        '/v1/events/trigger',
        '/v1/events/trigger/bulk',
        '/v1/events/trigger/broadcast',
        '/v1/events/trigger/{transactionId}',
        '/v1/notifications',
        '/v1/notifications/{notificationId}',
        '/v1/subscribers',
        '/v1/subscribers/{subscriberId}',
        '/__admin/clock',
      ])
        expect(paths, path).toContain(path)
      const body =
        res.body.paths['/v1/events/trigger'].post.requestBody.content['application/json'].schema
      expect(Object.keys(body.properties)).toContain('transactionId')
    }
  )
})

describe('scenarios and state', () => {
  test('a scenario seeds subscribers and integrations the trigger uses', async () => {
    const mock = createMock({ seed: 'trigger' })
    await mock.admin.loadScenario({
      name: 'seeded',
      data: {
        subscribers: [{ subscriberId: 'ada', email: 'ada@seed.io', firstName: 'Ada' }],
        integrations: [{ channel: 'email', providerId: 'sendgrid' }],
      },
    })
    const wf = await createWorkflow(mock.app, 'Mail', [
      inApp('x'),
      email('Hi {{subscriber.firstName}}', 'b'),
    ])
    await trigger(mock.app, { name: wf.identifier, to: 'ada', transactionId: 'tx' })
    const messages = await messagesOf(mock.app, 'tx')
    expect(messages).toHaveLength(1)
    expect(messages[0]).toMatchObject({
      channel: 'email',
      providerId: 'sendgrid',
      email: 'ada@seed.io',
      subject: 'Hi Ada',
    })
  })

  test('the workflow list shows the integrations the scenario declares', async () => {
    const mock = createMock({ seed: 'trigger' })
    await mock.admin.loadScenario({
      name: 'chat',
      data: { integrations: [{ channel: 'chat', providerId: 'slack' }] },
    })
    await createWorkflow(mock.app, 'Chat', [{ template: { type: 'chat', content: 'x' } }])
    const res = await request(mock.app, 'GET', '/v1/workflows')
    expect(res.body.data[0].workflowIntegrationStatus).toMatchObject({
      hasActiveIntegrations: true,
      channels: { chat: { hasActiveIntegrations: true }, in_app: { hasActiveIntegrations: false } },
    })
  })

  test('an export fed back answers the same feed and keeps a waiting delay', async () => {
    const mock = await fixedClockMock('2026-08')
    const wf = await createWorkflow(mock.app, 'Later', [
      inApp('now'),
      { template: { type: 'delay' }, metadata: { type: 'regular', amount: 5, unit: 'minutes' } },
      inApp('later'),
    ])
    await trigger(mock.app, { name: wf.identifier, to: 'u1', transactionId: 'tx' })
    const feed = await request(mock.app, 'GET', '/v1/notifications')
    const exported = await mock.admin.exportState('test-key')
    expect(exported.notifications).toHaveLength(1)
    expect(exported.integrations).toHaveLength(3)
    await mock.admin.importState('copy', exported)
    const copied = await request(mock.app, 'GET', '/v1/notifications', { key: 'copy' })
    expect(copied.body.data.map((n: { _id: string }) => n._id)).toEqual(
      feed.body.data.map((n: { _id: string }) => n._id)
    )
    await mock.admin.forKey('copy').advanceClock('5m')
    const messages = await messagesOf(mock.app, 'tx', 'copy')
    expect(messages.map((m) => m.content)).toEqual(['later', 'now'])
  })
})
