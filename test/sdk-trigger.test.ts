import { Novu as NovuApi } from '@novu/api'
import { Novu as NovuNode, StepTypeEnum } from '@novu/node'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startMock, type RunningMock } from '../src/server.js'
import { keyFactory } from './sdk-helpers.js'
import { GENERAL_GROUP_ID } from './trigger-helpers.js'

// The flow of the README's "Test your notification flow" through each official SDK: create and
// activate a workflow, a topic with two subscribers, trigger to it with a transaction id, read
// the messages, delete them by transaction.

let today: RunningMock
let older: RunningMock
const nextKey = keyFactory('sdk-trigger')

beforeAll(async () => {
  today = await startMock({ port: 0, logLevel: 'silent' })
  older = await startMock({ port: 0, logLevel: 'silent', apiGeneration: '2024-10' })
})
afterAll(async () => {
  await today.close()
  await older.close()
})

const node = (mock: RunningMock, key = nextKey()) => new NovuNode(key, { backendUrl: mock.url })

/** The workflow the flow triggers, made and activated over @novu/node's notification-templates. */
async function orderShippedWorkflow(novu: NovuNode) {
  const created = await novu.notificationTemplates.create({
    name: 'Parcel Sent',
    notificationGroupId: GENERAL_GROUP_ID,
    steps: [
      {
        template: {
          type: StepTypeEnum.IN_APP,
          content: 'Parcel {{orderId}} is on its way, {{subscriber.firstName}}',
        },
      },
      {
        template: {
          type: StepTypeEnum.EMAIL,
          subject: 'Parcel {{orderId}}',
          content: [{ type: 'text', content: 'Tracking: {{tracking}}' }],
        },
      } as never,
    ],
  })
  expect(created.status).toBe(201)
  const { _id, triggers } = created.data.data
  const activated = await novu.notificationTemplates.updateStatus(_id, true)
  expect(activated.data.data.active).toBe(true)
  return triggers[0].identifier as string
}

describe.each([
  ['2026-08', () => today],
  ['2024-10', () => older],
] as const)('@novu/node 2.6.6 against %s', (_generation, mock) => {
  test('runs the whole flow: topic, trigger, messages, delete by transaction', async () => {
    const novu = node(mock())
    const workflowId = await orderShippedWorkflow(novu)
    await novu.subscribers.identify('ada', { firstName: 'Ada', email: 'ada@example.com' })
    await novu.subscribers.identify('grace', { firstName: 'Grace', email: 'grace@example.com' })
    expect(
      (await novu.topics.create({ key: 'parcel-watchers', name: 'Parcel watchers' })).status
    ).toBe(201)
    const added = await novu.topics.addSubscribers('parcel-watchers', {
      subscribers: ['ada', 'grace'],
    })
    expect(added.data.data.succeeded).toEqual(['ada', 'grace'])

    const triggered = await novu.trigger(workflowId, {
      to: [{ type: 'Topic', topicKey: 'parcel-watchers' }] as never,
      payload: { orderId: 'A-1', tracking: 'TRK9' },
      transactionId: 'parcel-A-1',
    })
    expect(triggered.status).toBe(201)
    expect(triggered.data.data).toEqual({
      acknowledged: true,
      status: 'processed',
      transactionId: 'parcel-A-1',
    })

    const listed = await novu.messages.list({ transactionIds: ['parcel-A-1'], limit: 10 } as never)
    expect(listed.data.totalCount).toBe(4)
    const contents = listed.data.data.map((m: { content: unknown }) => m.content)
    expect(contents).toContain('Parcel A-1 is on its way, Ada')
    expect(contents).toContainEqual([{ type: 'text', content: 'Tracking: TRK9', url: '' }])

    const deleted = await novu.messages.deleteByTransactionId('parcel-A-1')
    expect(deleted.status).toBe(204)
    const after = await novu.messages.list({ transactionIds: ['parcel-A-1'] } as never)
    expect(after.data.totalCount).toBe(0)
  })

  test('bulkTrigger, broadcast and events.cancel', async () => {
    const novu = node(mock())
    const workflowId = await orderShippedWorkflow(novu)
    const bulk = await novu.bulkTrigger([
      { name: workflowId, to: 'ada', payload: { orderId: 1 }, transactionId: 'b1' },
      { name: workflowId, to: 'grace', payload: { orderId: 2 }, transactionId: 'b2' },
    ])
    expect(bulk.status).toBe(201)
    expect(bulk.data.data.map((r: { transactionId: string }) => r.transactionId)).toEqual([
      'b1',
      'b2',
    ])
    const broadcast = await novu.broadcast(workflowId, {
      payload: { orderId: 3 },
      transactionId: 'all',
    })
    expect(broadcast.data.data).toMatchObject({ status: 'processed', transactionId: 'all' })
    const canceled = await novu.events.cancel('all')
    expect(canceled.data).toEqual({ data: false })
  })
})

describe('@novu/api 3.19.1 against 2026-08', () => {
  const api = (secretKey = nextKey()) =>
    new NovuApi({ secretKey, serverURL: today.url, retryConfig: { strategy: 'none' } })

  test('runs the whole flow: topic, trigger, messages, delete by transaction', async () => {
    const key = nextKey()
    const workflowId = await orderShippedWorkflow(node(today, key))
    const novu = api(key)
    await novu.subscribers.create({
      subscriberId: 'ada',
      firstName: 'Ada',
      email: 'ada@example.com',
    })
    await novu.subscribers.create({
      subscriberId: 'grace',
      firstName: 'Grace',
      email: 'grace@example.com',
    })
    await novu.topics.create({ key: 'parcel-watchers', name: 'Parcel watchers' })
    await novu.topics.subscriptions.create({ subscriberIds: ['ada', 'grace'] }, 'parcel-watchers')

    const triggered = await novu.trigger({
      workflowId,
      to: { type: 'Topic', topicKey: 'parcel-watchers' },
      payload: { orderId: 'A-1', tracking: 'TRK9' },
      transactionId: 'parcel-A-1',
    })
    expect(triggered.result).toEqual({
      acknowledged: true,
      status: 'processed',
      transactionId: 'parcel-A-1',
    })

    const listed = await novu.messages.retrieve({ transactionId: ['parcel-A-1'] })
    expect(listed.result.totalCount).toBe(4)
    expect(listed.result.data.map((m) => m.subscriber?.subscriberId).sort()).toEqual([
      'ada',
      'ada',
      'grace',
      'grace',
    ])

    const feed = await novu.notifications.list({ transactionId: 'parcel-A-1' })
    expect(feed.result.data).toHaveLength(2)

    await novu.messages.deleteByTransactionId('parcel-A-1')
    expect(
      (await novu.messages.retrieve({ transactionId: ['parcel-A-1'] })).result.totalCount
    ).toBe(0)
  })

  test('triggerBulk, triggerBroadcast and cancel parse', async () => {
    const key = nextKey()
    const workflowId = await orderShippedWorkflow(node(today, key))
    const novu = api(key)
    const bulk = await novu.triggerBulk({
      events: [
        { workflowId, to: 'ada', payload: {}, transactionId: 'b1' },
        { workflowId: 'ghost', to: 'ada', payload: {}, transactionId: 'b2' },
      ],
    })
    expect(bulk.result.map((r) => r.status)).toEqual(['processed', 'error'])
    const broadcast = await novu.triggerBroadcast({ name: workflowId, payload: {} })
    expect(broadcast.result.status).toBe('processed')
    expect(broadcast.result.transactionId).toMatch(/^txn_/)
    expect((await novu.cancel('b1')).result).toBe(false)
  })
})
