import { expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import { request } from './helpers.js'

const GENERAL = '66fbb0a0c1f2e3d4a5b60001'
const BILLING = '66fbb0a0c1f2e3d4a5b60002'
const ORDER_SHIPPED = '66fbb0a0c1f2e3d4a5b61002'
const LISTS = [
  '/v1/topics',
  '/v1/topics?page=2&pageSize=10',
  '/v1/workflows?limit=100',
  '/v1/messages?limit=100',
  '/v1/notification-groups',
]

type Obj = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/** Removes the timestamps that the real service sets to "now" on a write, and nothing else. */
function withoutNow(workflow: Obj): Obj {
  const { createdAt: _c, updatedAt: _u, ...rest } = workflow
  return {
    ...rest,
    steps: rest.steps.map((step: Obj) => {
      const { createdAt: _tc, updatedAt: _tu, ...template } = step.template
      return { ...step, template }
    }),
  }
}

test.each(LISTS)(
  'answers GET %s byte for byte the same from two mocks with the same seed',
  async (path) => {
    const a = await request(createMock({ apiGeneration: '2024-10', seed: 'same' }).app, 'GET', path)
    const b = await request(createMock({ apiGeneration: '2024-10', seed: 'same' }).app, 'GET', path)
    expect(a.status).toBe(200)
    expect(b.text).toBe(a.text)
  }
)

test('answers the same without a seed, from the default seed', async () => {
  const a = await request(
    createMock({ apiGeneration: '2024-10' }).app,
    'GET',
    '/v1/workflows?limit=100'
  )
  const b = await request(
    createMock({ apiGeneration: '2024-10' }).app,
    'GET',
    '/v1/workflows?limit=100'
  )
  expect(b.text).toBe(a.text)
})

test('reads a numeric seed as its string', async () => {
  const a = await request(
    createMock({ apiGeneration: '2024-10', seed: 7 }).app,
    'GET',
    '/v1/topics'
  )
  const b = await request(
    createMock({ apiGeneration: '2024-10', seed: '7' }).app,
    'GET',
    '/v1/topics'
  )
  expect(b.text).toBe(a.text)
})

test('gives seeded records fixed timestamps, never the current time', async () => {
  const res = await request(
    createMock({ apiGeneration: '2024-10', seed: 'same' }).app,
    'GET',
    '/v1/workflows?limit=100'
  )
  const year = new Date().getUTCFullYear()
  for (const workflow of res.body.data) {
    expect(workflow.createdAt < `${year}`).toBe(true)
    expect(workflow.updatedAt < `${year}`).toBe(true)
  }
})

test('creates the same workflow, ids and identifier included, in two mocks with the same seed', async () => {
  const body = {
    name: 'Welcome Email',
    notificationGroupId: GENERAL,
    steps: [{ template: { type: 'sms', content: '{{code}}' } }],
  }
  const [a, b] = await Promise.all(
    [1, 2].map(() =>
      request(createMock({ apiGeneration: '2024-10', seed: 'same' }).app, 'POST', '/v1/workflows', {
        body,
      })
    )
  )
  expect(a!.status).toBe(201)
  expect(a!.body.data.triggers[0].identifier).not.toBe('welcome-email')
  expect(withoutNow(b!.body.data)).toEqual(withoutNow(a!.body.data))
})

test('answers the same list after the same writes in two mocks with the same seed', async () => {
  const run = async () => {
    const { app } = createMock({ apiGeneration: '2024-10', seed: 'same' })
    await request(app, 'POST', '/v1/workflows', {
      body: { name: 'Added', notificationGroupId: GENERAL, steps: [] },
    })
    await request(app, 'PUT', `/v1/workflows/${ORDER_SHIPPED}/status`, { body: { active: true } })
    await request(app, 'DELETE', '/v1/messages/transaction/tx-order-1001?channel=sms')
    const workflows = await request(app, 'GET', '/v1/workflows?limit=100')
    const messages = await request(app, 'GET', '/v1/messages?limit=100')
    const [added, ...seeded] = workflows.body.data
    const { updatedAt: _u, ...orderShipped } = seeded.find((w: Obj) => w._id === ORDER_SHIPPED)
    const { createdAt: _c, updatedAt: _a, ...addedRest } = added
    return {
      added: addedRest,
      orderShipped,
      others: seeded.filter((w: Obj) => w._id !== ORDER_SHIPPED),
      messages: messages.text,
    }
  }
  const [a, b] = await Promise.all([run(), run()])
  expect(b).toEqual(a)
})

test('generates different bulk data from a different seed, and the same hand-named records', async () => {
  const a = await request(
    createMock({ apiGeneration: '2024-10', seed: 'one' }).app,
    'GET',
    '/v1/topics?page=0&pageSize=10'
  )
  const b = await request(
    createMock({ apiGeneration: '2024-10', seed: 'two' }).app,
    'GET',
    '/v1/topics?page=0&pageSize=10'
  )
  expect(a.body.totalCount).toBe(b.body.totalCount)
  const pick = (body: Obj) => body.data.map((t: Obj) => [t._id, t.key, t.name, t.subscribers])
  expect(pick(b.body).slice(0, 3)).toEqual(pick(a.body).slice(0, 3))
  expect(pick(b.body).slice(3)).not.toEqual(pick(a.body).slice(3))
})

test.each(['/v1/workflows?limit=100', '/v1/messages?limit=100'])(
  'answers a different %s for a different seed',
  async (path) => {
    const a = await request(createMock({ apiGeneration: '2024-10', seed: 'one' }).app, 'GET', path)
    const b = await request(createMock({ apiGeneration: '2024-10', seed: 'two' }).app, 'GET', path)
    expect([a.status, b.status]).toEqual([200, 200])
    expect(b.text).not.toBe(a.text)
  }
)

test('gives two keys two environments with their own ids', async () => {
  const { app } = createMock({ apiGeneration: '2024-10', seed: 'same' })
  const a = await request(app, 'GET', '/v1/topics', { key: 'key-a' })
  const b = await request(app, 'GET', '/v1/topics', { key: 'key-b' })
  expect(a.body.data[0]._environmentId).not.toBe(b.body.data[0]._environmentId)
  expect(a.body.data[0]._organizationId).not.toBe(b.body.data[0]._organizationId)
})

test('never shows one key the writes of another', async () => {
  const { app } = createMock({ apiGeneration: '2024-10', seed: 'same' })
  const a = { key: 'key-a' }
  const b = { key: 'key-b' }
  await request(app, 'DELETE', `/v1/notification-groups/${BILLING}`, a)
  await request(app, 'POST', '/v1/notification-groups', { ...a, body: { name: 'Only A' } })
  await request(app, 'DELETE', '/v1/messages/transaction/tx-order-1001', a)
  await request(app, 'PUT', `/v1/workflows/${ORDER_SHIPPED}/status`, {
    ...a,
    body: { active: true },
  })
  await request(app, 'POST', '/v1/workflows', {
    ...a,
    body: { name: 'Test', notificationGroupId: GENERAL, steps: [] },
  })

  expect((await request(app, 'GET', `/v1/notification-groups/${BILLING}`, b)).status).toBe(200)
  const groups = await request(app, 'GET', '/v1/notification-groups', b)
  expect(groups.body.data.map((g: Obj) => g.name)).not.toContain('Only A')
  const messages = await request(app, 'GET', '/v1/messages?transactionId=tx-order-1001', b)
  expect(messages.body.totalCount).toBe(3)
  const workflow = await request(app, 'GET', `/v1/workflows/${ORDER_SHIPPED}`, b)
  expect(workflow.body.data).toMatchObject({ active: false, draft: true })
  const created = await request(app, 'POST', '/v1/workflows', {
    ...b,
    body: { name: 'Test', notificationGroupId: GENERAL, steps: [] },
  })
  expect(created.body.data.triggers[0].identifier).toBe('test')
})

test('shows one key its own writes', async () => {
  const { app } = createMock({ apiGeneration: '2024-10', seed: 'same' })
  await request(app, 'DELETE', '/v1/messages/transaction/tx-order-1001', { key: 'key-a' })
  const after = await request(app, 'GET', '/v1/messages?transactionId=tx-order-1001', {
    key: 'key-a',
  })
  expect(after.body.totalCount).toBe(0)
})
