import { describe, expect, test } from 'vitest'
import { createMock } from '../src/mock.js'
import { request } from './helpers.js'
import { createWorkflow, GENERATIONS, inApp, sms, trigger, triggerMock } from './trigger-helpers.js'

const KEY = 'outbox-key-123456'
type Mock = ReturnType<typeof createMock>

/** A workflow with an email (a text block and a button), an in-app and an SMS step. */
async function orderWorkflow(mock: Mock, key = KEY) {
  const res = await request(mock.app, 'POST', '/v1/workflows', {
    key,
    body: {
      name: 'Order Confirmed',
      notificationGroupId: '66fbb0a0c1f2e3d4a5b60001',
      active: true,
      steps: [
        {
          template: {
            type: 'email',
            subject: 'Order {{orderId}} confirmed',
            content: [
              { type: 'text', content: 'Thanks, {{subscriber.firstName}} &amp; co!' },
              { type: 'button', content: 'Track it', url: 'https://shop.example/o/{{orderId}}' },
            ],
          },
        },
        inApp('Order {{orderId}} is packed', {
          cta: { type: 'redirect', data: { url: '/orders/{{orderId}}' } },
        }),
        sms('Order {{orderId}} ships today'),
      ],
    },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
}

const order = (mock: Mock, orderId: string, key = KEY, subscriberId = 'ada') =>
  trigger(
    mock.app,
    {
      name: 'order-confirmed',
      to: {
        subscriberId,
        firstName: 'Ada',
        email: `${subscriberId}@example.com`,
        phone: '+15550100',
      },
      payload: { orderId },
      transactionId: `tx-${orderId}`,
    },
    key
  )

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const outbox = async (mock: Mock, query = ''): Promise<{ status: number; body: any }> => {
  const res = await mock.app.request(`/__admin/messages${query}`)
  return { status: res.status, body: await res.json() }
}

describe.each(GENERATIONS)('GET /__admin/messages in %s', (generation) => {
  test('shows a triggered email with its rendered subject, HTML, text and links', async () => {
    const mock = triggerMock(generation)
    await orderWorkflow(mock)
    expect((await order(mock, 'A-1')).status).toBe(201)
    const { status, body } = await outbox(mock, `?apiKey=${KEY}&channel=email`)
    expect(status).toBe(200)
    expect(body.data).toHaveLength(1)
    const [message] = body.data
    expect(message).toMatchObject({
      channel: 'email',
      templateIdentifier: 'order-confirmed',
      transactionId: 'tx-A-1',
      email: 'ada@example.com',
      subject: 'Order A-1 confirmed',
      subscriber: { subscriberId: 'ada' },
      rendered: {
        channel: 'email',
        subject: 'Order A-1 confirmed',
        links: ['https://shop.example/o/A-1'],
      },
    })
    expect(message.rendered.html).toContain('<a href="https://shop.example/o/A-1">Track it</a>')
    expect(message.rendered.text).toBe('Thanks, Ada & co!\n\nTrack it (https://shop.example/o/A-1)')
  })

  test('each item is the message as GET /v1/messages lists it, plus the key and rendering', async () => {
    const mock = triggerMock(generation)
    await orderWorkflow(mock)
    await order(mock, 'A-1')
    const v1 = await request(mock.app, 'GET', '/v1/messages?limit=10', { key: KEY })
    const { body } = await outbox(mock, `?apiKey=${KEY}`)
    const byId = new Map(v1.body.data.map((m: { _id: string }) => [m._id, m]))
    expect(body.data).toHaveLength(3)
    for (const item of body.data) {
      const { rendered: _rendered, apiKey: _apiKey, ...asListed } = item
      expect(asListed).toEqual(byId.get(item._id))
    }
  })

  test('shows in-app content with its CTA and SMS text', async () => {
    const mock = triggerMock(generation)
    await orderWorkflow(mock)
    await order(mock, 'B-2')
    const inAppItem = (await outbox(mock, '?channel=in_app')).body.data[0]
    expect(inAppItem.rendered).toMatchObject({
      channel: 'in_app',
      content: 'Order B-2 is packed',
      cta: { type: 'redirect', data: { url: '/orders/B-2' } },
    })
    const smsItem = (await outbox(mock, '?channel=sms')).body.data[0]
    expect(smsItem.rendered).toEqual({ channel: 'sms', text: 'Order B-2 ships today' })
  })
})

test('never shows an API key in full', async () => {
  const mock = triggerMock('2026-08')
  await orderWorkflow(mock)
  await order(mock, 'A-1')
  const { body } = await outbox(mock)
  expect(body.data[0].apiKey).toBe('outb…56')
  expect(JSON.stringify(body)).not.toContain(KEY)
})

test('lists newest first across keys, and one key only with apiKey', async () => {
  const mock = triggerMock('2026-08')
  await orderWorkflow(mock)
  await orderWorkflow(mock, 'other-key-999999')
  await order(mock, 'A-1')
  await mock.admin.advanceClock('1s')
  await order(mock, 'B-2', 'other-key-999999')
  const all = (await outbox(mock, '?channel=email')).body.data
  expect(all.map((m: { transactionId: string }) => m.transactionId)).toEqual(['tx-B-2', 'tx-A-1'])
  const mine = (await outbox(mock, `?channel=email&apiKey=${KEY}`)).body.data
  expect(mine.map((m: { transactionId: string }) => m.transactionId)).toEqual(['tx-A-1'])
})

test('filters by workflow, subscriber, transaction and time', async () => {
  const mock = triggerMock('2026-08')
  await orderWorkflow(mock)
  await createWorkflow(mock.app, 'Other Flow', [sms('hello')], {})
  const before = (await mock.admin.clock(KEY)).now
  await order(mock, 'A-1', KEY, 'ada')
  await mock.admin.advanceClock('1m', KEY)
  const later = (await mock.admin.clock(KEY)).now
  await order(mock, 'B-2', KEY, 'grace')
  const ids = async (query: string) =>
    (await outbox(mock, query)).body.data.map(
      (m: { transactionId: string; channel: string }) => `${m.transactionId}/${m.channel}`
    )
  expect(await ids('?subscriberId=grace&channel=sms')).toEqual(['tx-B-2/sms'])
  expect(await ids('?transactionId=tx-A-1&channel=email')).toEqual(['tx-A-1/email'])
  expect(await ids(`?since=${later}&channel=email`)).toEqual(['tx-B-2/email'])
  expect(await ids(`?since=${before}&channel=email`)).toEqual(['tx-B-2/email', 'tx-A-1/email'])
  expect(await ids('?workflow=other-flow')).toEqual([])
  expect(await ids('?workflow=order-confirmed&channel=in_app')).toEqual([
    'tx-B-2/in_app',
    'tx-A-1/in_app',
  ])
})

test('q finds messages by text in their subject or body, whatever its case', async () => {
  const mock = triggerMock('2026-08')
  await orderWorkflow(mock)
  await order(mock, 'A-1')
  await order(mock, 'B-2')
  const { body } = await outbox(mock, '?q=b-2%20SHIPS')
  expect(body.data.map((m: { transactionId: string }) => m.transactionId)).toEqual(['tx-B-2'])
})

test('pages with limit and page, and says how many match', async () => {
  const mock = triggerMock('2026-08')
  await orderWorkflow(mock)
  for (const id of ['A', 'B', 'C']) await order(mock, id)
  const first = (await outbox(mock, '?channel=sms&limit=2')).body
  expect(first).toMatchObject({ page: 0, pageSize: 2, totalCount: 3, hasMore: true })
  expect(first.data.map((m: { transactionId: string }) => m.transactionId)).toEqual([
    'tx-C',
    'tx-B',
  ])
  const second = (await outbox(mock, '?channel=sms&limit=2&page=1')).body
  expect(second).toMatchObject({ page: 1, totalCount: 3, hasMore: false })
  expect(second.data.map((m: { transactionId: string }) => m.transactionId)).toEqual(['tx-A'])
})

test('a held request answers once a trigger creates a matching message', async () => {
  const mock = triggerMock('2026-08')
  await orderWorkflow(mock)
  const held = outbox(mock, `?apiKey=${KEY}&channel=sms&wait=20s`)
  // Give the held request time to subscribe before the trigger lands.
  await new Promise((resolve) => setImmediate(resolve))
  await order(mock, 'W-1')
  const { status, body } = await held
  expect(status).toBe(200)
  expect(body.data.map((m: { rendered: unknown }) => m.rendered)).toEqual([
    { channel: 'sms', text: 'Order W-1 ships today' },
  ])
})

test('a held request is not answered by a message that does not match', async () => {
  const mock = triggerMock('2026-08')
  await orderWorkflow(mock)
  const held = outbox(mock, `?apiKey=${KEY}&subscriberId=grace&wait=300`)
  await order(mock, 'A-1', KEY, 'ada')
  const { status, body } = await held
  expect(status).toBe(200)
  expect(body).toMatchObject({ data: [], totalCount: 0 })
})

test('a wait that runs out answers an empty list', async () => {
  const mock = triggerMock('2026-08')
  const { status, body } = await outbox(mock, '?wait=50ms')
  expect(status).toBe(200)
  expect(body.data).toEqual([])
})

test.each([
  ['31s', 'at most 30s'],
  ['soon', 'is not a duration'],
  ['-5', 'is not a duration'],
])('wait=%s is a 400 that says why', async (wait, why) => {
  const mock = triggerMock('2026-08')
  const { status, body } = await outbox(mock, `?wait=${wait}`)
  expect(status).toBe(400)
  expect(JSON.stringify(body)).toContain(why)
})

test.each([
  ['channel=fax', 'channel'],
  ['since=yesterday', 'since'],
  ['limit=ten', 'limit'],
  [`workflow=${'w'.repeat(300)}`, 'workflow'],
])('a bad filter (%s) is refused naming it, as the journal refuses one', async (query, name) => {
  const mock = triggerMock('2026-08')
  const { status, body } = await outbox(mock, `?${query}`)
  // The control plane validates in the generation's shape: 2026-08's is a 422.
  expect(status).toBe(422)
  expect(JSON.stringify(body)).toContain(name)
})

test('with ADMIN_TOKEN set, the messages need the token', async () => {
  const mock = createMock({ adminToken: 's3cret', scenario: 'empty' })
  expect((await mock.app.request('/__admin/messages')).status).toBe(401)
  const res = await mock.app.request('/__admin/messages', {
    headers: { Authorization: 'Bearer s3cret' },
  })
  expect(res.status).toBe(200)
})

describe('the admin client', () => {
  test('waitForMessage resolves to the rendered email a trigger creates', async () => {
    const mock = triggerMock('2026-08')
    await orderWorkflow(mock)
    const waiting = mock.admin.forKey(KEY).waitForMessage({ channel: 'email' })
    await order(mock, 'C-3')
    const message = await waiting
    expect(message.rendered).toMatchObject({ subject: 'Order C-3 confirmed' })
  })

  test('waitForMessage rejects, naming the filter, when nothing matches in time', async () => {
    const mock = triggerMock('2026-08')
    await expect(
      mock.admin.waitForMessage({ workflow: 'never-sent' }, { timeoutMs: 20 })
    ).rejects.toThrow(/no message matched {"workflow":"never-sent"} within 20 ms/)
  })

  test('messages lists with filters; a scoped client reads its key only', async () => {
    const mock = triggerMock('2026-08')
    await orderWorkflow(mock)
    await orderWorkflow(mock, 'other-key-999999')
    await order(mock, 'A-1')
    await order(mock, 'B-2', 'other-key-999999')
    expect(await mock.admin.messages({ channel: 'sms' })).toHaveLength(2)
    const mine = await mock.admin.forKey(KEY).messages({ channel: 'sms' })
    expect(mine.map((m) => m.transactionId)).toEqual(['tx-A-1'])
  })
})
