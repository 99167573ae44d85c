import { expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import type { ScenarioInput } from '../src/admin/client.js'
import { request } from './helpers.js'

const ORDER_SHIPPED = {
  _id: '6a0000000000000000000001',
  workflowId: 'order-shipped',
  name: 'Order shipped',
  tags: ['orders'],
  createdAt: '2026-01-02T03:04:05.000Z',
  updatedAt: '2026-01-03T03:04:05.000Z',
  steps: [
    {
      _id: '6a0000000000000000000002',
      stepId: 'in-app',
      name: 'In-App',
      type: 'in_app',
      controlValues: { body: 'Order {{payload.orderId}} shipped' },
    },
  ],
}

type Workflows = NonNullable<NonNullable<ScenarioInput['data']>['workflows']>

async function mockWith(workflows: Workflows, apiGeneration?: '2024-10' | '2026-08') {
  const mock = createMock({ scenario: 'empty', logLevel: 'silent', apiGeneration })
  await mock.admin.loadScenario({ name: 'declared', data: { workflows } })
  return mock
}

test('a scenario declares a v2 workflow in the POST /v2/workflows shape, with its own ids and times', async () => {
  const { app } = await mockWith([ORDER_SHIPPED])
  const res = await request(app, 'GET', '/v2/workflows/order-shipped')
  expect(res.status).toBe(200)
  expect(res.body.data).toMatchObject({
    _id: ORDER_SHIPPED._id,
    workflowId: 'order-shipped',
    name: 'Order shipped',
    tags: ['orders'],
    origin: 'novu-cloud',
    status: 'ACTIVE',
    createdAt: ORDER_SHIPPED.createdAt,
    updatedAt: ORDER_SHIPPED.updatedAt,
    steps: [
      {
        _id: '6a0000000000000000000002',
        stepId: 'in-app',
        name: 'In-App',
        type: 'in_app',
        controlValues: { body: 'Order {{payload.orderId}} shipped' },
      },
    ],
  })
})

test('a declared v2 workflow delivers its in-app message on trigger', async () => {
  const { app } = await mockWith([ORDER_SHIPPED])
  const trigger = await request(app, 'POST', '/v1/events/trigger', {
    body: { name: 'order-shipped', to: 'ann', payload: { orderId: 'A-1' } },
  })
  expect(trigger.status).toBe(201)
  expect(trigger.body.data).toMatchObject({ acknowledged: true, status: 'processed' })
  const messages = await request(app, 'GET', '/v1/messages?channel=in_app')
  expect(messages.body.data.map((m: { content: string }) => m.content)).toEqual([
    'Order A-1 shipped',
  ])
})

test('a declared v2 workflow builds in a 2024-10 mock too, where the v1 routes read it', async () => {
  const { app } = await mockWith([ORDER_SHIPPED], '2024-10')
  const res = await request(app, 'GET', `/v1/workflows/${ORDER_SHIPPED._id}`)
  expect(res.status).toBe(200)
  expect(res.body.data.triggers[0].identifier).toBe('order-shipped')
})

test('a declared v2 workflow with a step of unknown type is refused with its path', async () => {
  const mock = createMock({ scenario: 'empty', logLevel: 'silent' })
  const bad = { ...ORDER_SHIPPED, steps: [{ name: 'Pigeon', type: 'pigeon' }] }
  const error = await mock.admin
    .loadScenario({ name: 'declared', data: { workflows: [bad] } })
    .then(
      () => undefined,
      (e: Error) => e
    )
  expect(error?.message).toContain('data.workflows.0')
})

test('the workflow limit does not stop a scenario declaring more v2 workflows than it', async () => {
  const many = Array.from({ length: 101 }, (_, i) => ({
    workflowId: `wf-${i}`,
    name: `Workflow ${i}`,
    steps: [{ name: 'In-App', type: 'in_app', controlValues: { body: 'Hi' } }],
  }))
  const { app } = await mockWith(many)
  const res = await request(app, 'GET', '/v2/workflows?limit=1')
  expect(res.body.data.totalCount).toBe(101)
})

/** The message loading the workflows as a scenario fails with. */
async function refusal(workflows: Workflows): Promise<string> {
  const mock = createMock({ scenario: 'empty', logLevel: 'silent' })
  return mock.admin.loadScenario({ name: 'declared', data: { workflows } }).then(
    () => 'loaded',
    (e: Error) => e.message
  )
}

test.each([
  [
    'steps that are not objects',
    { ...ORDER_SHIPPED, steps: ['in_app'] },
    'data.workflows.0.steps.0',
  ],
  ['a name over 128 characters', { ...ORDER_SHIPPED, name: 'n'.repeat(129) }, 'data.workflows.0'],
  [
    'a step _id that is no ObjectId',
    { ...ORDER_SHIPPED, steps: [{ ...ORDER_SHIPPED.steps[0], _id: 'x' }] },
    'data.workflows.0.steps.0',
  ],
  [
    'control values nested 200 levels deep',
    {
      ...ORDER_SHIPPED,
      steps: [
        {
          name: 'In-App',
          type: 'in_app',
          controlValues: JSON.parse(`${'{"a":'.repeat(200)}1${'}'.repeat(200)}`),
        },
      ],
    },
    'data.workflows.0',
  ],
])(
  'a v2 workflow record with %s is refused with its path, the mock unchanged',
  async (_, record, path) => {
    const message = await refusal([record as Workflows[number]])
    expect(message).toContain(path)
  }
)

test('odd unicode in a declared workflowId and name is kept as sent', async () => {
  const { app } = await mockWith([
    { ...ORDER_SHIPPED, workflowId: 'café-🚚', name: 'Livraison 🚚 ‮' },
  ])
  const res = await request(app, 'GET', `/v2/workflows/${ORDER_SHIPPED._id}`)
  expect(res.body.data).toMatchObject({ workflowId: 'café-🚚', name: 'Livraison 🚚 ‮' })
})

test('a state import (PUT /__admin/state) takes v2-shaped workflows too', async () => {
  const mock = createMock({ scenario: 'empty', logLevel: 'silent' })
  await mock.admin.importState('imported', { workflows: [ORDER_SHIPPED] })
  const res = await request(mock.app, 'GET', '/v2/workflows/order-shipped', { key: 'imported' })
  expect(res.body.data).toMatchObject({ _id: ORDER_SHIPPED._id, workflowId: 'order-shipped' })
})
