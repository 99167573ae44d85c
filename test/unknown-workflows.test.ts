import { expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import { request } from './helpers.js'

const GENERATIONS = ['2026-08', '2024-10'] as const
const trigger = { name: 'welcome-email', to: 'ann', payload: {} }

test.each(GENERATIONS)(
  '%s: a trigger for an unknown workflow answers 422 workflow_not_found by default',
  async (apiGeneration) => {
    const { app } = createMock({ scenario: 'empty', logLevel: 'silent', apiGeneration })
    const res = await request(app, 'POST', '/v1/events/trigger', { body: trigger })
    expect(res.status).toBe(422)
    expect(res.body.message).toBe('workflow_not_found')
  }
)

test.each(GENERATIONS)(
  '%s: under --unknown-workflows create the trigger creates an in-app workflow and delivers',
  async (apiGeneration) => {
    const { app } = createMock({
      scenario: 'empty',
      logLevel: 'silent',
      apiGeneration,
      unknownWorkflows: 'create',
    })
    const res = await request(app, 'POST', '/v1/events/trigger', { body: trigger })
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({ acknowledged: true, status: 'processed' })
    const messages = await request(app, 'GET', '/v1/messages?channel=in_app')
    expect(messages.body.data).toHaveLength(1)
    expect(messages.body.data[0]).toMatchObject({
      templateIdentifier: 'welcome-email',
      content: 'welcome-email',
    })
    // 2026-08 lists the dashboard's workflows over /v2 only; 2024-10 has no /v2 for API keys.
    const list = apiGeneration === '2026-08' ? '/v2/workflows' : '/v1/workflows'
    const workflows = await request(app, 'GET', list)
    const data = workflows.body.data.workflows ?? workflows.body.data
    expect(data.map((w: { name: string }) => w.name)).toEqual(['welcome-email'])
  }
)

test.each(GENERATIONS)(
  '%s: the journal entry of a trigger that created its workflow says so',
  async (apiGeneration) => {
    const mock = createMock({
      scenario: 'empty',
      logLevel: 'silent',
      apiGeneration,
      unknownWorkflows: 'create',
    })
    await request(mock.app, 'POST', '/v1/events/trigger', { body: trigger })
    const [entry] = await mock.admin.requests({ path: '/v1/events/trigger' })
    expect(entry?.notes).toEqual([
      expect.stringContaining(
        'the workflow "welcome-email" did not exist: created with one in-app step'
      ),
    ])
  }
)

test('a second trigger for the same identifier reuses the created workflow, without a note', async () => {
  const mock = createMock({ scenario: 'empty', logLevel: 'silent', unknownWorkflows: 'create' })
  await request(mock.app, 'POST', '/v1/events/trigger', { body: trigger })
  await request(mock.app, 'POST', '/v1/events/trigger', { body: trigger })
  const entries = await mock.admin.requests({ path: '/v1/events/trigger' })
  expect(entries.map((e) => e.notes?.length ?? 0).sort()).toEqual([0, 1])
  const list = await request(mock.app, 'GET', '/v2/workflows')
  expect(list.body.data.totalCount).toBe(1)
})

test('each event of a bulk trigger for unknown workflows gets its workflow', async () => {
  const { app } = createMock({ scenario: 'empty', logLevel: 'silent', unknownWorkflows: 'create' })
  const res = await request(app, 'POST', '/v1/events/trigger/bulk', {
    body: { events: [trigger, { ...trigger, name: 'order-shipped' }] },
  })
  expect(res.status).toBe(201)
  expect(res.body.data.map((r: { status: string }) => r.status)).toEqual(['processed', 'processed'])
})

test('an identifier no workflowId can be still answers 422 under --unknown-workflows create', async () => {
  const { app } = createMock({ scenario: 'empty', logLevel: 'silent', unknownWorkflows: 'create' })
  const res = await request(app, 'POST', '/v1/events/trigger', {
    body: { ...trigger, name: 'x'.repeat(5000) },
  })
  expect(res.status).toBe(422)
})

test('--unknown-workflows refuses a value other than reject or create', () => {
  expect(() => createMock({ unknownWorkflows: 'maybe' as 'create' })).toThrow(/unknownWorkflows/)
})
